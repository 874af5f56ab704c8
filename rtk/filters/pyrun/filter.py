"""A Python program's output: tracebacks shortened, unittest's progress dropped."""
from __future__ import annotations

import re
from collections.abc import Iterable

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.pyrun.traceback import Frames

TRACEBACK = re.compile(r"^\s*Traceback \(most recent call last\):$")
DOTS = re.compile(r"^[.FEsxu]+$")
VERBOSE_RESULT = re.compile(r" \.\.\. (?P<result>ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$")
SEPARATOR = re.compile(r"^(?:=|-){20,}$")
FAILURE_HEAD = re.compile(r"^(?:FAIL|ERROR|UNEXPECTED SUCCESS): \S")
RAN = re.compile(r"^Ran \d+ tests? in ")
VERDICT = re.compile(r"^(?:OK|FAILED)(?: \(.*\))?$")


class PyrunFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._frames: Frames | None = None
        self._unittest = bool(ctx and ctx.argv and "unittest" in ctx.argv[:3])
        self._skipped = 0
        self._stream = Stream.STDERR

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        self._stream = stream
        return [Line(t, stream) for t in self._line(text)]

    def _line(self, text: str) -> list[str]:
        if self._frames is not None:
            kept = self._frames.feed(text)
            if kept is not None:
                return kept
            out = self._frames.end()
            self.elided = self.elided or self._frames.dropped > 0
            self._frames = None
            return out + self._line(text)
        if TRACEBACK.match(text):
            self._frames = Frames()
            self.failure_seen = True
            return [text]
        if self._unittest and (dropped := self._unittest_noise(text)):
            return [] if dropped is True else dropped
        if FAILURE_HEAD.match(text):
            self.failure_seen = True
        return [text]

    def _unittest_noise(self, text: str) -> bool | list[str]:
        if not text or DOTS.match(text) or SEPARATOR.match(text):
            return True
        if (m := VERBOSE_RESULT.search(text)) is not None:
            self._skipped += m["result"].startswith("skipped")
            return True
        return False

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._frames.end() if self._frames is not None else []
        if self._skipped:
            out.append(f"unittest: {self._skipped} skipped")
        return [Line(t, self._stream) for t in out]
