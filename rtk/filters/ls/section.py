"""One directory's entries, held until the directory ends, then printed compactly.

Names without sizes (directories, plain listings) share lines, separated by single spaces (a
name holding a space is quoted); files keep one line each with their size. A directory with more
entries than the limit keeps its first and last entries and says how many were left out. When the
listing is sorted by time or size the order carries meaning, so every entry keeps its own line.
"""
from __future__ import annotations

from rtk.filters.base import deque, elision_marker

WRAP = 160


class Section:
    def __init__(self, max_entries: int, tail_size: int, keep_order: bool, label: str = "") -> None:
        self.label = label  # `dirs: ` in long listings, where the other lines are files
        self.head_size = max(max_entries - tail_size, 1)
        self.head: list[tuple[bool, str]] = []
        self.tail: deque[tuple[bool, str]] = deque(maxlen=tail_size)
        self.hidden = 0
        self.keep_order = keep_order

    def add(self, name_only: bool, text: str) -> None:
        if len(self.head) < self.head_size:
            self.head.append((name_only, text))
            return
        if len(self.tail) == self.tail.maxlen:
            self.hidden += 1
        self.tail.append((name_only, text))

    def render(self) -> list[str]:
        out = self._group(self.head)
        if self.hidden:
            out.append(elision_marker(self.hidden, "entries"))
        out.extend(self._group(list(self.tail)))
        return out

    def _group(self, items: list[tuple[bool, str]]) -> list[str]:
        if self.keep_order:
            return [text for _, text in items]
        names = [_quoted(text) for name_only, text in items if name_only]
        return [self.label + text for text in _wrap(names)] + [text for name_only, text in items if not name_only]


def _quoted(name: str) -> str:
    return f"'{name}'" if " " in name or not name else name


def _wrap(names: list[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for name in names:
        if current and len(current) + 1 + len(name) > WRAP:
            lines.append(current)
            current = name
        else:
            current = f"{current} {name}" if current else name
    return [*lines, current] if current else lines
