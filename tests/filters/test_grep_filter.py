"""grep and rg: options read from argv, lines grouped by file, long runs and lines cut with counts."""
from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest

from rtk.filters.base import FilterContext, Stream
from rtk.filters.grep import create
from rtk.filters.grep.cut import cut_line, find_match
from rtk.filters.grep.filter import PassFilter
from rtk.filters.grep.options import GrepOptions


def run(argv: str, lines: Sequence[str], limits: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    filt = create(FilterContext(tuple(argv.split()), True, limits or {}))
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    return filt, out + [ln.text for ln in filt.finish(0)]


@pytest.mark.parametrize(("argv", "paths", "numbers", "pattern"), [
    ("grep -rn SESSION src tests", True, True, "SESSION"),
    ("grep -n def src/flask/app.py", False, True, "def"),
    ("grep def a.py b.py", True, False, "def"),
    ("grep -h -rn x .", False, True, "x"),
    ("grep -rn -e foo -C 2 src", True, True, "foo"),
    ("grep -rn --include=*.py error src", True, True, "error"),
    ("rg fn crates/core", True, False, "fn"),
    ("rg -n unsafe", True, True, "unsafe"),
    ("rg -n x src/app.py", False, True, "x"),
    ("rg -n -g *.rs -t rust x", True, True, "x"),
])
def test_options(argv: str, paths: bool, numbers: bool, pattern: str) -> None:
    opts = GrepOptions(argv.split())
    assert (opts.paths, opts.line_numbers, opts.pattern) == (paths, numbers, pattern)


@pytest.mark.parametrize("argv", ["grep -c x -r .", "grep -rl x .", "grep -L x a", "grep -q x a",
                                  "grep -rZ x .", "rg --json x", "rg -c x", "rg --files -0", "rg --vimgrep x",
                                  "grep -rnb x ."])
def test_counting_and_listing_modes_pass_through(argv: str) -> None:
    filt, out = run(argv, ["src/a.py:3"])
    assert isinstance(filt, PassFilter) and out == ["src/a.py:3"]


def test_rg_files_is_a_path_list_grouped_by_directory() -> None:
    from rtk.filters.find.filter import FindFilter

    filt, out = run("rg --files", ["src/a.py", "src/b.py", "nosuchdir: No such file or directory (os error 2)"])
    assert isinstance(filt, FindFilter) and filt.failure_seen
    assert out == ["src/ (2): a.py b.py", "nosuchdir: No such file or directory (os error 2)"]


SESSION_LINES = [
    'src/flask/sessions.py:172:        """The name of the session cookie."""',
    'src/flask/sessions.py:173:        return app.config["SESSION_COOKIE_NAME"]',
    'src/flask/app.py:190:            "SESSION_COOKIE_NAME": "session",']
GROUPED = {"grep_grouped": 1}


def test_by_default_each_line_keeps_its_location_as_grep_printed_it() -> None:
    _, out = run("grep -rn SESSION src", SESSION_LINES)
    assert out == ['src/flask/sessions.py:172:"""The name of the session cookie."""',
                   'src/flask/sessions.py:173:return app.config["SESSION_COOKIE_NAME"]',
                   'src/flask/app.py:190:"SESSION_COOKIE_NAME": "session",', "3 matches in 2 files"]


def test_a_dash_in_a_path_is_not_a_context_line_without_context_options() -> None:
    _, out = run("grep -rn x .", ["./src/x-1-y.py:3:x = 1"])
    assert out == ["./src/x-1-y.py:3:x = 1"]


def test_grouped_layout_prints_each_path_once() -> None:
    _, out = run("grep -rn SESSION src", SESSION_LINES, GROUPED)
    assert out == ["src/flask/sessions.py", '172: """The name of the session cookie."""',
                   '173: return app.config["SESSION_COOKIE_NAME"]',
                   'src/flask/app.py:190:"SESSION_COOKIE_NAME": "session",', "3 matches in 2 files"]


def test_matches_are_grouped_under_their_file() -> None:
    _, out = run("grep -rn SESSION src", [
        'src/flask/sessions.py:172:        """The name of the session cookie."""',
        'src/flask/sessions.py:173:        return app.config["SESSION_COOKIE_NAME"]',
        'src/flask/app.py:190:            "SESSION_COOKIE_NAME": "session",'], GROUPED)
    assert out == ["src/flask/sessions.py", '172: """The name of the session cookie."""',
                   '173: return app.config["SESSION_COOKIE_NAME"]',
                   'src/flask/app.py:190:"SESSION_COOKIE_NAME": "session",', "3 matches in 2 files"]


def test_context_lines_keep_their_dash_and_paths_with_dashes_parse() -> None:
    _, out = run("grep -rn -C 1 json node_modules", [
        "node_modules/body-parser/lib/types/json.js-11-",
        "node_modules/body-parser/lib/types/json.js:12:var bytes = require('bytes')",
        "node_modules/body-parser/lib/types/json.js-13-var debug = require('debug')('body-parser:json')",
        "--"], GROUPED)
    assert out == ["node_modules/body-parser/lib/types/json.js", "11- ", "12: var bytes = require('bytes')",
                   "13- var debug = require('debug')('body-parser:json')"]


def test_a_long_run_keeps_head_and_tail_and_repeats_the_path() -> None:
    lines = [f"src/big.py:{n}:    x = {n}" for n in range(1, 201)]
    filt, out = run("grep -rn x src", lines, {"grep_max_per_file": 80, "grep_tail_per_file": 20, **GROUPED})
    assert out[0] == "src/big.py" and "1: x = 1" in out and "200: x = 200" in out
    assert "... 120 more lines in src/big.py (lines 61-180)" in out
    assert "src/big.py (cont.)" in out
    headers = [i for i, line in enumerate(out) if line.startswith("src/big.py")]
    assert all(b - a <= 51 for a, b in itertools.pairwise(headers))
    assert filt.elided


def test_rg_heading_layout() -> None:
    _, out = run("rg -n --heading def src", ["src/flask/json/tag.py", "32:        def check(self, value):",
                                                      "35:        def to_json(self, value):", "",
                                                      "src/flask/json/provider.py", "38:    def __init__(self, app):"])
    assert out == ["src/flask/json/tag.py", "32: def check(self, value):", "35: def to_json(self, value):",
                   "src/flask/json/provider.py:38:def __init__(self, app):", "3 matches in 2 files"]


def test_errors_pass_verbatim() -> None:
    filt, out = run("grep -rn def nosuchdir src", ["grep: nosuchdir: No such file or directory"])
    assert out == ["grep: nosuchdir: No such file or directory"] and filt.failure_seen


def test_a_minified_line_is_cut_around_the_match_at_word_edges() -> None:
    text = "var a=1;" * 200 + " function needle(x) { return x } " + "var b=2;" * 200
    cut = cut_line(text, 200, find_match(text, "needle", False))
    assert "needle" in cut and cut.startswith("[") and cut.endswith(" chars]") and len(cut) < 260


def test_find_match_falls_back_to_a_literal_search() -> None:
    assert find_match("a(b", "(b", False) == 1
    assert find_match("ABC", "b", True) == 1
