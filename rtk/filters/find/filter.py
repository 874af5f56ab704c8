"""The find filter: paths grouped by directory as they stream; a very long list has its middle counted."""
from __future__ import annotations

import posixpath

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.find.group import Grouper, grouped
from rtk.filters.find.middle import MiddleElider

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

RAW_ACTIONS = frozenset({"-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls",
                         "-exec", "-execdir", "-ok", "-okdir", "-delete", "-quit"})
FD_RAW = frozenset({"-x", "--exec", "-X", "--exec-batch", "-0", "--print0", "-l", "--list-details",
                    "-h", "--help", "-V", "--version"})
NOTHING: tuple[Line, ...] = ()
MAX_PATHS, TAIL_PATHS = 1000, 200  # grouped, 1,000 paths in few directories are ~5k tokens


class PassFilter(BaseFilter):
    """Output that is not a plain path list: exactly as printed."""

    lossless = True


class FindFilter(BaseFilter):
    """Any plain list of paths, one a line (find, fd, rg --files, git ls-files); a line starting
    with one of `errors` is the tool's error message, kept in its place."""

    def __init__(self, ctx: FilterContext, errors: tuple[str, ...] = ("find: ", "[fd error]: ")) -> None:
        super().__init__(ctx)
        self.errors = errors
        self.list = MiddleElider(ctx.limit("find_max_paths", MAX_PATHS), ctx.limit("find_tail_paths", TAIL_PATHS))
        self.groups = Grouper()

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        if stream == Stream.STDERR or text.startswith(self.errors) or _os_error(text):
            self.failure_seen = True
            return [*(Line(t) for t in self.groups.flush()), Line(line, stream)]  # an error keeps its place
        if not text:
            return NOTHING
        kept = self.list.add(text, posixpath.dirname(text.rstrip("/")) + "/")
        return [Line(t) for t in self.groups.add(kept)] if kept is not None else NOTHING

    def finish(self, exit_code: int) -> Iterable[Line]:
        self.elided = self.list.elided
        out = self.groups.flush()
        rest = self.list.close("paths")
        if rest and rest[0].startswith("... "):
            out.append(rest.pop(0))
        return [Line(text) for text in out + grouped(rest)]


def _os_error(text: str) -> bool:
    """rg 13's and fd's `nosuchdir: No such file or directory (os error 2)`."""
    return text.endswith(")") and " (os error " in text


def create(ctx: FilterContext) -> BaseFilter:
    fd = bool(ctx.argv) and posixpath.basename(ctx.argv[0]) in ("fd", "fdfind")
    if any(arg in (FD_RAW if fd else RAW_ACTIONS) for arg in ctx.argv[1:]):
        return PassFilter(ctx)
    return FindFilter(ctx)
