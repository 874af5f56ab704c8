"""Diagnostics by file, every line number kept, each message once per file.

Each message is one line as mypy prints it, `path:12: error: message  [code]` (`path:12:5:` with
`--show-column-numbers`): the form an editor jumps to and a reader greps for. A message repeated
in the file (`--strict`'s `Function is missing a type annotation` on forty functions) is that
line once, its other places on the next: `  also at L46, L51`; notes under it. Pretty output's wrapped lines are joined, its source frames
dropped. A note repeated word for word anywhere in the run is printed once.
`--show-error-context`'s `In function "f":` follows each place it applies to: `L12 (In function "f")`.
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
        groups: dict[tuple[str, str, str], list[tuple[Diagnostic, str]]] = {}
        context = ""  # `--show-error-context`: the function the next messages are in
        for d in items:
            if d.kind == "context":
                context = "" if d.message.startswith("At top level") else f" ({d.message.rstrip(':')})"
                continue
            code, text = d.code_and_text()
            key = (d.kind, code, text.rstrip()) if not d.notes else (d.kind, code, f"{text} {id(d)}")
            groups.setdefault(key, []).append((d, d.where + context))
        for (kind, code, _), same in groups.items():
            out += self._entry(same, kind, code)
        return out

    def _entry(self, same: list[tuple[Diagnostic, str]], kind: str, code: str) -> list[str]:
        """`  L40, L46 error: message  [code]` and the first one's notes (once in the run)."""
        first = same[0][0]
        if kind == "error":
            self.errors += len(same)
            self.files.add(first.path)
            self.codes[code or "no code"] += len(same)
        text = first.code_and_text()[1].rstrip() + (f"  [{code}]" if code else "")  # pretty's joined lines too
        context = same[0][1][len(first.where):]  # `--show-error-context`'s ` (In function "f")`
        also = ", ".join(p for _, p in same[1:])
        out = [f"{first.path}:{first.where[1:]}: {kind}: {text}{context}"]
        if also:
            out.append(f"  also at {also}")
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
