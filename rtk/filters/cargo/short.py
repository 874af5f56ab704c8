"""`--message-format short`: one diagnostic per line, `src/a.rs:3:5: warning: message`.

The lines are already short; what costs is a lint repeated all over a crate (130 `unexpected cfg
condition name` lines), each repeat spelling out the message again. A warning message seen for
the first time is printed as rustc wrote it; its repeats (same level, code and message) are
folded into one line per message at the next flush point, `warning: message (20 more): places`,
with the places grouped by file (`places.py`). Errors are never folded.
"""
from __future__ import annotations

import re

from rtk.filters.cargo import places

SHORT_RE = re.compile(r"^(\S(?:.*?\S)?:\d+:\d+): (error|warning)(\[[A-Za-z]+\d+\])?: (.+)$")


class ShortLines:
    """Reads short-format diagnostics; holds the places of repeated warnings."""

    def __init__(self) -> None:
        self._seen: set[tuple[str, str]] = set()
        self._pending: dict[tuple[str, str, str], list[str]] = {}
        self._first: set[tuple[str, str, str]] = set()
        self.warnings = 0
        self.errors = 0

    def feed(self, text: str) -> list[str] | None:
        """The lines to print now, or None when `text` is not a short-format diagnostic."""
        match = SHORT_RE.match(text)
        if match is None:
            return None
        place, level, code, message = match.groups()
        if level == "error":
            self.errors += 1
            return [text]
        if (place, message) in self._seen:  # the same warning in a second target: nothing new
            return []
        self._seen.add((place, message))
        self.warnings += 1
        key = (level, code or "", message)
        if key not in self._first:
            self._first.add(key)
            return [text]
        self._pending.setdefault(key, []).append(place)
        return []

    @property
    def folded(self) -> bool:
        return bool(self._pending)

    def flush(self) -> list[str]:
        out: list[str] = []
        for (level, code, message), spots in self._pending.items():
            out += places.lines(f"{level}{code}: {message} ({len(spots)} more)", spots)
        self._pending = {}
        return out
