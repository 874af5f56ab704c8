"""A unified diff as the filter keeps it: files, their counts, and the compacted hunk lines.

Memory stays bounded: a hunk past its change limit only counts from then on, and once the whole
diff has kept its line budget, later hunks are only counted (their file says how many were left
out), so a diff of any size holds at most the budget plus one counter per file.
"""
from __future__ import annotations

from rtk.filters.base import deque
from rtk.filters.scan import decimal_end

CONTEXT = 1
HUNK_PATTERN = r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@"


def _range(text: str, at: int) -> tuple[str | None, int] | None:
    """`12` or `12,3` at `at`: (the count or None, where it ends), as `\\d+(?:,(\\d+))?` reads it."""
    end = decimal_end(text, at)
    if end == at:
        return None
    if text[end:end + 1] == ",":
        count_end = decimal_end(text, end + 1)
        if count_end > end + 1:
            return text[end + 1:count_end], count_end
    return None, end


def hunk_counts(header: str) -> tuple[str | None, str | None] | None:
    """The old and new line counts of an `@@ -12,3 +12,4 @@` header (None where the header
    omits one: it means 1), or None when it is not one: HUNK_PATTERN read with str methods, as
    `re` costs more to import than a small `diff` takes (tests/filters/test_str_readers.py holds
    the two equal)."""
    if not header.startswith("@@ -"):
        return None
    old = _range(header, 4)
    if old is None or not header.startswith(" +", old[1]):
        return None
    new = _range(header, old[1] + 2)
    if new is None or not header.startswith(" @@", new[1]):
        return None
    return old[0], new[0]


class Hunk:
    """One `@@` hunk: changed lines kept, context cut to CONTEXT lines around each change.

    `max_changed`/`keep_changed`: a hunk changing more than `max_changed` lines keeps the first
    `keep_changed`; `keep` False: nothing is kept (the diff's budget is spent), only counted."""

    def __init__(self, header: str, max_changed: int, keep_changed: int, keep: bool = True,
                 keep_context: bool = False) -> None:
        counts = hunk_counts(header)
        self.old_left = int(counts[0] or 1) if counts else -1  # lines still to come (-1: unknown)
        self.new_left = int(counts[1] or 1) if counts else -1
        self.max_changed, self.keep_changed, self.keep = max_changed, keep_changed, keep
        self.lines = [header] if keep else []
        self.changes: list[int] = []  # index in `lines` of each kept changed line
        self.context: deque[str] = deque()
        self.skipped = 0
        self.after_change = 0
        self.folding = not keep
        self.folded_added = self.folded_removed = 0
        self.context_dropped = False  # a context line left out: content, the recall hint says so
        self.keep_context = keep_context  # `-U5`: the context lines are what was asked to read

    @property
    def complete(self) -> bool:
        return self.old_left == 0 and self.new_left == 0

    def add(self, line: str) -> None:
        kind = line[:1]
        self.old_left -= kind in (" ", "-", "")
        self.new_left -= kind in (" ", "+", "")
        if self.folding:
            self.folded_added += kind == "+"
            self.folded_removed += kind == "-"
        elif kind in ("+", "-"):
            self._change(line)
        elif line.startswith("\\") or self.keep_context:  # `\ No newline`, or context asked for (-U5)
            self.lines.append(line)
        elif self.after_change:
            self.after_change -= 1
            self.lines.append(line)
        else:
            self.context.append(line)
            if len(self.context) > CONTEXT:
                self.context.popleft()
                self.skipped += 1
                self.context_dropped = True

    def _change(self, line: str) -> None:
        if len(self.changes) == self.max_changed:  # this hunk is huge: keep its start, count the rest
            cut = self.changes[self.keep_changed] if self.keep_changed < len(self.changes) else len(self.lines)
            rest = [text[0] for text in self.lines[cut:] if text[:1] in ("+", "-")]
            self.lines = self.lines[:cut]
            self.folding = True
            self.folded_added = rest.count("+") + (line[0] == "+")
            self.folded_removed = rest.count("-") + (line[0] == "-")
            return
        if self.skipped:
            self.lines.append(" ...")
        self.lines.extend(self.context)
        self.context.clear()
        self.skipped = 0
        self.changes.append(len(self.lines))
        self.lines.append(line)
        self.after_change = CONTEXT

    def close(self) -> list[str]:
        self.context_dropped = self.context_dropped or bool(self.context)  # the context after the last change
        folded = self.folded_added + self.folded_removed
        if not self.keep or not folded:
            return self.lines
        marker = f"... {folded:,} more changed lines in this hunk (+{self.folded_added:,} -{self.folded_removed:,})"
        return [*self.lines, marker]


class FileDiff:
    def __init__(self, old: str) -> None:
        self.old = old
        self.new = old
        self.added = 0
        self.removed = 0
        self.lines: list[str] = []
        self.hunk: Hunk | None = None
        self.folded = False
        self.context_dropped = False
        self.unshown_hunks = 0

    @property
    def name(self) -> str:
        return self.old if self.new == "/dev/null" else self.new

    def close_hunk(self) -> int:
        """File the current hunk away; the number of lines it kept."""
        hunk, self.hunk = self.hunk, None
        if hunk is None:
            return 0
        self.folded |= hunk.folding
        if not hunk.keep:
            self.unshown_hunks += 1
            return 0
        lines = hunk.close()
        self.context_dropped |= hunk.context_dropped
        self.lines.extend(lines)
        return len(lines)

    def render(self) -> list[str]:
        tail = [f"... {self.unshown_hunks:,} more hunks not shown (the diff's line budget is spent)"] \
            if self.unshown_hunks else []
        return [f"--- {self.old}", f"+++ {self.new}", *self.lines, *tail]
