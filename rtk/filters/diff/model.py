"""A unified diff as the filter keeps it: files, their counts, and the compacted hunk lines."""
from __future__ import annotations

import re
from collections import deque

CONTEXT = 1
HUNK_RE = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


class Hunk:
    """One `@@` hunk: changed lines kept, context cut to CONTEXT lines around each change.

    Whether a hunk is huge is known only at its end, so `close` does the folding."""

    def __init__(self, header: str) -> None:
        counts = HUNK_RE.match(header)
        self.old_left = int(counts[1] or 1) if counts else -1  # lines still to come (-1: unknown)
        self.new_left = int(counts[2] or 1) if counts else -1
        self.lines = [header]
        self.changes: list[int] = []  # index in `lines` of each changed line
        self.context: deque[str] = deque()
        self.skipped = 0
        self.after_change = 0

    @property
    def complete(self) -> bool:
        return self.old_left == 0 and self.new_left == 0

    def add(self, line: str) -> None:
        kind = line[:1]
        self.old_left -= kind in (" ", "-", "")
        self.new_left -= kind in (" ", "+", "")
        if line[:1] in ("+", "-"):
            self._flush_context()
            self.changes.append(len(self.lines))
            self.lines.append(line)
            self.after_change = CONTEXT
        elif line.startswith("\\"):
            self.lines.append(line)
        elif self.after_change:
            self.after_change -= 1
            self.lines.append(line)
        else:
            self.context.append(line)
            if len(self.context) > CONTEXT:
                self.context.popleft()
                self.skipped += 1

    def _flush_context(self) -> None:
        if self.skipped:
            self.lines.append(" ...")
        self.lines.extend(self.context)
        self.context.clear()
        self.skipped = 0

    def close(self, max_changed: int, keep_changed: int) -> tuple[list[str], bool]:
        """The hunk's lines, folded past `keep_changed` when it changes more than `max_changed`."""
        if len(self.changes) <= max_changed:
            return self.lines, False
        cut = self.changes[keep_changed]
        rest = [line[0] for line in self.lines[cut:] if line[:1] in ("+", "-")]
        added, removed = rest.count("+"), rest.count("-")
        marker = f"... {len(rest):,} more changed lines in this hunk (+{added:,} -{removed:,})"
        return [*self.lines[:cut], marker], True


class FileDiff:
    def __init__(self, old: str) -> None:
        self.old = old
        self.new = old
        self.added = 0
        self.removed = 0
        self.lines: list[str] = []
        self.hunk: Hunk | None = None
        self.folded = False

    @property
    def name(self) -> str:
        return self.old if self.new == "/dev/null" else self.new

    def close_hunk(self, max_changed: int, keep_changed: int) -> None:
        if self.hunk is not None:
            lines, folded = self.hunk.close(max_changed, keep_changed)
            self.lines.extend(lines)
            self.folded |= folded
            self.hunk = None
