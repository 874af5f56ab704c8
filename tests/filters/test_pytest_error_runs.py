"""pytest: a run of errors the short summary names is not listed twice; repr addresses go."""
from __future__ import annotations

import pytest

from rtk.filters.base import FilterContext
from rtk.filters.pytest import create
from rtk.filters.pytest.report import errors_in_summary
from tests.filters.line_replay import raw_lines, replay

CASE = "itsd_autouse_fixture_errors_q"  # 297 tests erroring at setup on one fixture, pytest -q


def run(lines: list[str], argv: tuple[str, ...] = ("pytest", "-q")) -> list[str]:
    return replay(create(FilterContext(argv)), lines)


@pytest.mark.parametrize(("argv", "named"), [
    ("pytest -q", True), ("pytest -rfE", True), ("pytest -r fE", True), ("pytest -ra", True),
    ("pytest -vrA", True), ("pytest -rs", False), ("pytest -rN", False), ("pytest -r f", False),
    ("pytest --tb=short", True),
])
def test_which_runs_expect_the_summary_to_name_their_errors(argv: str, named: bool) -> None:
    assert errors_in_summary(argv.split()) is named


def _summary_ids(lines: list[str]) -> list[str]:
    return [line.removeprefix("ERROR ") for line in lines if line.startswith("ERROR tests/")]


def test_the_summary_names_each_error_of_the_run_once_with_its_file() -> None:
    lines = raw_lines("pytest", CASE)
    out = run(lines)
    assert "ERROR at setup of 295 more tests (same as above, each named in the summary below)" in out
    assert not any(line.startswith("  test_") for line in out)
    ids = _summary_ids(out)
    assert len(ids) == len(set(ids)) == 297


def test_names_the_summary_never_gave_are_listed_at_the_end() -> None:
    lines = raw_lines("pytest", CASE)
    cut = next(i for i, line in enumerate(lines) if "short test summary info" in line)
    out = run(lines[:cut])  # interrupted before its summary: every name still printed
    at = out.index("ERROR at setup of 295 more tests (same as above) not named in the summary:")
    assert len([line for line in out[at + 1:] if line.startswith("  ")]) == 295
    assert "  TestSerializer.test_serializer[Serializer-None]" in out[at:]


def test_with_rs_the_run_keeps_its_names_in_place() -> None:
    out = run(raw_lines("pytest", CASE), ("pytest", "-q", "-rs"))
    at = out.index("ERROR at setup of 295 more tests (same as above):")
    assert out[at + 1] == "  test_base64[\\u7121\\u9650]"


def test_an_objects_address_leaves_the_error_lines() -> None:
    out = run(raw_lines("pytest", "toolz_tb_line"), ("pytest", "--tb=line"))
    assert "     +  where <function merge> = <function merge>({1: 1})" in out
    assert not any(" at 0x" in line for line in out if line.startswith(("E ", "  ")))
