"""Filters with a byte path (`feed_block`) print exactly what their line path prints, on every
real fixture they serve, whatever the chunking: the byte path may only be faster."""
from __future__ import annotations

import pytest

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
