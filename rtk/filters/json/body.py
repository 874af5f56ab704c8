"""A JSON body held until it ends: printed exactly when small, as an outline when large.

The line splitter cuts lines at 64 KB, so a one-line 200 KB document arrives in pieces: a piece
of exactly that size was cut, not ended, and is joined without a newline.
"""
from __future__ import annotations

import json
from typing import Any

from rtk.filters.base import Line, Stream
from rtk.filters.json.outline import compresses, fit_outline

SPLITTER_CUT = 64 * 1024 - 4  # pieces at least this long (in bytes) were cut by the splitter
# characters held for an outline; past them the body is printed as it came. Parsing is what
# costs memory (Python objects: ~6x the text), so this bounds the peak: an 8 MB document parses
# within ~65 MB, where a 32 MB one took ~200 MB
MAX_HOLD = 8 * 1024 * 1024
# A flat list of names or numbers (`jq keys`, `jq '.versions | keys'`) is what was asked for, item by
# item, like `find`'s paths: printed whole up to this size
FLAT_WHOLE = 32 * 1024
# A document up to this size whose outline would not be clearly smaller is printed whole (an API
# object of scalars: GitHub's repository object, 7.6 KB, outlines to 7.2 KB)
SMALL_WHOLE = 8 * 1024
# The outline's room grows with the document: 3/4 of a small one (an outline of an API answer is
# not much smaller than the answer, and its values are what was asked for), 6,000 chars plus a
# 16th of a large one, between ~1k and ~4k tokens. GitHub's repository object (7.6 KB) then keeps
# every value, npm's registry document of `ms` (33 KB) every key of its versions.
OUTLINE_MIN, OUTLINE_MAX, OUTLINE_BASE, OUTLINE_SHARE = 4096, 16 * 1024, 6000, 16


class JsonBody:
    def __init__(self, budget: int, host_limit: int | None = None) -> None:
        self.budget = budget  # printed exactly up to this many chars
        self.host_limit = host_limit  # the host cuts past this (Claude Code): the outline stays under it
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
        if self.chars <= self._flat_whole() and all(_flat(v) for v in values):
            return self.lines, False
        if self.chars <= self._small_whole() and not compresses(values[0] if len(values) == 1 else values, self.chars):
            return self.lines, False
        return [Line(line) for line in render(values, len(text), self._outline_room())], True

    def _flat_whole(self) -> int:
        return min(FLAT_WHOLE, self.host_limit - 2000) if self.host_limit else FLAT_WHOLE

    def _small_whole(self) -> int:
        return min(SMALL_WHOLE, self.host_limit - 2000) if self.host_limit else SMALL_WHOLE

    def _outline_room(self) -> int:
        grown = min(self.chars * 3 // 4, OUTLINE_BASE + self.chars // OUTLINE_SHARE)
        room = min(max(grown, OUTLINE_MIN), OUTLINE_MAX)
        return min(room, self.host_limit - 2000) if self.host_limit else room


def _flat(value: Any) -> bool:
    """A list of scalars only (`keys`, a list of versions or of names)."""
    return isinstance(value, list) and all(not isinstance(item, (dict, list)) for item in value)


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


def render(values: list[Any], chars: int, room: int = OUTLINE_MIN) -> list[str]:
    stream = "" if len(values) == 1 else f", a stream of {len(values):,} values"
    lines = fit_outline(values[0] if len(values) == 1 else values, room)
    return [f"JSON outline ({chars:,} chars{stream}):", *lines]
