"""jest (default and --verbose output, --coverage, projects).

Kept: every failing test as `FAIL file > describe › test` (jest's own title, after the file it
ran in), its message, Expected/Received lines and diff, the first frames in the user's code;
`Test suite failed to run` with its error; console blocks of failing files (`console.log` and
what it printed, capped; a passing file's are left out, recallable); coverage threshold verdicts (`Jest: Coverage for lines ...`); one summary line
`jest: Tests 12 failed, 73 passed, 85 total · Suites 4 failed, 1 passed, 5 total · 3.991 s`;
the coverage table reduced to totals and the files under the thresholds (see node/coverage.py).
Dropped (noise): a matcher line (`expect(received).toBe(expected) // Object.is equality`) that
repeats the one of the failure just above, `PASS file` lines, the verbose per-test listing (`✓ name (3 ms)`), code frames,
frames in node_modules and node:internal, the `Summary of all failing tests` repeat, `Ran all
test suites`, `Snapshots: 0 total`, watch-mode usage. Anything else passes through.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.node.coverage import CoverageTable
from rtk.filters.node.failure import FailureBody
from rtk.filters.node.frames import frame_location, is_foreign

FILE_RESULT = re.compile(r"^\s*(?P<status>PASS|FAIL)\s+(?P<file>\S.*?)(?:\s+\([\d.]+ m?s\))?\s*$")
BULLET = re.compile(r"^\s*● (?P<title>.+)$")
LISTING = re.compile(r"^\s+(?:[✓✔√✕×○✎]|skipped|todo)\s")
SUMMARY = re.compile(r"^(?P<key>Test Suites|Tests|Snapshots|Time):\s+(?P<value>\S.*)$")
RAN_ALL = re.compile(r"^Ran all test suites|^Ran \d+ tests? of \d+")
REPEAT_HEAD = re.compile(r"^Summary of all failing tests\s*$")
WATCH_NOISE = re.compile(r"^\s*(?:Determining test suites to run|Watch Usage|› Press |"
                         r"No tests found related to files changed)")
THRESHOLD = re.compile(r"^Jest: .*(?:threshold|Coverage for)")
CONSOLE_ENTRY = re.compile(r"^\s+console\.(?:log|info|warn|error|debug|trace)\s*$")
MATCHER = re.compile(r"^\s+expect\((?:received|value)\)[.\w]*\(")
CONSOLE_MAX = 30  # lines of one Console block
CONSOLE_ENTRY_MAX = 8  # lines of one console.log
_NOTHING: tuple[Line, ...] = ()


class JestFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._file = ""
        self._passed = False  # the file being reported passed
        self._last_matcher = ""  # the matcher line that opened the last failure's body
        self._opening = False  # the failure's first body line is still to come
        self._body: FailureBody | None = None
        self._console = -1  # lines of the current Console block still allowed, -1 outside one
        self._console_body = FailureBody("    ", CONSOLE_ENTRY_MAX, 1)
        self._repeat = False
        self._coverage = CoverageTable()
        self._summary: dict[str, str] = {}
        self._summary_stream = Stream.STDOUT  # where jest printed its own summary
        self._counts = {"passed": 0, "failed": 0}

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if (summary := SUMMARY.match(text)) is not None:
            self._repeat = False
            self._end_block()
            self._summary[summary["key"]] = summary["value"]
            self._summary_stream = stream
            return _NOTHING
        if self._repeat:
            return _NOTHING
        if self._coverage.feed(text):
            return self._end_block()
        if (result := FILE_RESULT.match(text)) is not None:
            return self._file_result(result["status"], result["file"])
        if (bullet := BULLET.match(text)) is not None:
            return self._bullet(bullet["title"], stream)
        if REPEAT_HEAD.match(text):
            self._repeat = True
            return self._end_block()
        if self._console >= 0:
            return self._console_line(text, stream)
        if self._body is not None:
            if self._opening and text.strip():
                self._opening = False
                matcher = text.strip() if MATCHER.match(text) else ""
                if matcher and matcher == self._last_matcher:
                    return _NOTHING  # `expect(received).toBe(expected)` as in the failure above
                self._last_matcher = matcher
            kept = self._body.take(text)
            return (Line(kept, stream),) if kept is not None else _NOTHING
        return self._outside(text, stream)

    def _file_result(self, status: str, file: str) -> Iterable[Line]:
        out = self._end_block()
        self._file, self._passed = file, status == "PASS"
        self._counts["failed" if status == "FAIL" else "passed"] += 1
        return out

    def _bullet(self, title: str, stream: Stream) -> Iterable[Line]:
        out = self._end_block()
        if title.strip() == "Console":
            self._console = CONSOLE_MAX
            self._console_body = FailureBody("    ", CONSOLE_ENTRY_MAX, 1)
            if not self._passed:
                out.append(Line(f"console output in {self._file}:" if self._file else "console output:", stream))
            return out
        self.failure_seen = True
        self._body, self._opening = FailureBody(), True
        name = f"{self._file} > {title}" if self._file else title
        out.append(Line(f"FAIL {name}", stream))
        return out

    def _end_block(self) -> list[Line]:
        body, self._body = self._body, None
        out = []
        self._console = -1
        closing = body.closing() if body else None
        if closing:
            self.elided = True
            out.append(Line(closing))
        return out

    def _console_line(self, text: str, stream: Stream) -> Iterable[Line]:
        """`console.log` and what it printed (code frames and foreign frames dropped, capped).
        A passing file's console output is left out: nothing failed there."""
        if self._passed:
            self.elided = self.elided or bool(text.strip())
            return _NOTHING
        if CONSOLE_ENTRY.match(text):
            self._console_body = FailureBody("    ", CONSOLE_ENTRY_MAX, 1)
            return self._console_out("  " + text.strip(), stream)
        kept = self._console_body.take(text.strip() and "  " + text.lstrip())
        if self._console_body.dropped_content:
            self.elided = True
        return self._console_out(kept, stream) if kept is not None else _NOTHING

    def _console_out(self, text: str, stream: Stream) -> Iterable[Line]:
        if self._console == 0:
            self.elided = True
            return _NOTHING
        self._console -= 1
        return (Line(text, stream),)

    def _outside(self, text: str, stream: Stream) -> Iterable[Line]:
        if not text.strip() or LISTING.match(text) or RAN_ALL.match(text) or WATCH_NOISE.match(text):
            return _NOTHING
        if self._file and text.startswith("  ") and not text.strip().startswith(("at ", "●")):
            return _NOTHING  # a describe title in the verbose listing
        if THRESHOLD.match(text):
            self._coverage.note_threshold(text)
            self.failure_seen = True
        if (loc := frame_location(text)) is not None and is_foreign(loc):
            return _NOTHING  # a startup error's stack inside jest or node
        return (Line(text, stream),)

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._end_block()
        coverage, cut = self._coverage.report()
        self.elided = self.elided or cut
        out.extend(Line(text) for text in coverage)
        if self._summary:
            out.append(Line(self._summary_line(), self._summary_stream))
        return out

    def _summary_line(self) -> str:
        labels = {"Tests": "Tests", "Test Suites": "Suites", "Snapshots": "Snapshots", "Time": ""}
        parts = []
        for key, value in self._summary.items():
            if key == "Snapshots" and value == "0 total":
                continue
            if key == "Time":
                value = value.split(", estimated")[0]
            parts.append(f"{labels.get(key, key)} {value}".strip())
        tests = [p for p in parts if p.startswith("Tests ")]
        return "jest: " + " · ".join(tests + [p for p in parts if not p.startswith("Tests ")])

    def progress(self) -> Mapping[str, int]:
        return dict(self._counts)


def create(ctx: FilterContext) -> JestFilter:
    return JestFilter(ctx)
