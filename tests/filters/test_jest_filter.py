"""jest 30 on real captures (dayjs): failures as `file > title`, the failing-tests repeat dropped."""
from __future__ import annotations

from rtk.filters.base import FilterContext
from rtk.filters.jest import create
from tests.filters.line_replay import raw_lines, replay


def run(case: str) -> tuple[object, list[str]]:
    filt = create(FilterContext(("npx", "jest")))
    return filt, replay(filt, raw_lines("jest", case))


def test_each_failure_once_with_expected_received_and_first_user_frame() -> None:
    filt, out = run("dayjs_fail_nocoverage")
    fails = [line for line in out if line.startswith("FAIL ")]
    assert len(fails) == 12 and len(set(fails)) == 12
    at = out.index("FAIL test/display.test.js > Days in Month")
    assert out[at + 1:at + 5] == ["  expect(received).toBe(expected) // Object.is equality", "  Expected: 31",
                                  "  Received: 32", "  at test/display.test.js:235:33"]
    assert out[-1].startswith("jest: Tests 12 failed, 73 passed, 85 total · Suites 4 failed, 1 passed, 5 total")
    assert filt.failure_seen


def test_summary_of_all_failing_tests_is_not_repeated() -> None:
    raw = raw_lines("jest", "dayjs_plugins_fail_coverage_threshold")
    assert any(line.startswith("Summary of all failing tests") for line in raw)
    _, out = run("dayjs_plugins_fail_coverage_threshold")
    fails = [line for line in out if line.startswith("FAIL ")]
    assert len(fails) == len(set(fails)) == 38  # the bullets before the repeat


def test_coverage_threshold_and_reduced_table() -> None:
    filt, out = run("dayjs_plugins_fail_coverage_threshold")
    assert 'Jest: Coverage for lines (96.07%) does not meet "global" threshold (100%)' in out
    assert "coverage (49 files) % stmts/branch/funcs/lines: 96.11/90.52/93.61/96.07" in out
    assert not any("|" in line and "%" not in line for line in out if line.startswith(" "))
    assert filt.elided


def test_suite_error_and_console_block() -> None:
    _, out = run("dayjs_suite_error_console")
    assert out[:3] == ["FAIL test/zz-broken.test.js > Test suite failed to run",
                       "  Cannot find module '../src/nope' from 'test/zz-broken.test.js'",
                       "  at test/zz-broken.test.js:2:1"]
    assert "  console.log" in out and "    debug value 2020-01-01T00:00:00+00:00" in out


def test_passing_verbose_run_is_one_line() -> None:
    _, out = run("dayjs_pass_nocoverage_verbose")
    assert out == ["jest: Tests 6 passed, 6 total · Suites 2 passed, 2 total · 1.729 s"]


def test_a_table_past_the_row_cap_is_counted_not_held(monkeypatch: object) -> None:
    """The 49-file table with the cap at 20 rows: the report says how many rows it did not
    examine, the file count stays the table's, and the filter says it left something out."""
    from rtk.filters.node import coverage

    monkeypatch.setattr(coverage, "MAX_ROWS", 20)  # type: ignore[attr-defined]
    filt, out = run("dayjs_plugins_fail_coverage_threshold")
    assert "coverage (49 files) % stmts/branch/funcs/lines: 96.11/90.52/93.61/96.07" in out
    assert "  ... 29 more rows not examined (past the first 20)" in out
    assert filt.elided  # type: ignore[attr-defined]
