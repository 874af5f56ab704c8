"""A patch's budget chosen by its size: whole while it is one an agent reads, compact once it is not.

Issue 33: a 25 KB, 22-file `git diff` had been folded into "N hunks not shown". A streamed budget
cannot tell a medium diff from the start of a huge one, so the patch filter first runs with the
whole-print budget (diff.WHOLE_BASE changed lines) and holds what it would print. If the patch
ends within that budget, the held lines print: every changed line, one context line around each
change. Once it outgrows it (or holds HOLD_LINES lines), the lines read so far are fed again to a
filter with the compact budget (diff.BUDGET_BASE + scale * sqrt), which streams from then on, so a
300 KB diff prints as little as it did before. git writes a patch at once: holding costs no wait
an agent would notice, and output that is not a patch (an error, another format) is not held.
"""
from __future__ import annotations

from rtk.filters.base import Line, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

    # diff.DiffFilter or log.LogFilter (they build this class: naming them here would be a cycle)
    PatchFilter = Any

HOLD_LINES = 4000  # raw lines held at most (a patch of long context, `-U50`): then compact


class SizedPatch:
    """The Filter protocol around two runs of one patch filter (`make(whole)` builds one)."""

    elided = failure_seen = False  # the inner filter's, copied after each call

    def __init__(self, make: Callable[[bool], PatchFilter]) -> None:
        self._make = make
        self.inner: PatchFilter = make(True)
        self._read: list[tuple[str, Stream]] | None = []  # None: deciding is over, lines stream
        self._held: list[Line] = []

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        lines = self._feed(line, stream)
        self.elided, self.failure_seen = self.inner.elided, self.inner.failure_seen
        return lines

    def _feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if self._read is None:
            return self.inner.feed(line, stream)
        self._read.append((line, stream))
        self._held.extend(self.inner.feed(line, stream))
        if self.inner.mode == "raw":  # not a patch, or an error: nothing to decide
            return self._release()
        if self._outgrown():
            return self._start_over()
        return ()

    def _outgrown(self) -> bool:
        budget = self.inner.diff.budget
        return budget.large or budget.spent or len(self._read or ()) > HOLD_LINES

    def _release(self) -> list[Line]:
        held, self._held, self._read = self._held, [], None
        return held

    def _start_over(self) -> list[Line]:
        """The patch is large: the compact filter reads it from its first line."""
        read, self._read, self._held = self._read or [], None, []
        self.inner = self._make(False)
        return [kept for line, stream in read for kept in self.inner.feed(line, stream)]

    def finish(self, exit_code: int) -> Iterable[Line]:
        held = self._release() if self._read is not None else []
        lines = [*held, *self.inner.finish(exit_code)]
        self.elided, self.failure_seen = self.inner.elided, self.inner.failure_seen
        return lines

    def progress(self) -> Mapping[str, int]:
        return self.inner.progress()
