"""What tests print during the run (`-s`), kept for the tests that fail.

With `-s` a test's prints reach the terminal before pytest writes its result: `-q` gives
`..DEBUG x` then `FDEBUG y` (the `F` is the result of the test that printed `DEBUG x`), `-v` gives
`tests/t.py::test_a DEBUG x` then a bare `FAILED`. The lines are held (the last CAP of them) until
the result of the test that printed them is known: a failing test's prints are kept under
`printed by <test>:`, a passing test's are dropped and counted, unless the command asked to see
them (`-s`, `--capture=no`, `--capture=tee-sys`: `asked`): then they print too (under `printed by
<test>:` when -v names it), up to ASKED_CAP lines a test and ASKED_BUDGET characters over the
run (a suite printing 100 KB is folded); past those they are counted.
"""
from __future__ import annotations

import re
from collections import deque

from rtk.filters.base import elision_marker
from rtk.filters.pytest.counts import RunCounts

CAP = 20
ASKED_CAP, ASKED_BUDGET = 200, 24_000  # -s: a passing test's prints: lines a test, characters a run
SHOWS_OUTPUT_RE = re.compile(r"^(?:-[vqxlVh]*s[vqxlVh]*|--capture=(?:no|tee-sys))$")
RESULT_LETTERS = "FEsxXR"
LEADING_RESULTS_RE = re.compile(r"^([.FEsxXR]+)(\S.*)$")
VERBOSE_PRINT_RE = re.compile(r"^(\S+::\S+?) +(\S.*)$")
BARE_RESULT_RE = re.compile(r"^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?:\s+\[ *\d+%\])?\s*$")
WORD_CHAR = {"PASSED": ".", "FAILED": "F", "ERROR": "E", "SKIPPED": "s", "XFAIL": "x", "XPASS": "X"}


def leading_results(line: str) -> tuple[str, str] | None:
    """`..FDEBUG x`, `t.py ..FDEBUG x`: (result characters, what the next test printed). Result letters followed by
    a lower-case letter start that word (`Expected`, `Found`, `.Expected`: `.` then `Expected`)."""
    path, space, rest = line.partition(" ")
    if space and path.endswith(".py"):  # the default mode: `tests/t.py ..Fprinted`
        line = rest
    m = LEADING_RESULTS_RE.match(line)
    if m is None:
        return None
    results, text = m.group(1), m.group(2)
    if text[:1].islower():
        word = len(results) - len(results.rstrip(RESULT_LETTERS))
        if word:
            results, text = results[:-word], results[-word:] + text
    return (results, text) if results else None


def asks_output(argv: tuple[str, ...]) -> bool:
    """`-s`, `-vs`, `--capture=no`: the command asked to see what the tests print."""
    return any(SHOWS_OUTPUT_RE.match(arg) is not None for arg in argv[1:])


class Printed:
    def __init__(self, asked: bool = False) -> None:
        self.asked = asked
        self.budget = ASKED_BUDGET if asked else 0
        self.lines: deque[str] = deque(maxlen=ASKED_CAP if asked else CAP)
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
        if not counts.verbose and (lead := leading_results(line)) is not None:
            out = self.result(lead[0][0])
            line = lead[1]
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
            return self._passing(lines, total, owner)
        out = [f"printed by {owner}:" if owner else "printed by the failing test:"]
        if total > len(lines):
            self.cut = True
            out.append(elision_marker(total - len(lines), "lines", "earlier output of this test"))
        return [*out, *lines]

    def _passing(self, lines: list[str], total: int, owner: str) -> list[str]:
        """A passing test's prints: kept while the budget of `-s` lasts, else counted."""
        if self.budget <= 0:
            self.dropped += total
            return []
        kept = []
        for text in lines:
            self.budget -= len(text) + 1
            if self.budget < 0:
                break
            kept.append(text)
        self.dropped += total - len(kept)
        self.cut = self.cut or total > len(kept)
        head = [f"printed by {owner}:"] if owner else []
        return [*head, *kept]

    def end(self) -> None:
        """The run is over: what is still held belonged to no result we saw."""
        self.dropped += self.total
        self.lines.clear()
        self.total = 0
