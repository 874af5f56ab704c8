"""`INTERNALERROR>` tracebacks: a plugin's or a conftest hook's exception, seen through pluggy.

Such a traceback is mostly pytest's and pluggy's own frames (`_pytest/main.py`, `pluggy/_callers.py`)
between the session and the hook that raised: 60 lines where the agent needs the conftest frame and
the exception. Frames under `_pytest/` or `pluggy/` are counted into one marker line, but for the
last frame before the exception, kept so a crash inside pytest itself still shows where it was.
Everything else (the exception, other frames, non-traceback lines) passes verbatim.
"""
from __future__ import annotations

from rtk.filters.base import elision_marker
from rtk.filters.pytest import patterns as p

PREFIX = "INTERNALERROR>"


class InternalError:
    def __init__(self) -> None:
        self._held: list[str] = []  # the last plumbing frame seen: its `File` line and source line
        self._folded = 0            # plumbing frames dropped since the last kept line
        self._in_frame = False      # the line after a held `File` line is its source
        self.elided = False

    def add(self, line: str) -> list[str]:
        """One `INTERNALERROR>` line (no newline) -> the lines to print now."""
        body = line[len(PREFIX):]
        if (m := p.NATIVE_FILE_RE.match(body)) is not None and p.PLUMBING_RE.search(m.group(1)):
            if self._held:
                self._folded += 1
            self._held, self._in_frame = [line], True
            return []
        if self._in_frame and self._held and body.startswith("    "):
            self._held.append(line)
            self._in_frame = False
            return []
        self._in_frame = False
        if p.NATIVE_FILE_RE.match(body) is not None:  # the project's own frame: it follows plumbing
            self._folded += bool(self._held)
            self._held = []
        return [*self.flush(), line]

    def flush(self) -> list[str]:
        out = []
        if self._folded:
            self.elided = True
            out.append(f"{PREFIX}   {elision_marker(self._folded, 'frames', 'of pytest and pluggy')}")
        out.extend(self._held)
        self._held, self._folded, self._in_frame = [], 0, False
        return out
