"""grep and rg: matches grouped by file, every match kept with its line number.

`path:12:text` lines become the path once, then `12: text` per match (`11- text` for context
lines), with the text's indentation dropped; the path is repeated after every 50 lines of one
file, so a location is never far from its file. A file with more matches than the limit
(`grep_max_per_file`, default 60) keeps its first and last matches and counts the middle; a
line longer than `grep_max_line` (default 400 characters) is cut at a word boundary around the
match with the number of characters left out. One closing line counts matches and files.
Counting and listing modes (`-c`, `-l`, `-L`, `-q`, `-o` with offsets, `-Z`, `-z`, `--json`,
`--vimgrep`, `--column`, `--files`, `-b`) pass through exactly, and so do error lines.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves("grep", "grep|egrep|fgrep|rg [options] pattern [paths]",
                (Words(("grep", "egrep", "fgrep", "rg")),))


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.grep.filter import create as build

    return build(ctx)
