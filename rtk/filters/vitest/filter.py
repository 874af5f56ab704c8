"""vitest run (default, verbose and dot reporters; --coverage; projects/workspaces).

Kept: every failing test as `FAIL file > describe > test` (the id as vitest prints it, a project
label included), its error message, expected/received diff and the first frames in the user's
code; failed suites (`FAIL file [ file ]`, import errors) and unhandled errors the same way;
console output blocks (`stdout | file > test`), capped; threshold errors; one summary line
`vitest: Tests 6 failed | 479 passed (485) · Files 2 failed | 11 passed (13) · 1.2s`; the
coverage table reduced to totals and the files under the thresholds (see node/coverage.py).
Dropped (noise): the RUN banner, passing files and tests (`✓`), the per-test listing of a failing
file (the FAIL blocks that follow name each failing test), dots, `⎯⎯⎯[1/8]⎯` separators, code
frames, frames in node_modules and node:internal, `Start at`, watch-mode prompts, the advice paragraph
under an unhandled error (its origin and the latest test are kept).
Anything not recognised passes through (tap, junit and json reporters among it).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.node.coverage import CoverageTable
from rtk.filters.node.failure import FailureBody
from rtk.filters.node.frames import frame_location, is_foreign

RUN_BANNER = re.compile(r"^\s*(?:RUN|DEV)\s+v\d")
COVERAGE_NOTE = re.compile(r"^\s*(?:Coverage enabled with|% Coverage report from)\b")
FILE_RESULT = re.compile(r"^\s*[✓✔√❯×✗↓]\s+(?:\|[^|]+\|\s+)?\S+.*\((?:\d+ tests?|0 test)\b.*\)")
TEST_RESULT = re.compile(r"^\s*(?P<mark>[✓✔√×✗↓✕])\s+(?P<name>.+?)(?:\s+\d+(?:\.\d+)?m?s)?$")
INLINE_ERROR = re.compile(r"^\s+→ ")
DOTS = re.compile(r"^[\s·x×*-]+$")
SECTION = re.compile(r"^\s*⎯+\s*(?P<title>[A-Z][A-Za-z ]+?)(?:\s+(?P<count>\d+))?\s*⎯+\s*$")
SEPARATOR = re.compile(r"^\s*⎯+(?:\[\d+/\d+\]⎯*)?\s*$")
FAIL_HEAD = re.compile(r"^\s*FAIL\s+(?P<id>\S.*)$")
SUMMARY = re.compile(r"^\s*(?P<key>Test Files|Tests|Snapshots|Type Errors|Errors)\s{2,}(?P<value>\S.*)$")
TIMING = re.compile(r"^\s*(?:Start at|Duration)\s{2,}(?P<value>\S.*)$")
CONSOLE_HEAD = re.compile(r"^(?:stdout|stderr) \| \S")
WATCH_NOISE = re.compile(r"^\s*(?:PASS|FAIL)?\s*(?:Waiting for file changes|Tests failed\. Watching|"
                         r"press h to show help|press q to quit)")
THRESHOLD = re.compile(r"Coverage for \w+ \([\d.]+%\) does not meet")
ADVICE = re.compile(r"^(?:This might cause false positive tests|- The error was thrown, while Vitest|"
                    r"- If the error occurred after the test had been completed)")
CONSOLE_MAX = 10
PENDING_MAX = 50
_NOTHING: tuple[Line, ...] = ()


class VitestFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._section: str | None = None
        self._body: FailureBody | None = None
        self._coverage = CoverageTable()
        self._summary: dict[str, str] = {}
        self._duration = ""
        self._failed_names: list[str] = []
        self._blocks = 0
        self._console_left = -1
        self._counts = {"passed": 0, "failed": 0}

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if self._coverage.feed(text):
            return _NOTHING
        if self._console_left >= 0:
            return self._console(text, stream)
        if (section := SECTION.match(text)) is not None:
            return self._open_section(section["title"])
        if SEPARATOR.match(text):
            return self._close_block()
        if (head := FAIL_HEAD.match(text)) is not None and not WATCH_NOISE.match(text):
            return self._open_block(head["id"], stream)
        if (summary := SUMMARY.match(text)) is not None:
            self._close_block()
            self._summary[summary["key"]] = summary["value"]
            return _NOTHING
        if (timing := TIMING.match(text)) is not None:
            if text.lstrip().startswith("Duration"):
                self._duration = timing["value"].split(" (")[0]
            return _NOTHING
        if self._body is not None:
            return self._in_block(text, stream)
        return self._outside(text, stream)

    def _open_section(self, title: str) -> Iterable[Line]:
        out = self._close_block()
        self._section = title.strip().lower()
        if any(word in self._section for word in ("error", "unhandled", "uncaught", "rejection", "exception")):
            self.failure_seen = True  # Unhandled Errors, Uncaught Exception, Unhandled Rejection
            self._body = FailureBody()
            out.append(Line(title.strip()))
        return out

    def _open_block(self, test_id: str, stream: Stream) -> Iterable[Line]:
        self.failure_seen = True
        if self._body is not None and self._body.kept == 0:
            return (Line(f"FAIL {test_id}", stream),)  # vitest groups tests that share an error
        out = list(self._close_block())
        self._body = FailureBody()
        self._blocks += 1
        out.append(Line(f"FAIL {test_id}", stream))
        return out

    def _close_block(self) -> list[Line]:
        body, self._body = self._body, None
        if body is None:
            return []
        closing = body.closing()
        if closing:
            self.elided = True
            return [Line(closing)]
        return []

    def _in_block(self, text: str, stream: Stream) -> Iterable[Line]:
        assert self._body is not None
        if ADVICE.match(text):
            return _NOTHING
        kept = self._body.take(text)
        return (Line(kept, stream),) if kept is not None else _NOTHING

    def _outside(self, text: str, stream: Stream) -> Iterable[Line]:
        if not text.strip() or RUN_BANNER.match(text) or COVERAGE_NOTE.match(text) or WATCH_NOISE.match(text):
            return _NOTHING
        if FILE_RESULT.match(text) or INLINE_ERROR.match(text):
            return _NOTHING
        if (result := TEST_RESULT.match(text)) is not None:
            return self._test_result(result["mark"], result["name"])
        if DOTS.match(text):
            return _NOTHING
        if CONSOLE_HEAD.match(text):
            self._console_left = CONSOLE_MAX
            return (Line(text, stream),)
        if THRESHOLD.search(text):
            self._coverage.note_threshold(text)
            self.failure_seen = True
        if (loc := frame_location(text)) is not None and is_foreign(loc):
            return _NOTHING  # a startup error's stack inside vitest or node
        return (Line(text, stream),)

    def _test_result(self, mark: str, name: str) -> Iterable[Line]:
        if mark in "×✗✕":
            self._counts["failed"] += 1
            if len(self._failed_names) < PENDING_MAX:
                self._failed_names.append(name)
        elif mark in "✓✔√":
            self._counts["passed"] += 1
        return _NOTHING

    def _console(self, text: str, stream: Stream) -> Iterable[Line]:
        if not text.strip():
            self._console_left = -1
            return _NOTHING
        if self._console_left == 0:
            self.elided = True
            return _NOTHING
        self._console_left -= 1
        if self._console_left == 0:
            return (Line("  ... (console output cut)", stream),)
        return (Line(text, stream),)

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._close_block()
        if not self._blocks and self._failed_names:
            self.failure_seen = True
            out.extend(Line(f"FAIL {name}") for name in self._failed_names)
        coverage, cut = self._coverage.report()
        self.elided = self.elided or cut
        out.extend(Line(text) for text in coverage)
        if self._summary:
            out.append(Line(self._summary_line()))
        return out

    def _summary_line(self) -> str:
        parts = [f"{key} {value}" for key, value in self._summary.items()]
        if self._duration:
            parts.append(self._duration)
        return "vitest: " + " · ".join(parts)

    def progress(self) -> Mapping[str, int]:
        return dict(self._counts)


def create(ctx: FilterContext) -> VitestFilter:
    return VitestFilter(ctx)
