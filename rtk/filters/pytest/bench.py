"""pytest-benchmark's table, cut to the columns an agent compares.

The plugin prints one row per benchmark with eleven columns, each value followed by its ratio
to the best (`369.5500 (1.0)`): a hundred tokens a row. What a test run's reader looks at is
how fast each benchmark is: the name, Min, Mean and Median stay; StdDev, IQR, Outliers, OPS,
Rounds, Iterations, the ratios and the Legend go (the block is marked elided, the full table
is in the recall store). A row that does not split into the header's columns is kept as it is.
On a run that asked for benchmarks only (`--benchmark-only`, `--benchmark-compare`) the table
is the whole point and is not reached: the caller keeps it.
"""
from __future__ import annotations

import re

KEPT_COLUMNS = ("Min", "Mean", "Median")
WHOLE_TABLE_FLAGS = ("--benchmark-only", "--benchmark-compare", "--benchmark-columns")
COLUMN_SEP_RE = re.compile(r"\s{2,}")
RATIO_RE = re.compile(r" *\([\d.,]+\)")
RULE_RE = re.compile(r"^-{10,}$")


def wants_whole_table(argv: tuple[str, ...]) -> bool:
    return any(word.split("=", 1)[0] in WHOLE_TABLE_FLAGS for word in argv)


class BenchmarkTable:
    def __init__(self) -> None:
        self._columns: list[str] = []
        self._keep: list[int] = []
        self.elided = False
        self.done = False  # the table ends at a line that is not part of it (add() gives None)
        self._legend = False

    def add(self, line: str) -> list[str] | None:
        """The lines to print for one line of the table, or None when the table has ended."""
        text = line.rstrip()
        if not text or RULE_RE.match(text):
            return []
        if self._legend and text.startswith(" "):
            return []
        self._legend = text == "Legend:"
        if self._legend:
            self.elided = True
            return []
        if text.startswith("Name (") and not self._columns:
            return [self._header(text)]
        if self._columns and text[:1] not in (" ", "-", "="):
            return [self._row(text)]
        return None

    def flush(self) -> list[str]:
        return []

    def _header(self, text: str) -> str:
        self._columns = COLUMN_SEP_RE.split(text.strip())
        self._keep = [i for i, name in enumerate(self._columns) if name in KEPT_COLUMNS]
        if not self._keep:
            return text
        return "  ".join([self._columns[0], *(self._columns[i] for i in self._keep)])

    def _row(self, text: str) -> str:
        name, _, rest = text.partition(" ")
        values = RATIO_RE.sub("", rest).split()
        if not self._keep or len(values) != len(self._columns) - 1:
            return text
        self.elided = True
        return "  ".join([name, *(values[i - 1] for i in self._keep)])
