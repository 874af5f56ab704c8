"""Compiler errors a passing doc-test run prints: `compile_fail` examples failing as they should.

With `cargo test -- --nocapture` rustdoc prints the errors of every `compile_fail` example while
the doc-tests run. When that run passes they are the expected result, not a broken build: they
are held until the run's `test result:` line and then said in one line with each error's code
and place. When it fails, everything held is printed as it came (and past MAX_HELD lines the
output streams again).
"""
from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.cargo.diagnostic import Diagnostic

ABORTING_RE = re.compile(r"^error: aborting due to \d+ previous errors?")
MAX_HELD = 400


class DocTestErrors:
    """What a doc-test run printed outside any failing test's block, held until its result."""

    def __init__(self) -> None:
        self.running = False  # between `Doc-tests x` and its `test result:`
        self.lines: list[str] = []
        self.errors: list[str] = []
        self.released = False

    def hold(self, diag: Diagnostic, rendered: list[str]) -> list[str]:
        """Hold one error; what to print now (everything held, once MAX_HELD lines were: the
        output streams again, whatever the result)."""
        if self.released:
            return rendered
        self.lines.extend(rendered)
        self.errors.append(f"{diag.code.strip('[]') or diag.level} {diag.location or '?'}")
        if len(self.lines) < MAX_HELD:
            return []
        held, self.lines, self.errors, self.released = self.lines, [], [], True
        return held

    def hold_line(self, text: str) -> bool:
        """Hold `error: aborting due to 1 previous error` (True), or leave the line alone."""
        if self.running and not self.released and ABORTING_RE.match(text):
            self.lines.append(text)
            return True
        return False

    def result(self, passed: bool) -> tuple[list[str], bool]:
        """The lines to print at the run's result, and whether any were left out."""
        lines, errors = self.lines, self.errors
        self.lines, self.errors, self.running, self.released = [], [], False, False
        if not lines:
            return [], False
        if not passed or not errors:
            return lines, False
        word = "error" if len(errors) == 1 else "errors"
        return [f"passing doc-tests printed {len(errors)} expected compile {word} (compile_fail examples): "
                + ", ".join(errors)], True
