"""The find filter: paths pass as printed until the list is long, then the middle is counted."""
from __future__ import annotations

import posixpath

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.find.middle import MiddleElider

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

RAW_ACTIONS = frozenset({"-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls",
                         "-exec", "-execdir", "-ok", "-okdir", "-delete", "-quit"})
FD_RAW = frozenset({"-x", "--exec", "-X", "--exec-batch", "-0", "--print0", "-l", "--list-details",
                    "-h", "--help", "-V", "--version"})
NOTHING: tuple[Line, ...] = ()


class PassFilter(BaseFilter):
    """Output that is not a plain path list: exactly as printed."""

    lossless = True


class FindFilter(BaseFilter):
    def __init__(self, ctx: FilterContext) -> None:
        super().__init__(ctx)
        self.list = MiddleElider(ctx.limit("find_max_paths", 500), ctx.limit("find_tail_paths", 150))

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        if stream == Stream.STDERR or text.startswith(("find: ", "[fd error]: ")):
            self.failure_seen = True
            return (Line(line, stream),)
        kept = self.list.add(text, posixpath.dirname(text.rstrip("/")) + "/")
        return (Line(kept),) if kept is not None else NOTHING

    def finish(self, exit_code: int) -> Iterable[Line]:
        self.elided = self.list.elided
        return [Line(text) for text in self.list.close("paths")]


def create(ctx: FilterContext) -> BaseFilter:
    fd = bool(ctx.argv) and posixpath.basename(ctx.argv[0]) in ("fd", "fdfind")
    if any(arg in (FD_RAW if fd else RAW_ACTIONS) for arg in ctx.argv[1:]):
        return PassFilter(ctx)
    return FindFilter(ctx)
