"""diff -u/-ru: summary first, context cut to one line, huge hunks folded, hunk counts respected."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from rtk.filters.base import FilterContext, Stream
from rtk.filters.diff import create
from rtk.filters.diff.filter import PassFilter, is_unified

HUNK = ["diff -ru a/x.py b/x.py", "--- a/x.py\t2023-08-17 17:25:39.000000000 +0000",
        "+++ b/x.py\t2024-12-19 17:04:12.000000000 +0000", "@@ -1,7 +1,7 @@", " one", " two", " three",
        "-four", "+FOUR", " five", " six", " seven"]


def run(argv: str, lines: Sequence[str], exit_code: int = 1, limits: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    filt = create(FilterContext(tuple(argv.split()), True, limits or {}))
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    return filt, out + [ln.text for ln in filt.finish(exit_code)]


@pytest.mark.parametrize(("argv", "unified"), [
    ("diff -u a b", True), ("diff -ru a b", True), ("diff -Naur a b", True), ("diff -U1 a b", True),
    ("diff --unified=5 a b", True), ("diff a b", False), ("diff -rq a b", False), ("diff -y a b", False),
    ("diff -c a b", False), ("diff --brief -u a b", False),
])
def test_only_unified_output_is_parsed(argv: str, unified: bool) -> None:
    assert is_unified(argv.split()) is unified
    assert isinstance(create(FilterContext(tuple(argv.split()))), PassFilter) is not unified


def test_summary_first_then_hunks_with_one_line_of_context() -> None:
    filt, out = run("diff -ru a b", ["Only in a: old.txt", *HUNK])
    assert out == ["diff: 1 file changed, +1 -1", "Only in a: old.txt", "--- a/x.py", "+++ b/x.py",
                   "@@ -1,7 +1,7 @@", " ...", " three", "-four", "+FOUR", " five"]
    assert filt.failure_seen  # exit 1 means "they differ", which is shown
    assert filt.elided  # the context lines left out are content: the recall hint says how to get them


def test_a_hunk_whose_context_is_all_printed_is_not_elided() -> None:
    hunk = [*HUNK[:3], "@@ -1,3 +1,3 @@", " three", "-four", "+FOUR", " five"]
    filt, out = run("diff -u a b", hunk)
    assert out[-4:] == [" three", "-four", "+FOUR", " five"] and not filt.elided


@pytest.mark.parametrize("flag", ["-U5", "--unified=5", "-rU5", "-NrU3"])
def test_asked_context_is_printed_whole(flag: str) -> None:
    filt, out = run(f"diff {flag} a b", HUNK)
    assert out[-8:] == [" one", " two", " three", "-four", "+FOUR", " five", " six", " seven"]
    assert not filt.elided


def test_every_file_gets_a_summary_line() -> None:
    second = [line.replace("x.py", "y.py") for line in HUNK]
    _, out = run("diff -ru a b", [*HUNK, *second])
    assert out[:3] == ["diff: 2 files changed, +2 -2", " b/x.py +1 -1", " b/y.py +1 -1"]


def test_a_removed_line_that_looks_like_a_header_stays_in_its_hunk() -> None:
    lines = ["--- a/notes.md", "+++ b/notes.md", "@@ -1,2 +1,1 @@", "--- not a header", " kept"]
    _, out = run("diff -u a b", lines)
    assert out[0] == "diff: 1 file changed, +0 -1" and "--- not a header" in out


def test_a_huge_hunk_is_folded_with_counts() -> None:
    lines = ["--- a/big", "+++ b/big", "@@ -0,0 +1,300 @@", *(f"+line {i}" for i in range(300))]
    filt, out = run("diff -u a b", lines)
    assert "+line 99" in out and "+line 100" not in out
    assert out[-1] == "... 200 more changed lines in this hunk (+200 -0)"
    assert filt.elided


def test_past_the_line_budget_later_hunks_are_only_counted() -> None:
    lines = [*HUNK, *(line.replace("x.py", "y.py") for line in HUNK)]
    filt, out = run("diff -ru a b", lines, limits={"diff_max_lines": 3})
    assert out[:3] == ["diff: 2 files changed, +2 -2", " b/x.py +1 -1", " b/y.py +1 -1"]
    assert out[-1] == "... 1 more hunks not shown (the diff's line budget is spent)" and "+FOUR" in out
    assert filt.elided


def test_errors_and_identical_files() -> None:
    filt, out = run("diff -u a/nosuch.py b/x.py", ["diff: a/nosuch.py: No such file or directory"], 2)
    assert out == ["diff: a/nosuch.py: No such file or directory"] and filt.failure_seen
    _, out = run("diff -u a a", [], 0)
    assert out == []


def test_past_the_file_cap_files_are_counted_and_their_hunks_left_for_recall() -> None:
    files = [[line.replace("x.py", f"f{n}.py") for line in HUNK] for n in range(5)]
    filt, out = run("diff -ru a b", [line for hunk in files for line in hunk], limits={"diff_max_files": 3})
    assert out[:5] == ["diff: 5 files changed, +5 -5", " b/f0.py +1 -1", " b/f1.py +1 -1", " b/f2.py +1 -1",
                       " ... 2 more files +2 -2"]
    assert "+++ b/f2.py" in out and "+++ b/f3.py" not in out and filt.elided


def test_past_the_note_cap_notes_are_counted() -> None:
    notes = [f"Only in a: old{n}.txt" for n in range(5)]
    filt, out = run("diff -ru a b", [*notes, *HUNK], limits={"diff_max_notes": 2})
    assert out[:4] == ["diff: 1 file changed, +1 -1", "Only in a: old0.txt", "Only in a: old1.txt",
                       "... 3 more lines like these"]
    assert filt.elided


def test_a_diff_of_any_size_holds_a_bounded_summary() -> None:
    """A repeated 200 MB `diff -ru` held every file it saw (170 MB): past the caps only counts grow."""
    import tracemalloc

    filt = create(FilterContext(("diff", "-ru", "a", "b"), True, {}))
    tracemalloc.start()
    try:
        for n in range(30_000):
            for line in HUNK:
                filt.feed(line.replace("x.py", f"dir/file{n}.py"), Stream.STDOUT)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 3_000_000, held  # the 2,000 listed files (30,000 held 10 MB)
    assert next(iter(filt.finish(1))).text == "diff: 30,000 files changed, +30,000 -30,000"
