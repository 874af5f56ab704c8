"""Tables plugins print at the end of a run, after pytest's own sections: pytest-cov's coverage
report (coverage.py) and pytest-benchmark's timings (bench.py), each shortened by its module.

`start(line)` says whether a line opens a table shortened here (and what to print for it);
`add(line)` then takes the table's lines until one is not part of it (None: the caller handles
that line as usual, after printing `flush()`). With recall off (keep_all) nothing is started.
"""
from __future__ import annotations

from rtk.filters.pytest import coverage
from rtk.filters.pytest.bench import BenchmarkTable, wants_whole_table
from rtk.filters.pytest.coverage import CoverageTable


class PluginTables:
    def __init__(self, argv: tuple[str, ...], keep_all: bool) -> None:
        self._keep_all = keep_all
        self._cut_benchmarks = not wants_whole_table(argv)
        self._table: CoverageTable | BenchmarkTable | None = None
        self.elided = False

    def start(self, text: str, rule_title: str | None, failed: bool) -> list[str] | None:
        """`text` is the line, `rule_title` its title when it is a plugin's `---- title ----` rule,
        `failed` whether the run has failed tests (its coverage rows then go)."""
        if self._keep_all:
            return None
        if coverage.is_header(text):
            self._table = CoverageTable(failed)
            return [text]
        if rule_title is not None and rule_title.startswith("benchmark") and self._cut_benchmarks:
            self._table = BenchmarkTable()
            return [rule_title]
        return None

    def add(self, line: str) -> list[str] | None:
        table = self._table
        lines = table.add(line) if table is not None else None
        if table is not None:
            self.elided = self.elided or table.elided
        if lines is None or (table is not None and table.done):
            self._table = None if lines is None else table
        return lines

    @property
    def done(self) -> bool:
        return self._table is None or self._table.done

    def flush(self) -> list[str]:
        table, self._table = self._table, None
        return table.flush() if table is not None else []
