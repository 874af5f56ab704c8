"""Elide the middle of a long list: the first lines stream out, the last ones are kept in a ring,
and what falls out of the ring is only counted, per directory, so the marker can say where the
left-out paths were (`... 836 more paths (lib/rules/: 290, lib/linter/: 40, 3 more dirs)`).

Shared by find and tree (and any listing whose items have a directory).
"""
from __future__ import annotations

from rtk.filters.base import deque, elision_marker

TOP_DIRS = 8


class MiddleElider:
    def __init__(self, max_items: int, tail_size: int) -> None:
        self.tail_size = min(tail_size, max_items // 2)
        self.head_size = max_items - self.tail_size
        self.seen = 0
        self.tail: deque[tuple[str, str]] = deque()
        self.hidden: dict[str, int] = {}  # a dict, not a Counter: `collections` costs ~1.5 ms to import
        self.elided = False

    def add(self, text: str, group: str) -> str | None:
        """The line to print now, or None when it is held (tail) or counted (middle)."""
        self.seen += 1
        if self.seen <= self.head_size:
            return text
        self.tail.append((text, group))
        if len(self.tail) > self.tail_size:
            dropped = self.tail.popleft()[1]
            self.hidden[dropped] = self.hidden.get(dropped, 0) + 1
            self.elided = True
        return None

    def close(self, what: str) -> list[str]:
        out = [self.marker(what)] if self.hidden else []
        out.extend(text for text, _ in self.tail)
        self.tail.clear()
        self.hidden.clear()
        return out

    def marker(self, what: str) -> str:
        top = sorted(self.hidden.items(), key=lambda item: item[1], reverse=True)[:TOP_DIRS]
        parts = [f"{group or '.'}: {count:,}" for group, count in top]
        if len(self.hidden) > TOP_DIRS:
            parts.append(f"{len(self.hidden) - TOP_DIRS:,} more dirs")
        return elision_marker(sum(self.hidden.values()), what, ", ".join(parts))
