"""mocha (spec, dot, list and tap reporters).

Kept: each failure as `1) suite > nested suite > test:` with its message, the assertion diff
(`+ expected - actual` and the lines under it) and the first frames in the user's code; output
the tests printed themselves (lines at column 0 while the tree is shown), with frames trimmed; one
summary line `mocha: 1234 passing, 4 pending, 22 failing (6s)`; TAP `not ok` lines with their
details and the `# tests/pass/fail` counts.
Dropped (noise): the suite/test tree (`✔ test (5ms)`, suite titles, the `1) test` markers that the
failure section repeats), dot-reporter dots, TAP `ok` lines, frames in node_modules and node
itself, the `----` async-stack separators, blank lines.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.node.failure import FailureBody
from rtk.filters.node.frames import frame_location, is_foreign

COUNT = re.compile(r"^\s+(?P<n>\d+) (?P<what>passing|pending|failing)(?: \((?P<time>[^)]+)\))?\s*$")
FAILURE_HEAD = re.compile(r"^\s{2}(?P<n>\d+)\) (?P<title>.*)$")
DOTS = re.compile(r"^\s*[.․,!]+\s*$")
TAP_OK = re.compile(r"^ok \d+ ")
TAP_NOT_OK = re.compile(r"^not ok \d+ ")
TAP_PLAN = re.compile(r"^\d+\.\.\d+$")
TAP_COUNT = re.compile(r"^# (?P<what>tests|pass|fail|pending|skip) (?P<n>\d+)$")
TREE_MARK = re.compile(r"^\s+(?:[✔✓√]|\d+\) |- )")
ASYNC_SEPARATOR = "----"
OUTPUT_MAX = 60
_NOTHING: tuple[Line, ...] = ()


class MochaFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._counts: dict[str, str] = {}
        self._time = ""
        self._in_failures = False
        self._title: list[str] | None = None  # the title lines of the failure being read
        self._number = ""
        self._body: FailureBody | None = None
        self._tap: dict[str, str] = {}
        self._tap_body: FailureBody | None = None
        self._printing = False
        self._output_lines = 0

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if (count := COUNT.match(text)) is not None:
            self._counts[count["what"]] = count["n"]
            self._time = count["time"] or self._time
            self._in_failures = self._in_failures or count["what"] == "failing"
            return _NOTHING
        if self._in_failures:
            return self._failure_line(text, stream)
        return self._tree_line(text, stream)

    def _tree_line(self, text: str, stream: Stream) -> Iterable[Line]:
        if not text.strip():
            self._printing = False
            return _NOTHING
        if DOTS.match(text) or TAP_OK.match(text) or TAP_PLAN.match(text):
            return _NOTHING
        if (tap := TAP_COUNT.match(text)) is not None:
            self._tap[tap["what"]] = tap["n"]
            return _NOTHING
        if TAP_NOT_OK.match(text):
            self.failure_seen = True
            self._tap_body = FailureBody()
            return (Line(text, stream),)
        if self._tap_body is not None and text.startswith(" "):
            kept = self._tap_body.take(text)
            return (Line(kept, stream),) if kept is not None else _NOTHING
        if text.startswith((" ", "\t")):
            return self._indented(text, stream)
        self._tap_body = None
        self._printing = True
        return self._printed(text, stream)

    def _indented(self, text: str, stream: Stream) -> Iterable[Line]:
        """Tree lines are noise; what a test printed (a line at column 0 and the indented lines
        right after it, an object dump say) is kept, frames trimmed to the user's own."""
        loc = frame_location(text)
        if loc is not None:
            return self._printed(text, stream) if not is_foreign(loc) else _NOTHING
        if TREE_MARK.match(text):
            self._printing = False
        return self._printed(text, stream) if self._printing else _NOTHING

    def _printed(self, text: str, stream: Stream) -> Iterable[Line]:
        self._output_lines += 1
        if self._output_lines > OUTPUT_MAX:
            self.elided = True
            return _NOTHING
        if self._output_lines == OUTPUT_MAX:
            return (Line(f"... (output of the tests cut after {OUTPUT_MAX} lines)", stream),)
        return (Line(text, stream),)

    def _failure_line(self, text: str, stream: Stream) -> Iterable[Line]:
        if (head := FAILURE_HEAD.match(text)) is not None:
            out = self._close()
            self.failure_seen = True
            self._number, self._title = head["n"], [head["title"].strip()]
            if text.endswith(":"):
                out.extend(self._open_body(stream))
            return out
        if self._title is not None and self._body is None:
            if text.strip():
                self._title.append(text.strip())
            if text.endswith(":"):
                return self._open_body(stream)
            return _NOTHING
        if self._body is None or text.strip() == ASYNC_SEPARATOR:
            return (Line(text, stream),) if self._body is None and text.strip() else _NOTHING
        kept = self._body.take(text)
        return (Line(kept, stream),) if kept is not None else _NOTHING

    def _open_body(self, stream: Stream) -> Iterable[Line]:
        assert self._title is not None
        title = " > ".join(self._title)
        self._body = FailureBody()
        return (Line(f"{self._number}) {title}", stream),)

    def _close(self) -> list[Line]:
        body, self._body, self._title = self._body, None, None
        closing = body.closing() if body else None
        if closing:
            self.elided = True
            return [Line(closing)]
        return []

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._close()
        if self._counts:
            parts = [f"{n} {what}" for what, n in self._counts.items()]
            out.append(Line("mocha: " + ", ".join(parts) + (f" ({self._time})" if self._time else "")))
        elif self._tap:
            out.append(Line("mocha: " + ", ".join(f"{what} {n}" for what, n in self._tap.items())))
        return out

    def progress(self) -> Mapping[str, int]:
        return {what: int(n) for what, n in self._counts.items()}


def create(ctx: FilterContext) -> MochaFilter:
    return MochaFilter(ctx)
