"""vitest on real captures (pathe 2.0.3, vitest 4.1): every reporter gives the same failures."""
from __future__ import annotations

import re

from rtk.filters.base import FilterContext
from rtk.filters.node.coverage import CoverageTable
from rtk.filters.vitest import create
from tests.filters.line_replay import raw_lines, replay

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(case: str) -> tuple[object, list[str]]:
    filt = create(FilterContext(("npx", "vitest", "run")))
    return filt, replay(filt, raw_lines("vitest", case))


def failing_ids(case: str) -> list[str]:
    ids = [ANSI.sub("", line).strip()[len("FAIL"):].strip() for line in raw_lines("vitest", case)
           if ANSI.sub("", line).strip().startswith("FAIL  test/")]
    return [f"FAIL {i}" for i in ids]


def test_every_failing_id_once_with_message_and_user_frames() -> None:
    filt, out = run("pathe_fail")
    assert [line for line in out if line.startswith("FAIL ")] == failing_ids("pathe_fail")
    assert "  TypeError: Cannot read properties of undefined (reading 'toUpperCase')" in out
    assert "  at src/_path.ts:256:40" in out and "  at test/index.spec.ts:465:12" in out
    assert not any("|" in line and re.match(r"\s+\d+\|", line) for line in out)  # no code frames
    assert out[-1] == "vitest: Test Files 1 failed | 1 passed (2) · Tests 8 failed | 379 passed (387) · 578ms"
    assert filt.failure_seen and not filt.elided


def test_verbose_dot_and_no_colour_reporters_give_the_same_failures() -> None:
    _, default = run("pathe_fail")
    for case in ("pathe_fail_verbose", "pathe_fail_dot", "pathe_fail_nocolor"):
        _, out = run(case)
        assert out[:-1] == default[:-1], case


def test_failed_suite_keeps_the_import_error() -> None:
    _, out = run("pathe_suite_import_error")
    assert out[:2] == ["FAIL test/broken.spec.ts [ test/broken.spec.ts ]",
                       ("  Error: Cannot find module '../src/missing' imported from "
                        "/tmp/w/h19/proj/pathe/test/broken.spec.ts")]


def test_coverage_table_reduced_to_totals_and_files_under_thresholds() -> None:
    filt, out = run("pathe_coverage_threshold")
    assert "ERROR: Coverage for lines (99.04%) does not meet global threshold (99.5%)" in out
    assert "coverage (4 files) % stmts/branch/funcs/lines: 99.08/95.75/100/99.04" in out
    assert [line.split()[0] for line in out if line.startswith("  ")] == ["index.ts", "_path.ts", "utils.ts"]
    assert not any(line.startswith("---") for line in out) and filt.elided


def test_a_failing_listing_without_fail_blocks_still_names_the_tests() -> None:
    lines = [" ❯ test/a.spec.ts (2 tests | 1 failed) 5ms", "     ✓ works 1ms", "     × breaks 2ms",
             "       → expected 1 to be 2"]
    filt = create(FilterContext(("vitest",)))
    assert replay(filt, lines) == ["FAIL breaks"]
    assert filt.failure_seen


def test_coverage_rows_nest_under_directories() -> None:
    table = CoverageTable()
    for row in ("File | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s",
                "All files | 50 | 50 | 50 | 50 |", " src | 40 | 40 | 40 | 40 |", "  a.js | 10 | 10 | 10 | 10 | 1-9",
                "  b.js | 100 | 100 | 100 | 100 |", " src/util | 90 | 90 | 90 | 90 |", "  c.js | 90 | 90 | 90 | 90 | 7"):
        assert table.feed(row)
    lines, cut = table.report()
    assert lines == ["coverage (3 files) % stmts/branch/funcs/lines: 50/50/50/50",
                     "  src/a.js 10/10/10/10 uncovered 1-9"] and cut
