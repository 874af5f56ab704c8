"""Filters with a byte path (`feed_block`) print exactly what their line path prints, on every
real fixture they serve, whatever the chunking: the byte path may only be faster."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.generic.filter import GenericFilter
from rtk.filters.pytest.filter import PytestFilter
from tests.filters.fixture_cases import Case, all_cases, replay

BLOCK_FILTERS = {"pytest": PytestFilter, "generic": GenericFilter}
CASES = [c for c in all_cases() if c.path.parent.name in BLOCK_FILTERS]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
@pytest.mark.parametrize("chunk", [97, 4096, 65536])
def test_byte_path_prints_what_the_line_path_prints(case: Case, chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    with_blocks = replay(case.command, case.raw, case.exit_code, chunk=chunk)
    monkeypatch.setattr(BLOCK_FILTERS[case.path.parent.name], "feed_block", None)
    assert replay(case.command, case.raw, case.exit_code, chunk=chunk) == with_blocks


def test_passing_progress_blocks_take_the_byte_path() -> None:
    from rtk.filters.base import FilterContext, Stream

    filt = PytestFilter(FilterContext(("pytest",)))
    for line in ("============================= test session starts ==============================",
                 "collected 9 items", "", "tests/test_a.py ..s.  [ 44%]"):
        filt.feed(line, Stream.STDOUT)
    assert filt.feed_block(b"tests/test_b.py ..x..  [100%]\n", Stream.STDOUT) == b""
    assert filt.feed_block(b"tests/test_c.py ..F  [100%]\n", Stream.STDOUT) is None  # ids to note
    assert filt._counts.dots == 7 and filt._counts.chars["s"] == 1 and filt._counts.chars["x"] == 1


# -- pytest's -v and -q blocks against the line path's counting, on generated lines --------------

_ID_PARTS = st.sampled_from(["tests/t.py", "::", "Test", "::test_a", "[", "]", "a b", " PASSED",
                             " SKIPPED", " XFAIL", "x", ":", " ", "-", "(reason)", " FAILED"])
_WORDS = st.sampled_from(["PASSED", "SKIPPED", "XFAIL", "XPASS", "FAILED", "ERROR", "SUBPASS", ""])
_TAILS = st.sampled_from(["", " ", "  [ 50%]", "           [100%]", " (reason)  [ 3%]", " [12/24]"])


_PARAMS = st.sampled_from(["", "[1]", "[a b]", "[x-y PASSED]", "[a] b", "[[1]]", "[a::b]", "[a]x"])


@st.composite
def _verbose_line(draw: st.DrawFn) -> bytes:
    """A -v result line as pytest writes it (`path::Class::test[params] WORD  [ 50%]`), or
    one made of its pieces in any order."""
    if draw(st.booleans()):
        nodeid = draw(st.sampled_from(["tests/t.py::test_a", "t.py::T::test_b", "a b.py::t", "t.py:x"]))
        nodeid += draw(_PARAMS)
    else:
        nodeid = "".join(draw(st.lists(_ID_PARTS, min_size=1, max_size=6)))
    return f"{nodeid} {draw(_WORDS)}{draw(_TAILS)}".encode()


_BARE_LINE = st.builds(lambda dots, tail: (dots + tail).encode(),
                       st.text(alphabet=".sxXF", min_size=1, max_size=12), _TAILS)
_RESULTS = st.one_of(st.text(alphabet=".sxX", min_size=1, max_size=12), st.text(alphabet=".sxXF", max_size=12))
_PATH = st.sampled_from(["tests/test_a.py", "src/x.py", "./t.py", "s.x", "...", "t\tx.py", "x:y"])
_DEFAULT_LINE = st.builds(lambda path, sep, dots, tail: (path + sep + dots + tail).encode(),
                          _PATH, st.sampled_from([" ", "  ", ""]), _RESULTS, _TAILS)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(_verbose_line(), min_size=1, max_size=6), st.lists(_BARE_LINE, min_size=1, max_size=6),
                 st.lists(st.one_of(_DEFAULT_LINE, _BARE_LINE), min_size=1, max_size=8),
                 st.lists(st.one_of(_verbose_line(), _BARE_LINE, _DEFAULT_LINE), min_size=1, max_size=12)))
def test_a_counted_progress_block_counts_what_the_line_path_counts(lines: list[bytes]) -> None:
    from collections import Counter

    from rtk.filters.pytest.counts import RunCounts
    from rtk.filters.pytest.ids import IdResolver
    from rtk.filters.pytest.progress_block import passing_progress

    counted = passing_progress(b"".join(line + b"\n" for line in lines))
    if counted is None:
        return  # the line path takes the block: always allowed
    counts = RunCounts(IdResolver())
    assert all(counts.progress(line.decode()) for line in lines)
    assert counts.dots == counted.dots and +counts.chars == +Counter(counted.others)
    assert not counts.chars["F"] and not counts.chars["E"]  # a failure's id is the line path's to note


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=".sxXF [%/019\n", max_size=60))
def test_the_fast_bare_block_regex_matches_what_it_is_written_as(text: str) -> None:
    import re

    from rtk.filters.pytest.progress_block import BARE_BLOCK, BARE_BLOCK_AS_WRITTEN

    body = text.encode()
    assert (BARE_BLOCK.fullmatch(body) is None) == (re.fullmatch(BARE_BLOCK_AS_WRITTEN, body) is None)


@settings(max_examples=1000, deadline=None)
@given(st.one_of(st.lists(_DEFAULT_LINE, min_size=1, max_size=4),
                 st.lists(st.one_of(_DEFAULT_LINE, _BARE_LINE, st.just(b"")), min_size=1, max_size=8)))
def test_default_progress_blocks_count_what_their_lines_as_written_hold(lines: list[bytes]) -> None:
    import re
    from collections import Counter

    from rtk.filters.pytest.progress_block import DOTS_LINE_AS_WRITTEN, passing_progress

    counted = passing_progress(b"".join(line + b"\n" for line in lines))
    found = [re.fullmatch(DOTS_LINE_AS_WRITTEN, line) for line in lines]
    if not all(found) or any(b"::" in line for line in lines):
        assert counted is None or all(found)  # (a -v block is the other reader's)
        return
    assert counted is not None
    results = b"".join(m[1] or m[3] for m in found if m)
    path = next((m[2] for m in reversed(found) if m and m[2]), b"")
    assert (counted.dots, +Counter(counted.others), counted.path) == (
        results.count(b"."), +Counter({c: results.count(c.encode()) for c in "sxX"}), path.decode())
