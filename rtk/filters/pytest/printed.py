"""What tests print during the run (`-s`), kept for the tests that fail.

With `-s` a test's prints reach the terminal before pytest writes its result: `-q` gives
`..DEBUG x` then `FDEBUG y` (the `F` is the result of the test that printed `DEBUG x`), `-v` gives
`tests/t.py::test_a DEBUG x` then a bare `FAILED`. The lines are held (the last CAP of them) until
the result of the test that printed them is known: a failing test's prints are kept under
`printed by <test>:`, a passing test's are dropped and counted.
"""
from __future__ import annotations

import re
from collections import deque

from rtk.filters.base import elision_marker
from rtk.filters.pytest.counts import RunCounts

CAP = 20
LEADING_RESULTS_RE = re.compile(r"^([.FEsxXR]+)(\S.*)$")
VERBOSE_PRINT_RE = re.compile(r"^(\S+::\S+?) +(\S.*)$")
BARE_RESULT_RE = re.compile(r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?:\s+\[ *\d+%\])?\s*$")
WORD_CHAR = {"PASSED": ".", "FAILED": "F", "ERROR": "E", "SKIPPED": "s", "XFAIL": "x", "XPASS": "X"}


def leading_results(line: str) -> re.Match[str] | None:
    """`..FDEBUG x`: result characters, then what the next test printed. One letter before a
    lower-case word (`Expecting`, `Found`) is the word itself, not a result."""
    m = LEADING_RESULTS_RE.match(line)
    if m is None or (len(m.group(1)) == 1 and m.group(2)[:1].islower()):
        return None
    return m


class Printed:
    def __init__(self) -> None:
        self.lines: deque[str] = deque(maxlen=CAP)
        self.total = 0
        self.dropped = 0
        self.owner = ""
        self.cut = False  # a failing test's earlier prints were left out (marker printed)

    def stray(self, line: str, counts: RunCounts) -> list[str]:
        """A line that is neither progress nor pytest's: a bare result word (-v -s) settles the
        held lines, `id text` (-v) holds text for that id, `..Ftext` (-q) settles then holds."""
        if (m := BARE_RESULT_RE.match(line)) is not None:
            counts.word(m.group(1), self.owner)
            return self.result(WORD_CHAR[m.group(1)])
        if (m := VERBOSE_PRINT_RE.match(line)) is not None:
            counts.verbose = True
            self.add(m.group(2), owner=m.group(1))
            return []
        out: list[str] = []
        if not counts.verbose and (m := leading_results(line)) is not None:
            out = self.result(m.group(1)[0])
            line = m.group(2)
        self.add(line)
        return out

    def add(self, text: str, owner: str = "") -> None:
        if owner:
            self.owner = owner
        self.lines.append(text)
        self.total += 1

    def result(self, char: str) -> list[str]:
        """The result of the test that printed the held lines: kept (a failure) or dropped."""
        lines, total, owner = list(self.lines), self.total, self.owner
        self.lines.clear()
        self.total, self.owner = 0, ""
        if not total:
            return []
        if char not in "FE":
            self.dropped += total
            return []
        out = [f"printed by {owner}:" if owner else "printed by the failing test:"]
        if total > len(lines):
            self.cut = True
            out.append(elision_marker(total - len(lines), "lines", "earlier output of this test"))
        return [*out, *lines]

    def end(self) -> None:
        """The run is over: what is still held belonged to no result we saw."""
        self.dropped += self.total
        self.lines.clear()
        self.total = 0
