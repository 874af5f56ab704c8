"""A Python program's output: tracebacks shortened, unittest's progress dropped."""
from __future__ import annotations

import re
from collections.abc import Iterable

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.generic.filter import GenericFilter
from rtk.filters.pyrun.traceback import Frames

TRACEBACK = re.compile(r"^\s*Traceback \(most recent call last\):$")
DOTS = re.compile(r"^[.FEsxu]+$")
VERBOSE_RESULT = re.compile(r" \.\.\. (?P<result>ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$")
SEPARATOR = re.compile(r"^(?:=|-){20,}$")
FAILURE_HEAD = re.compile(r"^(?:FAIL|ERROR|UNEXPECTED SUCCESS): \S")
RAN = re.compile(r"^Ran \d+ tests? in ")
VERDICT = re.compile(r"^(?:OK|FAILED)(?: \(.*\))?$")


def unittest_run(argv: tuple[str, ...]) -> bool:
    """unittest's own runner or one built on it (`manage.py test`, `setup.py test`, runtests.py)."""
    return any(word == "unittest" or word == "test" or word.endswith(("runtests.py", "/tests.py"))
               for word in argv[:4])


class PyrunFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._frames: Frames | None = None
        self._unittest = unittest_run(ctx.argv if ctx else ())
        self._skipped = 0
        self._plain = GenericFilter(ctx)  # the program's own lines: repeats and blank runs collapsed
        self._stream = Stream.STDERR

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        self._stream = stream
        return self._line(line, text, stream)

    def _line(self, line: str, text: str, stream: Stream) -> list[Line]:
        if self._frames is not None:
            kept = self._frames.feed(text)
            if kept is not None:
                return [Line(t, stream) for t in kept]
            out = [Line(t, stream) for t in self._frames.end()]
            self.elided = self.elided or self._frames.dropped > 0
            self._frames = None
            return out + self._line(line, text, stream)
        if TRACEBACK.match(text):
            self._frames = Frames()
            self.failure_seen = True
            return [*self._plain.finish(0), Line(text, stream)]
        if self._unittest and self._unittest_noise(text):
            return []
        if FAILURE_HEAD.match(text):
            self.failure_seen = True
        return list(self._plain.feed(line, stream))

    def _unittest_noise(self, text: str) -> bool:
        if not text or DOTS.match(text) or SEPARATOR.match(text):
            return True
        if (m := VERBOSE_RESULT.search(text)) is not None:
            self._skipped += m["result"].startswith("skipped")
            return True
        return False

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = [*self._plain.finish(exit_code)]
        tail = self._frames.end() if self._frames is not None else []
        if self._skipped:
            tail.append(f"unittest: {self._skipped} skipped")
        return out + [Line(t, self._stream) for t in tail]
