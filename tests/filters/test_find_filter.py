"""find: paths exact, the middle of a long list counted per directory, actions pass through."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from rtk.filters.base import FilterContext, Stream
from rtk.filters.find import create
from rtk.filters.find.filter import PassFilter
from rtk.filters.find.middle import MiddleElider


def run(argv: str, lines: Sequence[str], limits: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    filt = create(FilterContext(tuple(argv.split()), True, limits or {}))
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    return filt, out + [ln.text for ln in filt.finish(0)]


def test_a_short_list_is_exactly_what_find_printed() -> None:
    lines = ["./src/requests/api.py", "./src/requests/auth.py", "find: './x': Permission denied"]
    filt, out = run("find . -name *.py", lines)
    assert out == lines and filt.failure_seen and not filt.elided


def test_a_long_list_keeps_head_and_tail_and_counts_the_middle() -> None:
    lines = [f"./lib/rules/r{i}.js" for i in range(400)] + [f"./lib/linter/l{i}.js" for i in range(200)]
    filt, out = run("find . -type f", lines, {"find_max_paths": 100, "find_tail_paths": 30})
    assert out[:70] == lines[:70] and out[-30:] == lines[-30:]
    assert out[70] == "... 500 more paths (./lib/rules/: 330, ./lib/linter/: 170)"
    assert filt.elided


def test_the_marker_names_the_biggest_directories_first() -> None:
    elider = MiddleElider(2, 1)
    for path, group in [("a", "x/"), ("b", "y/"), ("c", "y/"), ("d", "z/"), ("e", "z/")]:
        elider.add(path, group)
    assert elider.close("paths") == ["... 3 more paths (y/: 2, z/: 1)", "e"]


@pytest.mark.parametrize("argv", ["fd -x wc -l", "fdfind -0 rs", "fd -l", "find . -print0", "find . -exec wc -l {} +", "find . -printf %p",
                                  "find . -delete", "find . -ls", "find . -execdir rm {} ;"])
def test_actions_pass_through(argv: str) -> None:
    filt, out = run(argv, ["  12 ./a.rs"])
    assert isinstance(filt, PassFilter) and out == ["  12 ./a.rs"]
