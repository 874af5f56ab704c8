"""pytest-cov's terminal report, cut to the files that are not fully covered.

`Name  Stmts  Miss  Cover  Missing`, one row per source file, then `TOTAL`: on a large project
hundreds of rows, most of them at 100%, which tell an agent nothing it acts on. The header, each
row below 100% (with its missing lines, the first 80 characters of them and a count of the
rest), and TOTAL stay; the fully covered rows are counted into
one marker before TOTAL, as `skip_covered` would print them. After failures the numbers measure
a broken run and the agent is fixing tests: the header and TOTAL stay, every row is counted.
What is not a row ends the table.
"""
from __future__ import annotations

import re

from rtk.filters.base import elision_marker

HEADER_RE = re.compile(r"^Name\s+Stmts\s+Miss\b")
ROW_RE = re.compile(r"^(\S.*?\s+\d+\s+\d+(?:\s+\d+\s+\d+)?\s+(\d+(?:\.\d+)?)%)(?:\s+(.*))?$")
MISSING_CHARS = 80  # of a row's Missing column; the ranges past it are counted
RULE_RE = re.compile(r"^-{10,}$")


def is_header(line: str) -> bool:
    return line[:5] == "Name " and HEADER_RE.match(line) is not None


class CoverageTable:
    def __init__(self, failed_run: bool = False) -> None:
        self._failed_run = failed_run  # tests failed: per-file numbers measure a broken run
        self._rows = 0
        self._full = 0
        self.done = False
        self.elided = False

    def add(self, line: str) -> list[str] | None:
        """The lines to print for one line of the table, or None when it is not part of it."""
        text = line.rstrip()
        if not text or RULE_RE.match(text):
            return []
        m = ROW_RE.match(text)
        if m is None:
            self.done = True
            return None
        if text.startswith("TOTAL "):
            self.done = True
            return [*self.flush(), text]
        if self._failed_run:
            self._rows += 1
            self.elided = True
            return []
        if m.group(2) in ("100", "100.0", "100.00"):
            self._full += 1
            self.elided = True
            return []
        return [self._row(text, m.group(1), m.group(3) or "")]

    def _row(self, text: str, counts: str, missing: str) -> str:
        if len(missing) <= MISSING_CHARS:
            return text
        ranges = missing.split(", ")
        kept: list[str] = []
        for item in ranges:
            if len(", ".join([*kept, item])) > MISSING_CHARS:
                break
            kept.append(item)
        self.elided = True
        return f"{counts}   {', '.join(kept)}, +{len(ranges) - len(kept)} more"

    def flush(self) -> list[str]:
        full, rows = self._full, self._rows
        self._full = self._rows = 0
        if rows:
            return [elision_marker(rows, "files", "per-file coverage of a run with failures")]
        return [elision_marker(full, "files", "100% covered")] if full else []
