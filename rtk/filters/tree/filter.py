"""The tree filter: strips the drawing prefix, marks directories, keeps the counts line."""
from __future__ import annotations

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.find.middle import MiddleElider

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

UNITS = ("├── ", "└── ", "│\xa0\xa0 ", "│   ", "    ", "|-- ", "`-- ", "|   ", "├──\xa0", "└──\xa0")
RAW_FLAGS = ("-J", "-X", "-H", "--help", "--version")
NOTHING: tuple[Line, ...] = ()


def is_counts(text: str) -> bool:
    """tree's closing `3 directories, 12 files` (or `1 directory`): the regex
    `^\\d+ director(?:y|ies)(?:, \\d+ files?)?$` read with str methods (no `re` on the run path;
    tests/filters/test_str_readers.py holds the two equal). A newline never reaches a filter."""
    text = text.removesuffix("\n")
    dirs, found, rest = text.partition(" director")
    if not found or not dirs.isdecimal():
        return False
    if not rest.startswith(("y", "ies")):
        return False
    rest = rest[1:] if rest[0] == "y" else rest[3:]
    if not rest:
        return True
    files, found, unit = rest.removeprefix(", ").partition(" file")
    return rest.startswith(", ") and bool(found) and files.isdecimal() and unit in ("", "s")


def split_prefix(text: str) -> tuple[int, str]:
    """(depth, name): the number of 4-character drawing units before the name."""
    depth = 0
    while text.startswith(UNITS, depth * 4):
        depth += 1
    return depth, text[depth * 4:]


class PassFilter(BaseFilter):
    lossless = True


class TreeFilter(BaseFilter):
    def __init__(self, ctx: FilterContext) -> None:
        super().__init__(ctx)
        self.list = MiddleElider(ctx.limit("tree_max_lines", 500), ctx.limit("tree_tail_lines", 100))
        self.pending: tuple[int, str] | None = None
        self.parents: list[str] = []

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if not text:
            return NOTHING
        if stream == Stream.STDERR or is_counts(text) or text.startswith("tree: "):
            self.failure_seen |= not is_counts(text)
            return [*self._flush(-1), *self._tail(), Line(text, stream)]
        depth, name = split_prefix(text)
        out = self._flush(depth)
        self.pending = (depth, name)
        return out

    def _flush(self, next_depth: int) -> list[Line]:
        """Print the held node, now that the next line tells whether it has children."""
        if self.pending is None:
            return []
        depth, name = self.pending
        self.pending = None
        is_dir = next_depth > depth and not name.endswith("/") and " -> " not in name
        del self.parents[depth:]
        group = "/".join(self.parents) + "/"
        self.parents.append(name)
        kept = self.list.add(" " * depth + name + ("/" if is_dir and depth else ""), group)
        return [Line(kept)] if kept is not None else []

    def _tail(self) -> list[Line]:
        self.elided |= self.list.elided
        return [Line(text) for text in self.list.close("entries")]

    def finish(self, exit_code: int) -> Iterable[Line]:
        return [*self._flush(-1), *self._tail()]


def create(ctx: FilterContext) -> BaseFilter:
    if any(arg in RAW_FLAGS or arg.startswith("--du") for arg in ctx.argv[1:]):
        return PassFilter(ctx)
    return TreeFilter(ctx)
