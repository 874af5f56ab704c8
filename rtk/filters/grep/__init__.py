"""grep and rg: every match kept with its location, indentation dropped, long runs capped.

Lines stay in grep's own `path:12:text` form (context lines `path-11-text`), with the text's
leading whitespace dropped; `[limits] grep_grouped = 1` prints each path once and `12: text`
under it instead (rg's `--heading` output is always shown that way). A file with more lines than
the limit (`grep_max_per_file`, default 60) keeps its first and last ones and counts the middle;
a line longer than `grep_max_line` (default 400 characters) is cut at a word boundary around the
match with the number of characters left out. One closing line counts matches and files.
Counting and listing modes (`-c`, `-l`, `-L`, `-q`, `-Z`, `-z`, `-b`, `--json`, `--vimgrep`,
`--column`) pass through exactly, and so do error lines; `rg --files` is a list of paths, grouped
by directory as find's (rtk/filters/find/).
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
