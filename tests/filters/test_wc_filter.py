"""wc: counts without padding, paths exact, total and errors kept."""
from __future__ import annotations

from rtk.filters.base import FilterContext, Stream
from rtk.filters.wc import create


def test_padding_goes_paths_and_total_stay() -> None:
    filt = create(FilterContext(("wc", "src/requests/api.py", "nosuch")))
    lines = ["  180   862  7152 src/requests/api.py", "wc: nosuch: No such file or directory",
             "  180   862  7152 total", "42"]
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    assert out == ["180 862 7152 src/requests/api.py", "wc: nosuch: No such file or directory",
                   "180 862 7152 total", "42"]
    assert filt.failure_seen


def test_a_path_with_spaces_is_kept_whole() -> None:
    filt = create(FilterContext(("wc", "-l")))
    assert [ln.text for ln in filt.feed("   12 my notes/a b.txt", Stream.STDOUT)] == ["12 my notes/a b.txt"]
