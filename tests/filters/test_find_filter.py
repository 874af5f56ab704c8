"""find: paths grouped by directory with every name kept, the middle of a very long list counted per
directory, actions pass through."""
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


def test_a_short_list_is_grouped_by_directory_and_errors_keep_their_place() -> None:
    lines = ["./src/requests/api.py", "./src/requests/auth.py", "find: './x': Permission denied", "./README.md"]
    filt, out = run("find . -name *.py", lines)
    assert out == ["src/requests/ (2): api.py auth.py", "find: './x': Permission denied", "README.md"]
    assert filt.failure_seen and not filt.elided


def test_a_directory_left_behind_is_written_while_the_list_streams() -> None:
    filt = create(FilterContext(("find", "."), True, {}))
    fed = [[ln.text for ln in filt.feed(path, Stream.STDOUT)]
           for path in ["./a/x.py", "./a/b/y.py", "./a/b/z.py", "./a/w.py", "./c/v.py"]]
    assert fed == [[], [], [], ["a/b/ (2): y.py z.py"], ["a/ (2): x.py w.py"]]
    assert [ln.text for ln in filt.finish(0)] == ["c/v.py"]


def test_names_are_quoted_and_long_directories_span_lines_with_every_name() -> None:
    lines = [f"./lib/rules/r{i}.js" for i in range(400)] + [f"./lib/linter/l {i}.js" for i in range(3)]
    filt, out = run("find . -type f", lines)
    assert out[0].startswith("lib/rules/ (400): r0.js r1.js ") and all(len(line) <= 1000 for line in out)
    names = " ".join(line.split(": ", 1)[1] for line in out if line.startswith("lib/rules/")).split()
    assert names == [f"r{i}.js" for i in range(400)] and not filt.elided
    assert out[-1] == "lib/linter/ (3): 'l 0.js' 'l 1.js' 'l 2.js'"


def test_a_long_list_keeps_head_and_tail_and_counts_the_middle() -> None:
    lines = [f"./lib/rules/r{i}.js" for i in range(400)] + [f"./lib/linter/l{i}.js" for i in range(200)]
    filt, out = run("find . -type f", lines, {"find_max_paths": 100, "find_tail_paths": 30})
    assert out[0] == "lib/rules/ (70): " + " ".join(f"r{i}.js" for i in range(70))
    assert out[1] == "... 500 more paths (./lib/rules/: 330, ./lib/linter/: 170)"
    assert out[2] == "lib/linter/ (30): " + " ".join(f"l{i}.js" for i in range(170, 200))
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
