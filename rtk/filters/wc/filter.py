"""The wc filter: each counts line read (counts.py) and rewritten; anything else is kept as printed.

Consecutive files of one directory (three or more) go under one line naming it, each file's
counts and name indented below it (`src/click/ (17):`, ` 144 __init__.py`, ...): the directory,
said once instead of on every line, is the part of `wc -l src/click/*.py` nobody reads twice;
every file's name and counts stay, each under its directory (a file without one, or the total,
is not indented, so it never reads as one of the group's)."""
from __future__ import annotations

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.wc.counts import split_counts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

MIN_GROUP = 3  # fewer files of one directory keep their whole path: a heading would cost more


class WcFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self.directory = ""
        self.rows: list[tuple[str, str]] = []  # (counts, name) of the files of `directory`, held

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        match = split_counts(text)
        if stream == Stream.STDERR or match is None:
            self.failure_seen |= text.startswith("wc: ")
            return [*self._flush(), Line(line, stream)]
        counts = " ".join(match[0].split())
        path = (match[1] or "").lstrip(" ")
        directory, slash, name = path.rpartition("/")
        if not slash or not name or path == "total":
            return [*self._flush(), Line(f"{counts} {path}" if path else counts)]
        out = self._flush() if directory + "/" != self.directory else []
        self.directory = directory + "/"
        self.rows.append((counts, name))
        return out

    def _flush(self) -> list[Line]:
        rows, self.rows = self.rows, []
        if len(rows) < MIN_GROUP:
            return [Line(f"{counts} {self.directory}{name}") for counts, name in rows]
        return [Line(f"{self.directory} ({len(rows):,}):"), *(Line(f" {counts} {name}") for counts, name in rows)]

    def finish(self, exit_code: int) -> Iterable[Line]:
        return self._flush()
