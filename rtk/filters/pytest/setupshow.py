"""`pytest --setup-show`: each test's fixture SETUP and TEARDOWN lines around its result line.

    tests/t.py 
            SETUP    F env
            tests/t.py::test_a (fixtures used: env) .        (-v: ... PASSED)
            TEARDOWN F env

The result line is progress (counted, its id noted for the FAILURES block); the SETUP lines
before it are held, the last CAP of them: a failing or erroring test's are printed under
`fixtures of <id>:` with the TEARDOWN lines that follow its result, a passing test's are dropped
and counted (the run is marked elided).
"""
from __future__ import annotations

import re
from collections import deque

from rtk.filters.base import elision_marker

CAP = 20
SETUP_FIRST = frozenset(" ST")  # first characters of --setup-show's lines
FIXTURE_RE = re.compile(r"^ *(?:SETUP|TEARDOWN) +[SPMCF] \S")  # indented by scope: session at column 0
RESULT_RE = re.compile(r"^ {8}(\S+::\S.*?)(?: \(fixtures used: .*\))? ?(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|[.FEsxX])$")
FILE_RE = re.compile(r"^\S+\.py ?$")  # the default mode's file line, its results on lines of their own
CHAR_WORDS = {".": "PASSED", "F": "FAILED", "E": "ERROR", "s": "SKIPPED", "x": "XFAIL", "X": "XPASS"}


class SetupShow:
    def __init__(self) -> None:
        self._held: deque[str] = deque(maxlen=CAP)
        self._total = 0
        self.dropped = 0
        self.seen = False
        self._last_failed = False

    @staticmethod
    def matches(line: str) -> bool:
        return FIXTURE_RE.match(line) is not None or RESULT_RE.match(line) is not None

    def take(self, line: str) -> tuple[str, str, list[str]] | None:
        """-> (result word, test id, lines to print) for a result line, ("", "", []) for a fixture
        line (held), None for a line that is not --setup-show's."""
        if FIXTURE_RE.match(line):
            self.seen = True
            if line.lstrip()[:8] == "TEARDOWN" and not self._total:  # the test that just ended
                if self._last_failed:
                    return "", "", [line.strip()]
                self.dropped += 1
                return "", "", []
            self._held.append(line.strip())
            self._total += 1
            return "", "", []
        if (m := RESULT_RE.match(line)) is None:
            return ("", "", []) if self.seen and FILE_RE.match(line) else None
        self.seen = True
        word = CHAR_WORDS.get(m.group(2), m.group(2))
        self._last_failed = word in ("FAILED", "ERROR")
        return word, m.group(1), self._result(word, m.group(1))

    def _result(self, word: str, nodeid: str) -> list[str]:
        held, total = list(self._held), self._total
        self._held.clear()
        self._total = 0
        if word not in ("FAILED", "ERROR"):
            self.dropped += total
            return []
        out = [f"fixtures of {nodeid}:"] if held else []
        if total > len(held):
            out.append(elision_marker(total - len(held), "lines", "earlier fixture setup and teardown"))
        return [*out, *held]

    def end(self) -> int:
        """The run is over: held lines (the last test's teardown) are counted as dropped."""
        self.dropped += self._total
        self._held.clear()
        self._total = 0
        return self.dropped
