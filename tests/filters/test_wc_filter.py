"""wc: counts without padding, paths exact or under their directory, total and errors kept."""
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
    assert [ln.text for ln in filt.feed("   12 my notes/a b.txt", Stream.STDOUT)] == []  # held: more may follow
    assert [ln.text for ln in filt.finish(0)] == ["12 my notes/a b.txt"]


def test_three_files_of_one_directory_go_under_it_and_the_rest_stays_whole() -> None:
    filt = create(FilterContext(("wc", "-l")))
    lines = ["  144 src/click/__init__.py", "  590 src/click/_compat.py", " 3799 src/click/core.py",
             "   12 docs/conf.py", "    7 setup.py", "   20 src/click/types.py", " 4572 total"]
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)] + [ln.text for ln in filt.finish(0)]
    assert out == ["src/click/ (3):", " 144 __init__.py", " 590 _compat.py", " 3799 core.py",
                   "12 docs/conf.py", "7 setup.py", "20 src/click/types.py", "4572 total"]
