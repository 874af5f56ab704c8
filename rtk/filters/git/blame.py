"""git blame (default format): each run of lines from one commit under one line naming it.

git prints the commit, author, date, time and zone on every line
(`95ad276ca (Douglas Christopher Wilson 2015-06-18 23:00:20 -0400  1) /*!`); an agent reads
blame to learn which commit wrote which lines, so the commit is said once per run of lines
(`95ad276ca Douglas Christopher Wilson 2015-06-18`, with the file name when git printed one)
and each line keeps its number and its text exactly (`1) /*!`). Dropped: the time of day and
the zone. A line in any other shape (`--porcelain`, `-s`, `-e`, an error) passes through as
git printed it, and the next blamed line names its commit again.
"""
from __future__ import annotations

import re

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

BLAME_RE = re.compile(
    r"(?P<sha>\^?[0-9a-f]{7,40}) (?:(?P<file>[^\s(][^(]*?) +)?\((?P<author>.*?) +(?P<date>\d{4}-\d\d-\d\d) "
    r"\d\d:\d\d:\d\d [+-]\d{4} +(?P<line>\d+)\) (?P<text>.*)$")


class BlameFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self.commit: str | None = None  # the header printed last, None after a line passed through
        self.lines = 0

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        self.lines += 1
        text = strip_ansi(line).rstrip("\r\n")
        m = BLAME_RE.match(text)
        if m is None:
            self.commit = None
            self.failure_seen = self.failure_seen or text.startswith(("fatal: ", "error: ", "usage: "))
            return (Line(line, stream),)
        self.elided = True  # the time of day and the zone: the raw blame is kept, the hint says how to get it
        header = " ".join(p for p in (m["sha"], m["file"], m["author"].strip(), m["date"]) if p)
        row = Line(f"{m['line']}) {m['text']}", stream)
        if header == self.commit:
            return (row,)
        self.commit = header
        return (Line(header, stream), row)

    def progress(self) -> dict[str, int]:
        return {"lines": self.lines}


def create(ctx: FilterContext) -> BlameFilter:
    return BlameFilter(ctx)
