"""`node --test`: the TAP reporter (node 20's default when piped) and the spec reporter.

TAP: `not ok N - name` with its location, its error text, code and the first frame of the stack
in the user's code are kept; `ok` tests, `# Subtest:` headers, plans, durations and node's own
frames are dropped. Spec: passing `✔` lines, suite `▶` lines and the failures printed inside the
tree are dropped, since the `✖ failing tests:` section at the end repeats each failure with its
`test at file:line:col`; that section is kept (frames trimmed). Both: the `# tests 48` / `ℹ pass 43`
counts become one summary line, `node --test: tests 48, pass 43, fail 5`.
"""
from __future__ import annotations

import re

from rtk.filters.base import Line, Stream
from rtk.filters.node.frames import frame_location, is_foreign

TAP_START = re.compile(r"^TAP version \d+")
COUNT = re.compile(r"^(?:# |ℹ )(?P<key>tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (?P<value>[\d.]+)$")
OK = re.compile(r"^\s*ok \d+ - ")
NOT_OK = re.compile(r"^\s*not ok \d+ - ")
SUBTEST = re.compile(r"^\s*# Subtest: |^\s*1\.\.\d+$")
YAML_DROP = re.compile(r"^\s+(?:---|\.\.\.|duration_ms:|type: '(?:test|suite)'|failureType:|error: \|-$|"
                       r"expected:|actual:|operator:)")
YAML_KEY = re.compile(r"^\s+\w+: ")
STACK_KEY = re.compile(r"^\s+stack: \|-\s*$")
SPEC_PASS = re.compile(r"^\s*(?:✔|▶) ")
SPEC_FAIL = re.compile(r"^\s*✖ (?P<name>.*?)(?: \([\d.]+m?s\))?$")
FAILING_SECTION = re.compile(r"^✖ failing tests:\s*$")
ERROR_PROPERTY = re.compile(r"^\s+(?:generatedMessage|actual|expected|operator): |^\s+\}\s*$")
SHOWN_COUNTS = ("tests", "pass", "fail", "cancelled", "skipped", "todo")
MAX_NAMES = 50


class NodeTestRun:
    """The state of one `node --test` run's output; `feed` returns None for lines it does not own."""

    def __init__(self) -> None:
        self.active = False
        self.failed = False
        self.elided = False
        self._tap = False
        self._counts: dict[str, str] = {}
        self._in_ok = False  # inside the YAML block of a passing TAP test
        self._in_failure = False
        self._in_stack = False
        self._frames = 0
        self._failing_section = False
        self._tree_failures: list[str] = []

    def feed(self, text: str, stream: Stream) -> list[Line] | None:
        if TAP_START.match(text):
            self.active = self._tap = True
            return []
        if (count := COUNT.match(text)) is not None and (self.active or text.startswith("ℹ")):
            self.active = True
            self._counts[count["key"]] = count["value"]
            return []
        if self._tap:
            return self._tap_line(text, stream)
        if FAILING_SECTION.match(text):
            self.active = self._failing_section = True
            return []
        if self._failing_section:
            return self._kept_failure_line(text, stream)
        if SPEC_PASS.match(text) or (SPEC_FAIL.match(text) and self._tree_line(text)):
            self.active = True
            return []
        if self.active and (not text.strip() or text.startswith(" ")):
            self.elided = True
            return []  # a failure's body inside the tree: the failing-tests section repeats it
        return None

    def _tree_line(self, text: str) -> bool:
        match = SPEC_FAIL.match(text)
        assert match is not None
        self.failed = True
        if len(self._tree_failures) < MAX_NAMES:
            self._tree_failures.append(match["name"])
        return True

    def _tap_line(self, text: str, stream: Stream) -> list[Line]:
        if SUBTEST.match(text):
            return []
        if OK.match(text):
            self._in_ok, self._in_failure = True, False
            return []
        if NOT_OK.match(text):
            self._in_ok, self._in_failure, self._in_stack, self._frames = False, True, False, 0
            self.failed = True
            return [Line(text.strip(), stream)]
        if self._in_ok or not text.strip():
            return []
        if STACK_KEY.match(text):
            self._in_stack = True
            return []
        if self._in_stack and not YAML_KEY.match(text) and text.strip() != "...":
            return self._frame(text.strip(), stream)
        self._in_stack = False
        if YAML_DROP.match(text):
            return []
        return [Line("  " + text.strip(), stream)] if self._in_failure else [Line(text, stream)]

    def _frame(self, text: str, stream: Stream) -> list[Line]:
        location = text[text.rfind("(") + 1:].rstrip(")") if "(" in text else text
        if is_foreign(location) or self._frames >= 1:
            return []
        self._frames += 1
        return [Line(f"  at {location.removeprefix('file://')}", stream)]

    def _kept_failure_line(self, text: str, stream: Stream) -> list[Line]:
        if not text.strip() or ERROR_PROPERTY.match(text):
            return []
        if SPEC_FAIL.match(text) or text.startswith("test at "):
            self._frames = 0
            self.failed = True
            return [Line(text, stream)]
        location = frame_location(text)
        if location is not None:
            return self._frame(location, stream)
        return [Line(text, stream)]

    def summary(self) -> list[Line]:
        out: list[Line] = []
        if self._tree_failures and not self._failing_section:
            out.extend(Line(f"✖ {name}") for name in self._tree_failures)
        if self._counts:
            parts = [f"{key} {self._counts[key]}" for key in SHOWN_COUNTS
                     if key in self._counts and (self._counts[key] != "0" or key in ("tests", "pass", "fail"))]
            out.append(Line("node --test: " + ", ".join(parts)))
        return out
