"""The shapes of mypy's output lines."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

HEADER = re.compile(r"^(?P<path>(?:[A-Za-z]:)?[^\s:][^:]*?):(?P<line>\d+)(?::(?P<col>\d+))?(?::\d+:\d+)?: "
                    r"(?P<kind>error|warning|note): (?P<msg>.*)$")
FILE_NOTE = re.compile(r"^(?P<path>(?:[A-Za-z]:)?[^\s:][^:]*?): (?P<kind>error|warning|note): (?P<msg>.*)$")
CODE = re.compile(r"\s+\[(?P<code>[a-z][a-z0-9-]*(?:, [a-z][a-z0-9-]*)*)\]$")
SUMMARY = re.compile(r"^(?:Found \d[\d,]* errors? in \d[\d,]* files?|Success: no issues found"
                     r"|Success: )")
SOURCE = re.compile(r"^ {4}")
CONTEXT = ("In function ", "In member ", "In class ", "At top level")  # --show-error-context


@dataclass
class Diagnostic:
    """One error or warning, its message joined over wrapped lines, and the notes after it."""

    path: str
    line: int
    col: int | None
    kind: str
    message: str
    notes: list[str] = field(default_factory=list)

    def code_and_text(self) -> tuple[str, str]:
        """The `[code]` at the message's end ("" if none) and the message before it, from one
        search (a report reads both for every diagnostic: one search instead of five)."""
        m = CODE.search(self.message)
        return (m["code"], self.message[:m.start()]) if m else ("", self.message)

    @property
    def where(self) -> str:
        return f"L{self.line}:{self.col}" if self.col is not None else f"L{self.line}"
