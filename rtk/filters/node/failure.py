"""One failure's body (vitest, jest, mocha): the lines an agent reads, capped, frames trimmed.

Shared by the test-runner filters because their failure bodies are alike: a message, an
expected/received diff, a code frame, a stack. Kept: every message and diff line (up to
`MAX_LINES`, then one marker), the first `MAX_USER_FRAMES` frames in the user's code. Dropped:
code frames (`  12 | source`, `     |   ^`), frames inside node_modules and node itself, further
frames in a file already shown (a test's helper chain), blank lines.
"""
from __future__ import annotations

import re

from rtk.filters.node.frames import frame_location, is_foreign

CODE_FRAME = re.compile(r"^\s*(?:>\s*)?\d*\s*[|│](?:\s|$)|^\s*[|│]\s*\^|^\s+\|\s*$")
MAX_LINES = 40
MAX_USER_FRAMES = 2


class FailureBody:
    """Decides, line by line, what of one failure's body is printed."""

    def __init__(self, indent: str = "  ", max_lines: int = MAX_LINES,
                 max_frames: int = MAX_USER_FRAMES) -> None:
        self.indent = indent
        self.max_lines = max_lines
        self.max_frames = max_frames
        self.kept = 0
        self.dropped_content = 0
        self.user_frames = 0
        self.base: int | None = None
        self.frame_files: set[str] = set()

    def take(self, text: str) -> str | None:
        """The line to print for `text` (re-indented), or None to drop it."""
        stripped = text.strip()
        if not stripped or CODE_FRAME.match(text):
            return None
        loc = frame_location(text)
        if loc is not None:
            if is_foreign(loc) or self.user_frames >= self.max_frames or _file(loc) in self.frame_files:
                return None  # a helper deeper in a file already shown adds nothing
            self.user_frames += 1
            self.frame_files.add(_file(loc))
            return f"{self.indent}at {loc}"  # the function name (`Object.toBe`, `Context.<anonymous>`) is noise
        self.kept += 1
        if self.kept > self.max_lines:
            self.dropped_content += 1
            return None
        lead = len(text) - len(text.lstrip())
        if self.base is None:
            self.base = lead  # the runner's own indentation of this body, taken off every line
        return self.indent + text.rstrip()[min(lead, self.base):]

    def closing(self) -> str | None:
        if self.dropped_content:
            return f"{self.indent}... {self.dropped_content:,} more lines of this failure"
        return None



def _file(location: str) -> str:
    return location.rsplit(":", 2)[0]
