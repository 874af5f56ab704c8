"""diff -u / diff -ru: a per-file `+added -removed` summary first, then each file's hunks.

Hunk headers and every changed line are kept; context is reduced to one line on each side of a
change (a skipped run of context shows as ` ...`); a hunk with more changed lines than the limit
(`diff_max_hunk_lines`, default 150) keeps its first 100 with a count of the rest. `Only in`,
`Binary files ... differ` and error lines are kept verbatim; the `diff -ru a b` lines and the
timestamps of `---`/`+++` go. The summary needs the whole diff, so the compact form is held
until diff ends (diff is fast); it lists up to `diff_max_files` files (2,000) and keeps up to
`diff_max_notes` notes (2,000), and counts the rest, so memory stays bounded on any diff.
Formats that are not unified (normal, `-c`, `-q`, `-y`, `-e`) pass through exactly.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves("diff", "diff -u|-U N|-ru [options] a b", (Words(("diff",)),))


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.diff.filter import create as build

    return build(ctx)
