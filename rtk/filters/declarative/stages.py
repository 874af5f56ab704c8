"""The stateful stages of the line pipeline, each a small streaming state machine.

Each stage takes kept lines one at a time and returns what can be printed now; `finish` returns
the rest. Memory is bounded by the stage's own limits (the tail window, the collapse run, the
per-group head and tail), never by the size of the output.
"""
from __future__ import annotations

import re
from collections import deque

from rtk.filters.base import elision_marker

from .rules import Carry, Group, Headings


def lines_marker(count: int) -> str:
    return elision_marker(count, "line" if count == 1 else "lines")


class Window:
    """head_lines / tail_lines / max_lines, with the Rust rtk's arithmetic, streamed.

    The result equals: keep the first `head` and last `tail` lines with one marker for the middle
    (or only the head, or only the tail), then cap that at `max_lines` lines with a second marker.
    Head lines go out at once; only the tail window is held.
    """

    def __init__(self, head: int | None, tail: int | None, max_lines: int | None) -> None:
        self.head, self.tail, self.max = head, tail, max_lines
        self.seen = 0
        self.held: deque[str] = deque(maxlen=tail) if tail is not None else deque()
        self.elided = False
        cap = max_lines if max_lines is not None else 1 << 62
        if head is None and tail is None:
            self.streamed = cap
        else:
            self.streamed = min(head, cap) if head is not None else 0
        self.hold_from = head if head is not None else 0

    def feed(self, line: str) -> list[str] | tuple[str, ...]:
        self.seen = seen = self.seen + 1
        if seen <= self.streamed:
            return (line,)
        if self.tail is not None and seen > self.hold_from:
            self.held.append(line)
        return ()

    def finish(self) -> list[str]:
        head_count = min(self.seen, self.head) if self.head is not None else 0
        if self.head is None and self.tail is None:
            head_count = self.seen
        rest: list[str] = []
        omitted = self.seen - head_count - len(self.held)
        if omitted > 0:
            self.elided = True
            rest.append(lines_marker(omitted))
        rest.extend(self.held)
        if self.max is None or head_count + len(rest) <= self.max:
            return rest
        self.elided = True
        room = max(0, self.max - head_count)
        return rest[:room] + [lines_marker(head_count + len(rest) - self.max)]


class Collapse:
    """Consecutive lines equal after normalisation become the first of them plus ` [xN]`.

    A run shorter than `min_count` is printed as it came. When the collapsed lines differed
    (normalisation hid a number, say), content was left out and the run is marked elided.
    """

    def __init__(self, normalize: tuple[re.Pattern[str], ...], min_count: int) -> None:
        self.normalize = normalize
        self.min_count = min_count
        self.run: list[str] = []
        self.key = ""
        self.count = 0
        self.varied = False
        self.elided = False

    def _key(self, line: str) -> str:
        head, rest = line[:4096], line[4096:]
        for pattern in self.normalize:
            head = pattern.sub("\x00", head)
        return head + rest

    def feed(self, line: str) -> list[str]:
        key = self._key(line) if self.normalize else line
        if self.count and key == self.key:
            self.count += 1
            if len(self.run) < self.min_count:
                self.run.append(line)
            self.varied = self.varied or line != self.run[0]
            return []
        out = self.finish()
        self.run, self.key, self.count, self.varied = [line], key, 1, False
        return out

    def finish(self) -> list[str]:
        run, count = self.run, self.count
        self.run, self.count = [], 0
        if count < max(2, self.min_count):
            return run
        self.elided = self.elided or self.varied
        return [f"{run[0]} [x{count}]"]


class CarryPrefix:
    """A heading line (`FILE:L12:`) is put in front of each following line matching `to` (the
    findings under it) instead of standing alone, so a later `group` can gather them by file.
    A heading nothing follows, or any other line, ends the carry: the heading is then printed
    as it was, so no line is lost."""

    def __init__(self, spec: Carry) -> None:
        self.spec = spec
        self.heading: str | None = None
        self.used = False
        self.elided = False

    def feed(self, line: str) -> list[str]:
        probe = line[:4096]
        if self.spec.pattern.search(probe):
            out = self._flush()
            self.heading, self.used = line, False
            return out
        if self.heading is not None and self.spec.to.search(probe):
            self.used = True
            return [f"{self.heading} {line.lstrip()}"]
        out = self._flush()
        self.heading = None
        return out + [line]

    def _flush(self) -> list[str]:
        pending = self.heading is not None and not self.used
        return [self.heading] if pending else []  # type: ignore[list-item]

    def finish(self) -> list[str]:
        out = self._flush()
        self.heading = None
        return out


