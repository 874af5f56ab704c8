"""A JSON body held until it ends: printed exactly when small, as an outline when large.

The line splitter cuts lines at 64 KB, so a one-line 200 KB document arrives in pieces: a piece
of exactly that size was cut, not ended, and is joined without a newline.
"""
from __future__ import annotations

import json
from typing import Any

from rtk.filters.base import Line, Stream
from rtk.filters.json.outline import MAX_LINES, outline

SPLITTER_CUT = 64 * 1024 - 4  # pieces at least this long (in bytes) were cut by the splitter
# characters held for an outline; past them the body is printed as it came. Parsing is what
# costs memory (Python objects: ~6x the text), so this bounds the peak: an 8 MB document parses
# within ~65 MB, where a 32 MB one took ~200 MB
MAX_HOLD = 8 * 1024 * 1024


class JsonBody:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.lines: list[Line] = []
        self.parts: list[str] = []
        self.chars = 0
        self.given_up = False  # too big to hold: printed as it came

    def add(self, line: str, stream: Stream) -> list[Line]:
        if self.given_up:
            return [Line(line, stream)]
        self.lines.append(Line(line, stream))
        self.chars += len(line) + 1
        if self.parts and not _was_cut(self.parts[-1]):
            self.parts.append("\n")
        self.parts.append(line)
        if self.chars > MAX_HOLD:
            self.given_up = True
            held, self.lines, self.parts = self.lines, [], []
            return held
        return []

    def close(self) -> tuple[list[Line], bool]:
        """The lines to print, and whether they elide anything (an outline)."""
        if self.given_up or self.chars <= self.budget:
            return self.lines, False
        text = "".join(self.parts)
        values = parse_values(text)
        if values is None or all(not isinstance(v, (dict, list)) for v in values):
            return self.lines, False  # not JSON, or plain values (a string asked for is content)
        return [Line(line) for line in render(values, len(text))], True


def _was_cut(piece: str) -> bool:
    return len(piece) * 4 >= SPLITTER_CUT and len(piece.encode("utf-8", "replace")) >= SPLITTER_CUT


def parse_values(text: str) -> list[Any] | None:
    """Every JSON value in `text` (jq prints a stream), or None when it is not all JSON."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    pos, end = 0, len(text)
    while True:
        while pos < end and text[pos].isspace():
            pos += 1
        if pos >= end:
            return values or None
        try:
            value, pos = decoder.raw_decode(text, pos)
        except ValueError:
            return None
        values.append(value)


def render(values: list[Any], chars: int) -> list[str]:
    stream = "" if len(values) == 1 else f", a stream of {len(values):,} values"
    lines = outline(values[0] if len(values) == 1 else values)
    if len(lines) > MAX_LINES:
        lines = [*lines[:MAX_LINES], f"... outline cut here ({len(lines) - MAX_LINES:,} more lines)"]
    return [f"JSON outline ({chars:,} chars{stream}):", *lines]
