"""The wc filter: one regex per line; anything else is kept as printed."""
from __future__ import annotations

import re
from collections.abc import Iterable

from rtk.filters.base import BaseFilter, Line, Stream, strip_ansi

COUNTS_RE = re.compile(r"^\s*(\d+(?:\s+\d+)*)(?:\s(.*))?$")


class WcFilter(BaseFilter):
    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        match = COUNTS_RE.match(text)
        if stream == Stream.STDERR or match is None:
            self.failure_seen |= text.startswith("wc: ")
            return (Line(line, stream),)
        counts = " ".join(match[1].split())
        path = (match[2] or "").lstrip(" ")
        return (Line(f"{counts} {path}" if path else counts),)
