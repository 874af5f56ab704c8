"""The istanbul text coverage table (jest, vitest, nyc, c8) reduced to what an agent acts on.

A table lists every source file; the agent needs the totals and the files that fail a threshold.
The table is read row by row (memory: one small tuple per file) and reported when the run ends,
since the threshold verdicts (`ERROR: Coverage for lines (91%) does not meet global threshold
(95%)`, `Jest: Coverage for ...`) come after it. Without thresholds the files below the overall
line coverage are listed, lowest first, up to `SHOW` of them; the rest is elided with a marker.
At most `MAX_ROWS` rows are held: a longer table (or the same table printed again and again)
has the rest counted and said, so memory stays bounded whatever the output's size.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

METRICS = ("stmts", "branch", "funcs", "lines")
THRESHOLD_KEYS = {"statements": "stmts", "branches": "branch", "functions": "funcs", "lines": "lines"}
HEADER = re.compile(r"^\s*File\s*\|\s*% Stmts\s*\|")
SEPARATOR = re.compile(r"^\s*-{3,}\|[-|]*\s*$")
# vitest: `Coverage for lines (99.04%) does not meet global threshold (99.5%)`
# jest: `Jest: Coverage for lines (96.07%) does not meet "global" threshold (100%)`
# jest < 29: `Jest: "global" coverage threshold for lines (100%) not met: 96.07%`
THRESHOLD_NEW = re.compile(r"Coverage for (\w+) \(([\d.]+)%\) does not meet \"?([^\"]+?)\"? threshold \(([\d.]+)%\)")
THRESHOLD_OLD = re.compile(r"\"([^\"]+)\" coverage threshold for (\w+) \(([\d.]+)%\) not met: ([\d.]+)%")
SHOW = 10
MAX_ROWS = 20_000  # rows held for the report (a real table of 20,000 files is ~6 MB of them)


@dataclass
class Row:
    name: str
    depth: int
    values: tuple[float, ...]
    uncovered: str


@dataclass
class CoverageTable:
    rows: list[Row] = field(default_factory=list)
    total: Row | None = None
    thresholds: dict[str, float] = field(default_factory=dict)
    active: bool = False
    seen: bool = False
    _prefix: list[tuple[int, str]] = field(default_factory=list)
    _held: Row | None = None
    unread: int = 0  # rows past MAX_ROWS: counted, not examined

    def feed(self, text: str) -> bool:
        """Whether the line belongs to the table (and is consumed by it)."""
        if HEADER.match(text):
            self.active = self.seen = True
            return True
        if SEPARATOR.match(text):
            return True  # the dashes around the header and after the last row
        if not self.active:
            return False
        row = _parse_row(text)
        if row is None:
            self._flush_held(None)
            self.active = False
            return False
        if row.name == "All files":
            self.total = row
        else:
            self._flush_held(row)
            self._held = row
        return True

    def note_threshold(self, text: str) -> None:
        if match := THRESHOLD_NEW.search(text):
            metric, scope, wanted = match[1], match[3], match[4]
        elif match := THRESHOLD_OLD.search(text):
            scope, metric, wanted = match[1], match[2], match[3]
        else:
            return
        if scope == "global" and metric in THRESHOLD_KEYS:
            self.thresholds[THRESHOLD_KEYS[metric]] = float(wanted)

    def _flush_held(self, following: Row | None) -> None:
        """A row followed by a deeper one is a directory: it prefixes the files under it."""
        held, self._held = self._held, None
        if held is None:
            return
        self._prefix = [(d, n) for d, n in self._prefix if d < held.depth]
        if following is not None and following.depth > held.depth:
            self._prefix.append((held.depth, held.name))
            return
        if len(self.rows) >= MAX_ROWS:
            self.unread += 1
            return
        path = "/".join([n for _, n in self._prefix] + [held.name])
        self.rows.append(Row(path, held.depth, held.values, held.uncovered))

    def report(self) -> tuple[list[str], bool]:
        """The reduced table as lines, and whether rows were left out."""
        self._flush_held(None)
        if not self.seen:
            return [], False
        lines = [self._total_line()]
        chosen, criterion = self._selected()
        for row in chosen[:SHOW]:
            lines.append(f"  {row.name} {_values(row)}" + (f" uncovered {row.uncovered}" if row.uncovered else ""))
        rest = len(chosen) - SHOW
        if rest > 0:
            lines.append(f"  ... {rest:,} more files {criterion}")
        if self.unread:
            lines.append(f"  ... {self.unread:,} more rows not examined (past the first {MAX_ROWS:,})")
        shown = len(lines) - 1
        return lines, shown < len(self.rows) + self.unread

    def _total_line(self) -> str:
        total = self.total
        head = f"coverage ({len(self.rows) + self.unread:,} files) % stmts/branch/funcs/lines"
        return f"{head}: {_values(total)}" if total else head

    def _selected(self) -> tuple[list[Row], str]:
        if self.thresholds:
            under = [r for r in self.rows
                     if any(r.values[METRICS.index(m)] < t for m, t in self.thresholds.items())]
            wanted = ", ".join(f"{m} {t:g}%" for m, t in self.thresholds.items())
            return sorted(under, key=_lines_value), f"under the thresholds ({wanted})"
        floor = _lines_value(self.total) if self.total else 100.0
        below = [r for r in self.rows if _lines_value(r) < floor]
        return sorted(below, key=_lines_value), "below the total line coverage"


def _lines_value(row: Row) -> float:
    return row.values[3]


def _values(row: Row | None) -> str:
    if row is None:
        return ""
    return "/".join(f"{value:g}" for value in row.values)


def _parse_row(text: str) -> Row | None:
    cells = text.split("|")
    if len(cells) < 5:
        return None
    try:
        values = tuple(float(c.strip()) for c in cells[1:5])
    except ValueError:
        return None
    name = cells[0].rstrip()
    depth = len(name) - len(name.lstrip())
    uncovered = cells[5].strip() if len(cells) > 5 else ""
    return Row(name.strip(), depth, values, uncovered)
