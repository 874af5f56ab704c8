"""The find filter: paths pass as printed until the list is long, then the middle is counted."""
from __future__ import annotations

import posixpath

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.find.group import Grouper, grouped, pays
from rtk.filters.find.middle import MiddleElider

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

RAW_ACTIONS = frozenset({"-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls",
                         "-exec", "-execdir", "-ok", "-okdir", "-delete", "-quit"})
FD_RAW = frozenset({"-x", "--exec", "-X", "--exec-batch", "-0", "--print0", "-l", "--list-details",
                    "-h", "--help", "-V", "--version"})
NOTHING: tuple[Line, ...] = ()
MAX_PATHS, TAIL_PATHS = 1000, 200  # grouped by directory, 1,000 paths of node_modules are ~3k tokens
EXACT_PATHS = 500  # a list up to this long is printed exactly as find printed it (every path a reader may grep for whole)
EXACT_MAX, EXACT_TAIL = 500, 150  # a long list whose first paths were scattered


class PassFilter(BaseFilter):
    """Output that is not a plain path list: exactly as printed."""

    lossless = True


class FindFilter(BaseFilter):
    def __init__(self, ctx: FilterContext) -> None:
        super().__init__(ctx)
        self.list = MiddleElider(ctx.limit("find_max_paths", MAX_PATHS), ctx.limit("find_tail_paths", TAIL_PATHS))
        self.groups: Grouper | None = None  # decided once EXACT_PATHS paths were seen
        self.held: list[Line] | None = []  # paths (stdout) and errors, until the list is long
        self.runs = 0  # runs of paths in one directory, so far
        self.directory: str | None = None
        self.scattered = False  # the lower limit applies, until the runs say otherwise

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        if stream == Stream.STDERR or text.startswith(("find: ", "[fd error]: ")):
            self.failure_seen = True
            return self._error(Line(line, stream))
        directory = posixpath.dirname(text.rstrip("/")) + "/"
        self._count_run(directory)
        kept = self.list.add(text, directory)
        if kept is None:
            return NOTHING
        if self.held is not None:
            self.held.append(Line(kept))
            return self._decide() if len(self.held) > EXACT_PATHS else NOTHING
        return [Line(line) for line in self.groups.add(kept)] if self.groups is not None else (Line(kept),)

    def _count_run(self, directory: str) -> None:
        """Runs so far; a list found scattered at first gets the higher limit once its runs grow."""
        if directory != self.directory:
            self.runs += 1
            self.directory = directory
        if self.scattered and self.list.seen < self.list.head_size and self.list.seen >= 3 * self.runs:
            self.scattered = False
            self.list.resize(self.ctx.limit("find_max_paths", MAX_PATHS), self.ctx.limit("find_tail_paths", TAIL_PATHS))

    def _error(self, line: Line) -> Iterable[Line]:
        """An error keeps its place among the paths (the directory it names is being listed)."""
        if self.held is not None:
            self.held.append(line)
            return NOTHING
        return [*(Line(text) for text in self.groups.flush()), line] if self.groups is not None else (line,)

    def _decide(self) -> list[Line]:
        """A long list: runs of paths in one directory grouped from now on; the limit on paths is
        the higher one when the first paths already came in runs."""
        held, self.held = self.held or [], None
        if not pays([text for text, stream in held if stream == Stream.STDOUT]):
            # scattered paths (runs are still grouped where they come): fewer fit the same room
            self.list.resize(self.ctx.limit("find_max_paths", EXACT_MAX), self.ctx.limit("find_tail_paths", EXACT_TAIL))
            self.scattered = True
        self.groups = Grouper()
        out: list[Line] = []
        for line in held:
            out.extend(self._error(line) if line.stream == Stream.STDERR else map(Line, self.groups.add(line.text)))
        return out

    def finish(self, exit_code: int) -> Iterable[Line]:
        self.elided = self.list.elided
        out = list(self.held or ()) + [Line(text) for text in (self.groups.flush() if self.groups is not None else ())]
        rest = self.list.close("paths")
        if rest and rest[0].startswith("... "):
            out.append(Line(rest.pop(0)))
        return out + [Line(text) for text in (grouped(rest) if self.groups is not None else rest)]


def create(ctx: FilterContext) -> BaseFilter:
    fd = bool(ctx.argv) and posixpath.basename(ctx.argv[0]) in ("fd", "fdfind")
    if any(arg in (FD_RAW if fd else RAW_ACTIONS) for arg in ctx.argv[1:]):
        return PassFilter(ctx)
    return FindFilter(ctx)