class HeadingRepeater:
    """A heading line (a file name above its findings) is printed again, `(continued)`, after
    every `every` lines under it, so a reader of any stretch of the output knows whose lines
    they are."""

    def __init__(self, spec: Headings) -> None:
        self.pattern = spec.pattern
        self.every = spec.every
        self.current: str | None = None
        self.under = 0
        self.elided = False

    def feed(self, line: str) -> list[str]:
        if self.pattern.search(line[:4096]):
            self.current, self.under = line, 0
            return [line]
        if self.current is None:
            return [line]
        self.under += 1
        if self.under > self.every:
            self.under = 1
            return [f"{self.current} (continued)", line]
        return [line]

    def finish(self) -> list[str]:
        return []


class _Bucket:
    __slots__ = ("count", "head", "tail")

    def __init__(self, tail: int) -> None:
        self.head: list[str] = []
        self.tail: deque[str] = deque(maxlen=tail)
        self.count = 0


class Grouper:
    """Lines matching `(?P<key>..)(?P<item>..)` are gathered under one heading per key.

    Lines before the first grouped line stream through; later ungrouped lines (a summary, say)
    are held and printed after the groups, so the output keeps its header / body / footer order.
    Each group keeps its first and last items with a marker between; past `max_groups` keys, or
    past the hold cap, lines pass through as they are.
    """

    HOLD_CAP = 2000
    # characters taken in over all groups (each line + 16); past it lines pass through
    # ungrouped. 8M keeps the held items near 30 MB of strings and the grouped output that
    # `finish` builds from them within the 100 MB a filter may use (32M went past it)
    BUDGET = 8 << 20

    def __init__(self, group: Group) -> None:
        self.spec = group
        self.head_items = group.max_items - group.max_items // 2
        self.tail_items = group.max_items // 2
        self.buckets: dict[str, _Bucket] = {}
        self.after: list[str] = []
        self.held = 0
        self.elided = False
        self._search = group.pattern.search
        self._has_item = "item" in group.pattern.groupindex
        # by number: `group("key", "item")` looks each name up on every line (~150 ns more here)
        self._key_index = group.pattern.groupindex["key"]
        self._item_index = group.pattern.groupindex.get("item", 0)

    def feed(self, line: str) -> list[str] | tuple[str, ...]:
        found = self._search(line if len(line) <= 4096 else line[:4096])
        if found is None:
            return self._ungrouped(line)
        if self._has_item:
            key, item = found.group(self._key_index, self._item_index)
        else:
            key, item = found.group(self._key_index), line
        bucket = self.buckets.get(key)
        if self.held >= self.BUDGET or bucket is None and len(self.buckets) >= self.spec.max_groups:
            return self._ungrouped(line)
        if bucket is None:
            bucket = self.buckets[key] = _Bucket(self.tail_items)
        bucket.count += 1
        self.held += len(line) + 16
        if len(bucket.head) < self.head_items:
            bucket.head.append(item or "")
        else:
            bucket.tail.append(item or "")
        return ()

    def _ungrouped(self, line: str) -> list[str] | tuple[str, ...]:
        if not self.buckets or len(self.after) >= self.HOLD_CAP:
            return (line,)
        self.after.append(line)
        return ()

    def finish(self) -> list[str]:
        out: list[str] = []
        every = self.spec.repeat_key_every
        buckets = self.buckets
        for key in list(buckets):  # each bucket let go once printed: the items or the lines, not both
            bucket = buckets.pop(key)
            out.append(f"{key} ({bucket.count})" if bucket.count > 1 else key)
            items = [f"  {item}" for item in bucket.head]
            hidden = bucket.count - len(bucket.head) - len(bucket.tail)
            if hidden > 0:
                self.elided = True
                items.append("  " + lines_marker(hidden))
            items.extend(f"  {item}" for item in bucket.tail)
            out.extend(_with_key_every(items, key, abs(every)))
        out.extend(self.after)
        self.buckets, self.after = {}, []
        return out


def _with_key_every(items: list[str], key: str, every: int) -> list[str]:
    """`items` with `KEY (continued)` before each `every`-th (a reader, or grep -A, keeps the
    file in view), cut in slices: one group can hold thousands of items."""
    if not every or len(items) <= every:
        return items
    out = items[:every]
    again = f"{key} (continued)"
    for start in range(every, len(items), every):
        out.append(again)
        out += items[start:start + every]
    return out
