"""Every complete filter file shown in docs/filters.md loads, and its inline tests pass."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtk.filters.declarative.checks import check_properties, run_test
from tests.filters.declarative.helpers import load

DOC = Path(__file__).resolve().parents[3] / "docs" / "filters.md"
BLOCKS = [b for b in re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL) if "[filters." in b]


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("block", BLOCKS, ids=[re.search(r"\[filters\.([\w-]+)\]", b).group(1) for b in BLOCKS])  # type: ignore[union-attr]
def test_each_example_passes_its_own_tests(block: str) -> None:
    found = load(block)
    assert not found.errors and len(found.filters) == 1
    spec = found.filters[0]
    assert spec.tests, "every example carries its tests"
    outcomes = [run_test(spec, test) for test in spec.tests] + check_properties(spec)
    assert [o for o in outcomes if not o.passed] == []


def test_the_builtin_filters_pass_verify() -> None:
    from rtk.filters.declarative import part_files
    from rtk.filters.declarative.catalog import load_all

    found = load_all(part_files("built-in"))
    assert not found.errors and not found.orphans
    assert {s.name for s in found.filters} >= {"ansible-lint", "apt-get", "gcc", "markdownlint", "mvn", "pre-commit", "ps", "psql", "shellcheck", "tox", "yamllint"}
    for spec in found.filters:
        assert spec.tests, f"{spec.name} has no inline tests"
        outcomes = [run_test(spec, t) for t in spec.tests] + check_properties(spec)
        assert [o for o in outcomes if not o.passed] == []
