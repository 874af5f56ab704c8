"""eslint 9 on real captures (pathe, express): every position kept, grouped by file and rule."""
from __future__ import annotations

import re

from rtk.filters.base import FilterContext
from rtk.filters.eslint.filter import EslintFilter
from tests.filters.line_replay import raw_lines, replay

PROBLEM = re.compile(r"^\s+(\d+:\d+)\s+(?:error|warning)\s")


def run(case: str, argv: tuple[str, ...] = ("npx", "eslint", "."), cwd: str = "") -> tuple[EslintFilter, list[str]]:
    filt = EslintFilter(FilterContext(argv), cwd)
    return filt, replay(filt, raw_lines("eslint", case))


def test_every_position_survives_and_messages_are_not_repeated() -> None:
    raw = raw_lines("eslint", "express_stylish")
    positions = [m[1] for line in raw if (m := PROBLEM.match(line))]
    _, out = run("express_stylish")
    text = "\n".join(out)
    assert all(f"L{p}" in text for p in positions) and len(positions) == 440
    assert text.count("Unexpected var, use let or const instead") == 1
    assert out[0] == "(paths below /tmp/w/h19/proj/exlint/)" and out[1] == "examples/auth/index.js"
    assert out[-2:] == ["eslint: 440 problems (10 errors, 430 warnings) in 46 files",
                        "0 errors and 410 warnings fixable with --fix."]


def test_paths_relative_to_the_working_directory() -> None:
    _, out = run("pathe_stylish", cwd="/tmp/w/h19/proj/pathe")
    assert out[:2] == ["src/_path.ts", "  L218:7 error prefer-const: 'unusedExt' is never reassigned. Use 'const' instead"]


def test_unix_format_and_fix_summary() -> None:
    _, out = run("pathe_unix", ("eslint", "-f", "unix", "."))
    assert "src/_path.ts:226:23 error no-debugger: Unexpected 'debugger' statement." in out  # eslint's own path:line:col
    assert out[-1] == "eslint: 6 problems in 2 files"
    _, out = run("pathe_fix", ("eslint", "--fix", "."))
    assert out[-1] == "eslint: 4 problems (1 error, 3 warnings) in 2 files remaining after --fix"


def test_crash_keeps_the_error_and_drops_internal_frames() -> None:
    filt, out = run("pathe_config_crash")
    assert out == ["Oops! Something went wrong! :(", "ESLint: 9.39.5",
                   ("Error: Cannot find package '/tmp/w/h19/proj/pathe/node_modules/eslint-config-unjs/index.js' "
                    "imported from /tmp/w/h19/proj/pathe/eslint.config.mjs")]
    assert filt.failure_seen


def test_a_line_that_is_no_file_header_is_printed() -> None:
    assert replay(EslintFilter(FilterContext(("eslint",))), ["Some plugin notice"]) == ["Some plugin notice"]
