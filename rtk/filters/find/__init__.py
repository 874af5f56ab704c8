"""find: every path it printed; a long list grouped by directory, a very long one with its middle counted.

Up to 40 paths the list is exactly what find printed. Past that, each run of three or more paths
in one directory is one line naming the directory once and then every entry
(`./src/click/ (17): core.py types.py ...`, group.py): nothing is hidden, only the repeated
prefix goes (50-55% of the tokens on real trees). A list longer than `find_max_paths` (1,000
grouped, 500 when its first paths came scattered over directories) keeps its first and last
paths and replaces the middle with one line counting the left-out paths per directory; the raw
output goes to recall. Error lines (`find: 'x': No such file or directory`) are always kept, in
their place. `-print0`, `-printf`, `-fprint*`, `-ls`, `-exec`, `-execdir`, `-ok`, `-okdir` and
`-delete` pass through exactly: their output is not a list of paths; so do fd's `-x`/`-X`, `-0`
and `-l`.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves("find", "find [paths] [expression], fd|fdfind [pattern] [paths] (path lists)",
                (Words(("find", "fd", "fdfind")),))


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.find.filter import create as build

    return build(ctx)
