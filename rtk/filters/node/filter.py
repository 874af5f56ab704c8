"""`node script.js`: what the script printed, with the stack frames an agent cannot act on dropped.

Kept: every line the script printed; an uncaught error's source line and caret, its message, its
properties (`code: 'MODULE_NOT_FOUND'`, `requireStack`) and every frame in the user's code.
Dropped (noise): frames inside node itself (`node:internal/...`, `node:events`) and inside
node_modules, the `Node.js v20.20.2` trailer, and repeats of the same line (as the generic filter does). `node --test` output (TAP or
spec reporter) is reduced to its failures and one count line (see testrun.py).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.node.frames import frame_location, is_foreign
from rtk.filters.node.testrun import NodeTestRun

VERSION_TRAILER = re.compile(r"^Node\.js v\d+\.\d+\.\d+\s*$")
ERROR_LINE = re.compile(r"^(?:Uncaught )?(?:[A-Z]\w*(?:Error|Exception)|Error)\b(?: \[\w+\])?:")
_NOTHING: tuple[Line, ...] = ()


class NodeFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._last = ""
        self._repeats = 0
        self._tests = NodeTestRun()

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if (owned := self._tests.feed(text, stream)) is not None:
            return owned
        loc = frame_location(text)
        if loc is not None and is_foreign(loc):
            return _NOTHING
        if VERSION_TRAILER.match(text):
            return _NOTHING
        if ERROR_LINE.match(text):
            self.failure_seen = True
        if text == self._last and text:
            self._repeats += 1
            return _NOTHING
        out = self._repeat_note(stream)
        self._last = text
        out.append(Line(text, stream))
        return out

    def _repeat_note(self, stream: Stream) -> list[Line]:
        repeats, self._repeats = self._repeats, 0
        return [Line(f"(x{repeats + 1})", stream)] if repeats else []

    def finish(self, exit_code: int) -> Iterable[Line]:
        self.failure_seen = self.failure_seen or self._tests.failed
        self.elided = self.elided or self._tests.elided
        return [*self._repeat_note(Stream.STDOUT), *self._tests.summary()]

    def progress(self) -> Mapping[str, int]:
        return {}


def create(ctx: FilterContext) -> NodeFilter:
    return NodeFilter(ctx)
