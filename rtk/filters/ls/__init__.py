"""ls: listings reduced to what an agent uses: every name, its kind and size.

Long formats (`-l`, `-la`, `-lh`, `-lR`) keep each entry's name, a `/` for directories, `*` for
executables, the size of files, and the target of symlinks; permissions, link counts, owners,
groups and dates go (dates stay with `-t`, whose order depends on them), and so do `total` lines
and the `.`/`..` entries: the raw listing is kept, and the recall hint says how to get it back. Plain and `-R` listings keep every name and every `dir:` header.
Directories of node_modules size keep their first and last entries with a count of the middle.
Errors (`ls: cannot access ...`) are printed verbatim. Options rtk does not know pass through.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves("ls", "ls [-l] [-a] [-h] [-R] [-t] [paths]", (Words(("ls",)),))


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.ls.filter import create as build

    return build(ctx)
