"""rustc code frames made compact: one line per label, suggestions as their new code only.

A frame (the lines under a `-->` location) becomes:
- `  ^ label` for the primary label at the location itself (the `-->` line says where);
- `  21:5 - label` for any other label (line:col; col left out when it cannot be told exactly);
- `  45-49 - label` for a label on a span over several lines (start and end line);
- `  22 | new code` / `  48 + new code` for a suggestion's new lines (`help:` without a location),
  `  5 - old code` for a line it removes without a replacement.
Source lines, unlabelled markers, connectors and gutters go: the location says where to look.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

SOURCE_RE = re.compile(r"^\s*(\d+)\s*(\||[+~-]) ?(.*)$")
GUTTER_RE = re.compile(r"^\s*\|(.*)$")
LOCATION_RE = re.compile(r"^\s*(?:-->|:::) \S.*?:(\d+)(?::(\d+))?$")
MARKS = " |_/\\^-"
ELLIPSIS_RE = re.compile(r"^\.\.\.[\s|]*$")  # the frame skips lines here


@dataclass
class Entry:
    """One label: where it points and what it says."""

    line: int
    index: int  # position of the marker in the frame body (margin included)
    mark: str
    text: str
    start: int | None = None  # first line of a span over several lines


@dataclass
class Frame:
    """The labels of one code frame while it is read."""

    loc_line: int = 0
    loc_col: int = 0
    line: int = 0
    offset: int | None = None
    multiline: bool = False
    trimmed: set[int] = field(default_factory=set)
    starts: dict[int, int] = field(default_factory=dict)
    runs: list[tuple[int, str]] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)

    def source(self, number: int, code: str) -> None:
        self.line = number
        self.runs = []
        if code.startswith("..."):
            self.trimmed.add(number)
        if (match := re.match(r"^[ |]*/", code)) is not None:
            self.starts[match.end() - 1] = number
            self.multiline = True

    def gutter(self, body: str) -> None:
        runs, text, text_at = _scan(body)
        if runs:
            self.runs = [(i, mark) for i, mark, _ in runs]
            self._calibrate(runs)
            last = runs[-1]
            for index, mark, under in runs:
                self._run(body, index, mark, under, text if (index, mark, under) == last else "")
        elif text and self.runs:
            owner = _owner(self.runs, text_at)
            self.entries.append(Entry(self.line, owner[0], owner[1], text))

    def _calibrate(self, runs: list[tuple[int, str, int]]) -> None:
        if self.offset is None and self.line == self.loc_line and self.loc_col:
            for index, mark, under in runs:
                if mark == "^" and not under:
                    self.offset = index - (self.loc_col - 1)
                    return

    def _run(self, body: str, index: int, mark: str, under: int, text: str) -> None:
        if not under:
            if text:
                self.entries.append(Entry(self.line, index, mark, text))
            return
        self.multiline = True
        bar = index - under - 1
        if bar >= 0 and body[bar] == "|":
            if text:
                self.entries.append(Entry(self.line, index, mark, text, self.starts.get(bar)))
        else:
            self.starts[bar] = self.line
            if text:
                self.entries.append(Entry(self.line, index, mark, text))

    def render(self) -> list[str]:
        offset = self.offset if self.offset is not None or self.multiline else 0
        return [f"  {self._where(entry, offset)}{entry.mark} {entry.text}" for entry in self.entries]

    def _where(self, entry: Entry, offset: int | None) -> str:
        if entry.start is not None and entry.start != entry.line:
            return f"{entry.start}-{entry.line} "
        if offset is None or (entry.line in self.trimmed and entry.line != self.loc_line):
            return f"{entry.line} "
        col = entry.index - offset + 1
        if entry.mark == "^" and (entry.line, col) == (self.loc_line, self.loc_col):
            return ""
        return f"{entry.line}:{col} "


def _scan(body: str) -> tuple[list[tuple[int, str, int]], str, int]:
    """Marker runs `(index, mark, underscores before it)`, then the text after them and its index."""
    runs: list[tuple[int, str, int]] = []
    i, under = 0, 0
    while i < len(body) and body[i] in MARKS:
        char = body[i]
        if char in "^-":
            end = i
            while end < len(body) and body[end] == char:
                end += 1
            if end < len(body) and body[end] not in MARKS:
                break  # text that starts with `-`
            runs.append((i, char, under))
            i, under = end, 0
            continue
        under = under + 1 if char == "_" else 0
        i += 1
    return runs, body[i:].strip(), i


def _owner(runs: list[tuple[int, str]], at: int) -> tuple[int, str]:
    """The marker a label printed below it belongs to: the one in its column, else left of it."""
    before = [run for run in runs if run[0] <= at]
    exact = [run for run in before if run[0] == at]
    return (exact or before or runs)[-1]


class FrameCompactor:
    """Turns a diagnostic's lines into compact ones; remembers whether source code was dropped."""

    def __init__(self) -> None:
        self.frame: Frame | None = None
        self.suggestion = False
        self.dropped_code = False
        self.removed: dict[int, str] = {}

    def feed(self, line: str) -> list[str]:
        if ELLIPSIS_RE.match(line):
            return []
        source = SOURCE_RE.match(line)
        if source is not None:
            return self._source(int(source.group(1)), source.group(2), source.group(3))
        gutter = GUTTER_RE.match(line)
        if gutter is not None:
            if self.frame is not None and not self.suggestion:
                self.frame.gutter(gutter.group(1)[1:])
            return []
        out = self.close()
        self._context(line)
        return [*out, line]

    def _source(self, number: int, kind: str, code: str) -> list[str]:
        if kind in "+~" or (kind == "|" and self.suggestion):
            self.removed.pop(number, None)  # replaced: the new line says it all
            return [f"  {number} {kind} {code.strip()}"]
        self.dropped_code = True
        if kind == "-":
            self.removed[number] = code.strip()
        if kind == "|" and self.frame is not None:
            self.frame.source(number, code)
        return []

    def _context(self, line: str) -> None:
        location = LOCATION_RE.match(line)
        if location is not None:
            self.suggestion = False
            self.frame = Frame(int(location.group(1)), int(location.group(2) or 0))
        elif not line.startswith(" "):
            self.suggestion = line.startswith("help:")
            self.frame = Frame() if self.suggestion else None

    def close(self) -> list[str]:
        """The finished frame's labels, and the lines a suggestion removes without a replacement."""
        frame, self.frame = self.frame, None
        removed, self.removed = self.removed, {}
        out = frame.render() if frame is not None else []
        return out + [f"  {number} - {code}" for number, code in removed.items()]
