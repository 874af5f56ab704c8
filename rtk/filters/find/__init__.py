"""find: every path exactly as find printed it; long lists keep their start and end.

A list longer than the limit (`find_max_paths`, default 500) keeps its first and last paths and
replaces the middle with one line counting the left-out paths per directory; the raw output goes
to recall. Error lines (`find: 'x': No such file or directory`) are always kept. `-print0`,
`-printf`, `-fprint*`, `-ls`, `-exec`, `-execdir`, `-ok`, `-okdir` and `-delete` pass through
exactly: their output is not a list of paths; so do fd's `-x`/`-X`, `-0` and `-l`.
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
