"""Fallback for any command: keeps every line, drops only what no reader needs.

Drops ANSI escapes, trailing white space, repeats of the same line (the first copy is printed at
once; when the run ends a `(xN)` line says how many there were, N counting the first), and runs
of blank lines (one kept). Carriage-return redraws already arrive reduced to their final state
(the splitter does that). It never elides content, so it never needs recall, and since every
marker replaces at least two raw lines it never makes output larger.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi

_NOTHING: tuple[Line, ...] = ()


class GenericFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._last: tuple[str, Stream] | None = None
        self._count = 0
        self._lines = 0

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        self._lines += 1
        text = strip_ansi(line).rstrip()
        key = (text, stream)
        if key == self._last:
            self._count += 1
            return _NOTHING
        out = self._end_run()
        self._last, self._count = key, 1
        out.append(Line(text, stream))
        return out

    def _end_run(self) -> list[Line]:
        """Close the current run of identical lines: a second copy as is, more as `(xN)`."""
        last, count = self._last, self._count
        if last is None or count < 2 or not last[0]:
            return []
        if count == 2:
            return [Line(last[0], last[1])]
        return [Line(f"(x{count})", last[1])]

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._end_run()
        self._last, self._count = None, 0
        return out

    def progress(self) -> Mapping[str, int]:
        return {"lines": self._lines}


def create(ctx: FilterContext) -> GenericFilter:
    return GenericFilter(ctx)
