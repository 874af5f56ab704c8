"""Diagnostics grouped under their file, printed when mypy moves on to the next file.

Diagnostics of one file with the same code and message (and no notes) share one line that lists
their locations (`L40 L46 L51 [no-untyped-def] Function is missing a type annotation`); a note
repeated word for word anywhere in the run is printed once. Long groups repeat the file
name every REPEAT_EVERY lines so a location is never far from its file.
"""
from __future__ import annotations

from collections import Counter

from rtk.filters.mypy.lines import Diagnostic

REPEAT_EVERY = 25
TOP_CODES = 10
PER_LINE = 20


class Report:
    def __init__(self) -> None:
        self.path: str | None = None
        self.items: list[Diagnostic] = []
        self.codes: Counter[str] = Counter()
        self.files: set[str] = set()
        self.errors = 0
        self.dropped_notes = 0
        self._notes_seen: set[str] = set()

    def add(self, diag: Diagnostic) -> list[str]:
        out = self.flush() if diag.path != self.path else []
        self.path = diag.path
        self.items.append(diag)
        return out

    @property
    def last(self) -> Diagnostic | None:
        return self.items[-1] if self.items else None

    def flush(self) -> list[str]:
        if not self.items:
            return []
        out = self._render(self.items)
        self.items = []
        self.path = None
        return out

    def _render(self, items: list[Diagnostic]) -> list[str]:
        path = items[0].path
        errors = sum(d.kind == "error" for d in items)
        out = [f"{path} ({errors} {'error' if errors == 1 else 'errors'})" if errors else path]
        since = 0
        for group in self._merge(items):
            if since >= REPEAT_EVERY:
                out.append(f"{path} (continued)")
                since = 0
            lines = self._group(group)
            out.extend(lines)
            since += len(lines)
        return out

    @staticmethod
    def _merge(items: list[Diagnostic]) -> list[list[Diagnostic]]:
        """Same kind, code and message without notes: one group, in order of first appearance."""
        groups: dict[tuple[str, str, str], list[Diagnostic]] = {}
        alone: list[list[Diagnostic]] = []
        order: list[list[Diagnostic]] = []
        for d in items:
            if d.notes or d.kind == "context":
                alone.append([d])
                order.append(alone[-1])
                continue
            key = (d.kind, d.code, d.text)
            if key not in groups or len(groups[key]) >= PER_LINE:
                groups[key] = []
                order.append(groups[key])
            groups[key].append(d)
        return order

    def _group(self, group: list[Diagnostic]) -> list[str]:
        first = group[0]
        for d in group:
            if d.kind == "error":
                self.errors += 1
                self.files.add(d.path)
                self.codes[d.code or "no code"] += 1
        kind = "" if first.kind == "error" else f"{first.kind}: "
        code = f"[{first.code}] " if first.code else ""
        where = " ".join(d.where for d in group)
        if first.kind == "context":  # `--show-error-context`: `In function "f":` before its errors
            return [f"  {first.text}"]
        out = [f"  {where} {kind}{code}{first.text}"]
        for note in first.notes:
            if note in self._notes_seen:
                self.dropped_notes += 1
                continue
            self._notes_seen.add(note)
            out.append(f"    note: {note}")
        return out

    def summary(self) -> str:
        if not self.errors:
            return ""
        top = ", ".join(f"{code} x{n:,}" for code, n in self.codes.most_common(TOP_CODES))
        more = len(self.codes) - TOP_CODES
        tail = f", +{more} more codes" if more > 0 else ""
        files = len(self.files)
        return (f"mypy: {self.errors:,} {'error' if self.errors == 1 else 'errors'} in {files:,} "
                f"{'file' if files == 1 else 'files'} ({top}{tail})")
