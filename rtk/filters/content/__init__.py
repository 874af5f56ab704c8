"""cat, head, tail, sed -n: a file's text, byte-exact unless it is very long.

Under the budget (`content_max_lines`, default 2000 lines, and `content_max_bytes`, default
256 KB) the output is exactly what the command printed. Above it the agent gets the first
`content_head_lines` (200) and last `content_tail_lines` (100) lines with their line numbers, one
line saying which lines were left out, and the exact command that prints them
(`sed -n '201,3821p' History.md`). `tail -f`, `sed` without `-n` or with a script other than line
printing, and options rtk does not know pass through untouched.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from rtk.filters.base import Filter, FilterContext


class NotFollowing(Words):
    """`tail` that ends: `-f`, `-F` and `--follow` stream forever and must stay raw."""

    def matches(self, words: Sequence[str]) -> bool:
        return super().matches(words) and not any(
            w.startswith("--follow") or (w.startswith("-") and not w.startswith("--") and ("f" in w or "F" in w))
            for w in words[1:])


class SedPrint(Words):
    """`sed -n` with a line-printing script (`'10,20p'`, `'/re/p'`): it prints part of a file."""

    def matches(self, words: Sequence[str]) -> bool:
        if not super().matches(words):
            return False
        from rtk.filters.content.sed import sed_print_range  # stdlib-only, no `re`

        return sed_print_range(words) is not None


SERVES = Serves("content", "cat|head|tail|sed -n 'A,Bp' FILE (file contents)",
                (Words(("cat", "head")), NotFollowing(("tail",)), SedPrint(("sed",))))


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.content.filter import create as build

    return build(ctx)
