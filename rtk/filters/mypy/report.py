"""Diagnostics in mypy's own one-line form, printed when mypy moves on to the next file.

Each keeps `path:line: error: message  [code]` exactly as mypy's plain output writes it (pretty
output's wrapped lines joined, its source frames dropped), because that location string is what
agents and editors act on. A message repeated in one file is written out at its first line and
`(same as line N)` after the later locations; a note repeated word for word anywhere in the run
is printed once.
"""
from __future__ import annotations

from collections import Counter

from rtk.filters.mypy.lines import Diagnostic

TOP_CODES = 10


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
        out: list[str] = []
        first_at: dict[tuple[str, str, str], int] = {}  # a message's first line in this file
        for d in items:
            code, text = d.code_and_text()
            key = (d.kind, code, text.rstrip())
            same = first_at.get(key) if not d.notes and d.kind != "context" else None
            if same is None and d.kind != "context":
                first_at.setdefault(key, d.line)
            out.extend(self._diagnostic(d, same, code, text))
        return out

    def _diagnostic(self, d: Diagnostic, same: int | None, code: str, text: str) -> list[str]:
        """mypy's own line (`path:line: error: message  [code]`), wrapped lines joined: the
        location an agent (or its editor) jumps to stays exactly as mypy writes it. `code` and
        `text`: the diagnostic's, read once by the caller."""
        if d.kind == "context":  # `--show-error-context`: `path: In function "f":` before its errors
            return [f"{d.path}: {text}"]
        if d.kind == "error":
            self.errors += 1
            self.files.add(d.path)
            self.codes[code or "no code"] += 1
        where = f"{d.path}:{d.line}" + (f":{d.col}" if d.col is not None else "")
        suffix = f"  [{code}]" if code else ""
        text = f"(same as line {same})" if same is not None else f"{text.rstrip()}{suffix}"
        out = [f"{where}: {d.kind}: {text}"]
        for note in d.notes:
            if note in self._notes_seen:
                self.dropped_notes += 1
                continue
            self._notes_seen.add(note)
            out.append(f"{where}: note: {note}")
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
