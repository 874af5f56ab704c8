"""Build and vet diagnostics: verbatim, except a message repeated on many lines of one file.

`go vet` on generated tables prints the same finding hundreds of times in one file; such a run
(RUN_MIN or more in a row) becomes `file: message (N times[, column C])` and the locations under
it (`L164:3 L165:3 ...`, or `L164 L165 ...` when they all share the column named above).
"""
from __future__ import annotations

from rtk.filters.go.lines import DIAG

RUN_MIN = 3
PER_LINE = 30


class Runs:
    def __init__(self) -> None:
        self.file = self.msg = ""
        self.lines: list[str] = []
        self.locs: list[tuple[str, str]] = []
        self.count = 0

    def add(self, text: str) -> list[str] | None:
        """The lines to print now, or None when `text` is not a diagnostic."""
        m = DIAG.match(text)
        if m is None:
            return None
        self.count += 1
        out = [] if (m["file"], m["msg"]) == (self.file, self.msg) else self.flush()
        self.file, self.msg = m["file"], m["msg"]
        self.lines.append(text)
        self.locs.append((m["line"], m["col"] or ""))
        return out

    def flush(self) -> list[str]:
        lines, locs = self.lines, self.locs
        self.lines, self.locs = [], []
        if len(lines) < RUN_MIN:
            return lines
        out = [f"{self.file}: {self.msg} ({len(locs)} times)"]
        shown = [f"{self.file}:{line}:{col}" if col else f"{self.file}:{line}" for line, col in locs]
        for i in range(0, len(shown), PER_LINE):
            out.append(f"  {' '.join(shown[i:i + PER_LINE])}")
        self.file = self.msg = ""
        return out
