"""The wc filter: each counts line read (counts.py) and rewritten; anything else is kept as printed."""
from __future__ import annotations

from rtk.filters.base import BaseFilter, Line, Stream, strip_ansi
from rtk.filters.wc.counts import split_counts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


class WcFilter(BaseFilter):
    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        match = split_counts(text)
        if stream == Stream.STDERR or match is None:
            self.failure_seen |= text.startswith("wc: ")
            return (Line(line, stream),)
        counts = " ".join(match[0].split())
        path = (match[1] or "").lstrip(" ")
        return (Line(f"{counts} {path}" if path else counts),)
