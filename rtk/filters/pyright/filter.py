"""pyright and basedpyright: diagnostics grouped by file, as the tsc filter prints them.

pyright names the file (an absolute path) once above its diagnostics and again on every one of
them; the group keeps it once: the file's line, then `  L53:10 error: message (rule)` per
diagnostic with its explanation lines under it, so each still reads as `path:line:col`. A file
with a long group is named again (`path (continued)`) every REPEAT_FILE_EVERY lines. The same
message in one file is one line listing its places (`  L110:17, L116:21 error: ...`, at most
PER_LINE places a line). Past SUMMARY_FROM diagnostics, one closing count by rule."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi

DIAG = re.compile(r"^\s+(?P<path>.+?):(?P<line>\d+):(?P<col>\d+) - (?P<kind>error|warning|information|info|note): "
                  r"(?P<msg>.*)$")
RULE = re.compile(r" \((?P<rule>report\w+|\w+)\)$")
COUNTS = re.compile(r"^\d[\d,]* errors?, \d[\d,]* warnings?, \d[\d,]* (?:informations?|notes?|infos?)\s*$")
EXPLANATION = re.compile(r"^\s{4,}\S")  # pyright indents with "  " then NBSP-space pairs
FILE = re.compile(r"^(?:[A-Za-z]:)?[/\\]?\S.*\.pyi?$|^\S.*\.ipynb$")
PER_LINE = 20
TOP_RULES = 10
REPEAT_FILE_EVERY = 40  # lines of one file's group before the file is named again
SUMMARY_FROM = 20  # fewer diagnostics are read whole: pyright's own count line says enough


@dataclass
class Item:
    where: str
    kind: str
    message: str
    more: list[str] = field(default_factory=list)

    @property
    def rule(self) -> str:
        m = RULE.search(self.more[-1] if self.more else self.message)
        return m["rule"] if m else ""


class PyrightFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._file: str | None = None
        self._items: list[Item] = []
        self._rules: Counter[str] = Counter()
        self._total = 0
        self._stream = Stream.STDOUT

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        self._stream = stream
        return [Line(t, stream) for t in self._line(text)]

    def _line(self, text: str) -> list[str]:
        if (m := DIAG.match(text)) is not None:
            out = self._flush() if m["path"] != self._file else []
            self._file = m["path"]
            self._items.append(Item(f"{m['path']}:{m['line']}:{m['col']}", m["kind"], m["msg"]))
            self.failure_seen = self.failure_seen or m["kind"] == "error"
            return out
        if self._items and EXPLANATION.match(text):
            self._items[-1].more.append(text.replace("\u00a0", " "))
            return []
        if FILE.match(text) and not text.startswith(" "):
            return self._flush()  # the file's own line: printed with its group
        out = self._flush()
        return out + ([text] if text else [])

    def _flush(self) -> list[str]:
        if not self._items:
            return []
        out = [self._file or ""]
        since_header = 0
        for group in _merge(self._items):
            first = group[0]
            for item in group:
                self._rules[item.rule or item.kind] += 1
            self._total += len(group)
            places = ", ".join("L" + _place(i.where) for i in group)
            lines = [f"  {places} {first.kind}: {first.message}", *first.more]
            if since_header + len(lines) > REPEAT_FILE_EVERY:
                out.append(f"{self._file} (continued)")
                since_header = 0
            out.extend(lines)
            since_header += len(lines)
        self._items = []
        self._file = None
        return out

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._flush()
        if self._total > SUMMARY_FROM:
            top = ", ".join(f"{rule} x{n:,}" for rule, n in self._rules.most_common(TOP_RULES))
            more = len(self._rules) - TOP_RULES
            tail = f", +{more} more rules" if more > 0 else ""
            out.append(f"pyright: {self._total:,} diagnostics ({top}{tail})")
        return [Line(t, self._stream) for t in out]


def _place(where: str) -> str:
    """`53:10` of `path:53:10`."""
    _, line, col = where.rsplit(":", 2)
    return f"{line}:{col}"


def _merge(items: list[Item]) -> list[list[Item]]:
    """Same kind, message and explanation: one group, in order of first appearance."""
    groups: dict[tuple[str, str, tuple[str, ...]], list[Item]] = {}
    order: list[list[Item]] = []
    for item in items:
        key = (item.kind, item.message, tuple(item.more))
        if key not in groups or len(groups[key]) >= PER_LINE:
            groups[key] = []
            order.append(groups[key])
        groups[key].append(item)
    return order
