"""The Rust rtk's TOML format, field by field: a file written for it works here unchanged."""
from __future__ import annotations

import pytest

from rtk.filters.declarative.checks import apply, check_properties, run_test
from tests.conftest import RUST_RTK_HINT
from tests.filters.declarative.helpers import RUST_RTK, load, one, run, rust_builtin_text


def test_strip_lines_matching_drops_noise_and_keeps_the_rest() -> None:
    spec = one('strip_lines_matching = ["^make\\\\[\\\\d+\\\\]:", "^\\\\s*$"]\n')
    out, engine = run(spec, ["make[1]: Entering directory '/w'", "gcc -O2 foo.c", "", "ld foo.o"])
    assert out == ["gcc -O2 foo.c", "ld foo.o"]
    assert not engine.elided  # noise is not content: no recall needed


def test_keep_lines_matching_keeps_only_matching_lines() -> None:
    spec = one('keep_lines_matching = ["error", "warning"]\n')
    assert run(spec, ["ok 1", "a.c:3: error: x", "ok 2", "b.c:9: warning: y"])[0] == \
        ["a.c:3: error: x", "b.c:9: warning: y"]


def test_strip_and_keep_together_are_refused() -> None:
    found = load('[filters.t]\nmatch_command = "^t"\nstrip_lines_matching = ["a"]\nkeep_lines_matching = ["b"]\n')
    assert not found.filters and "mutually exclusive" in found.errors[0]


def test_replace_rules_chain_and_use_rust_group_references() -> None:
    spec = one('replace = [{ pattern = "^(\\\\w+)-(?<n>\\\\d+)", replacement = "$n:${1}" },'
               ' { pattern = "\\\\s+$", replacement = "" }, { pattern = "x", replacement = "$$" }]\n')
    assert run(spec, ["abc-12 tail   ", "x"])[0] == ["12:abc tail", "$"]


def test_match_output_short_circuits_unless_the_unless_pattern_is_present() -> None:
    spec = one('match_output = [{ pattern = "total size is", message = "ok (synced)", unless = "error|failed" }]\n')
    out, engine = run(spec, ["sending incremental file list", "total size is 1,024"])
    assert out == ["ok (synced)"] and engine.elided
    assert run(spec, ["rsync: failed to open x", "total size is 1,024"])[0] == \
        ["rsync: failed to open x", "total size is 1,024"]


def test_truncate_lines_at_cuts_as_upstream_and_marks_the_run_elided() -> None:
    spec = one("truncate_lines_at = 10\n")
    out, engine = run(spec, ["short", "keep 2 very long line here"])
    assert out == ["short", "keep 2 ..."] and engine.elided


@pytest.mark.parametrize("fields, total, expected", [
    ("head_lines = 2\ntail_lines = 2\n", 6, ["1", "2", "... 2 more lines", "5", "6"]),
    ("head_lines = 2\ntail_lines = 2\n", 4, ["1", "2", "3", "4"]),
    ("head_lines = 3\n", 5, ["1", "2", "3", "... 2 more lines"]),
    ("tail_lines = 2\n", 5, ["... 3 more lines", "4", "5"]),
    ("max_lines = 3\n", 5, ["1", "2", "3", "... 2 more lines"]),
    ("head_lines = 2\ntail_lines = 2\nmax_lines = 4\n", 9, ["1", "2", "... 5 more lines", "8", "... 1 more line"]),
    ("head_lines = 5\nmax_lines = 2\n", 9, ["1", "2", "... 4 more lines"]),
    ("tail_lines = 3\nmax_lines = 2\n", 9, ["... 6 more lines", "7", "... 2 more lines"]),
])
def test_head_tail_max_follow_the_rust_arithmetic(fields: str, total: int, expected: list[str]) -> None:
    assert run(one(fields), [str(i) for i in range(1, total + 1)])[0] == expected


def test_head_lines_stream_before_the_output_ends() -> None:
    from rtk.filters.base import FilterContext, Stream
    from rtk.filters.declarative.engine import DeclarativeFilter

    engine = DeclarativeFilter(one("head_lines = 2\ntail_lines = 2\n"), FilterContext())
    assert [line.text for line in engine.feed("first", Stream.STDOUT)] == ["first"]
    assert [line.text for line in engine.feed("second", Stream.STDOUT)] == ["second"]
    assert list(engine.feed("third", Stream.STDOUT)) == []  # may be in the tail: held


def test_on_empty_when_everything_was_stripped() -> None:
    spec = one('strip_lines_matching = ["^make"]\non_empty = "make: ok"\n')
    assert run(spec, ["make[1]: Entering", "make[1]: Leaving"])[0] == ["make: ok"]
    assert run(spec, ["built"])[0] == ["built"]


def test_stderr_passes_through_unless_filter_stderr() -> None:
    from rtk.filters.base import Stream

    spec = one('strip_lines_matching = ["noise"]\n')
    assert run(spec, ["noise here"], stream=Stream.STDERR)[0] == ["noise here"]
    merged = one('strip_lines_matching = ["noise"]\nfilter_stderr = true\n')
    assert run(merged, ["noise here"], stream=Stream.STDERR)[0] == []


def test_pass_through_if_args() -> None:
    spec = one('max_lines = 2\npass_through_if_args = ["-s", "--max-depth"]\n')
    assert spec.passes_through(["-sh", "."]) and spec.passes_through(["--max-depth=1"])
    assert not spec.passes_through(["-h", "src"])


def test_inline_tests_layout_and_rust_markers_in_expected_text() -> None:
    found = load('''schema_version = 1
[filters.make]
match_command = "^make\\\\b"
head_lines = 2
tail_lines = 1

[[tests.make]]
name = "middle elided"
input = """
a
b
c
d
"""
expected = """
a
b
... (1 lines omitted)
d
"""
''')
    spec = found.filters[0]
    assert [run_test(spec, t).passed for t in spec.tests] == [True]


def test_schema_version_other_than_1_skips_the_file() -> None:
    found = load('schema_version = 2\n[filters.t]\nmatch_command = "^t"\n')
    assert not found.filters and "schema_version 2" in found.errors[0]


def test_a_bom_and_crlf_input_are_tolerated() -> None:
    found = load('\ufeffschema_version = 1\n[filters.t]\nmatch_command = "^t"\nstrip_lines_matching = ["^x$"]\n')
    assert apply(found.filters[0], "x\r\ny\r\n") == "y"


@pytest.mark.skipif(not RUST_RTK.exists(), reason=RUST_RTK_HINT)
def test_every_builtin_filter_of_the_installed_rust_rtk_passes_its_own_tests() -> None:
    """The Rust binary embeds its built-in TOML (one blob starting `schema_version = 1`): read it
    unchanged, and run every inline test it ships."""
    found = load(rust_builtin_text() or "", "built-in")
    assert not found.errors
    outcomes = [run_test(spec, test) for spec in found.filters for test in spec.tests]
    outcomes += [o for spec in found.filters for o in check_properties(spec)]
    assert len(outcomes) > 100
    assert [o for o in outcomes if not o.passed] == []
