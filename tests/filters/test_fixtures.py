"""Golden tests: every fixture's raw output, replayed, gives its expected.txt and keeps its facts.

`pytest --update-expected` rewrites expected.txt (review the diff before committing it).
"""
from __future__ import annotations

import pytest

from tests.filters.fixture_cases import Case, all_cases, fact_kept, replay

CASES = all_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_expected_output(case: Case, request: pytest.FixtureRequest) -> None:
    printed = replay(case.command, case.raw, case.exit_code, host=case.host)
    expected = case.path / "expected.txt"
    if request.config.getoption("--update-expected") or not expected.exists():
        expected.write_text(printed)
    assert printed == expected.read_text()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_fact_survives(case: Case) -> None:
    printed = replay(case.command, case.raw, case.exit_code, host=case.host)
    lost = [fact for fact in case.facts if not fact_kept(fact, printed)]
    assert not lost, f"{case.id} lost {len(lost)} facts: {lost}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_never_larger_than_raw(case: Case) -> None:
    printed = replay(case.command, case.raw, case.exit_code, host=case.host)
    assert len(printed.encode()) <= len(case.raw) + 200  # summary + hint lines at most


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_same_output_whatever_the_chunking(case: Case) -> None:
    assert replay(case.command, case.raw, case.exit_code, chunk=1 + len(case.raw) // 7, host=case.host) == \
        replay(case.command, case.raw, case.exit_code, chunk=65536, host=case.host)


def test_every_registered_filter_has_fixtures() -> None:
    from rtk.filters.registry import REGISTRY

    tools = {c.path.parent.name for c in CASES}
    missing = [name for name in REGISTRY if name not in tools]
    assert not missing, f"filters without fixtures: {missing}"
