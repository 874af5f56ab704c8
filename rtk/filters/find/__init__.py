"""find and fd: every path named, grouped by directory (`src/click/ (17): core.py types.py ...`).

A directory's entries are one line: the directory once (without find's `./`), then every name
(group.py); a directory with one entry stays a path. A list longer than the limit
(`find_max_paths`, default 1,000) keeps its first and last paths and replaces the middle with one
line counting the left-out paths per directory; the raw output goes to recall. Error lines
(`find: 'x': No such file or directory`) are always kept, in their place. `-print0`, `-printf`,
`-fprint*`, `-ls`, `-exec`, `-execdir`, `-ok`, `-okdir` and `-delete` pass through exactly: their
output is not a list of paths; so do fd's `-x`/`-X`, `-0` and `-l`. `rg --files` and `git
ls-files` are lists of paths too: their filters use this one.
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
