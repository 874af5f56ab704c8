"""jq's filter: the whole stdout is one JSON body; stderr (jq's errors) passes at once."""
from __future__ import annotations

import os
from collections.abc import Iterable

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream
from rtk.filters.json.body import JsonBody

BUDGET = 4096
RAW_FLAGS = frozenset({"-r", "--raw-output", "-j", "--join-output", "-a", "--ascii-output",
                       "--seq", "--stream", "-n", "--null-input", "-h", "--help", "--version",
                       "--raw-output0", "-e", "--exit-status"}) - {"-e", "--exit-status", "-n", "--null-input"}


class PassFilter(BaseFilter):
    lossless = True


class JqFilter(BaseFilter):
    lossless = True

    def __init__(self, ctx: FilterContext) -> None:
        super().__init__(ctx)
        self.body = JsonBody(ctx.limit("json_max_chars", BUDGET), ctx.limit("output_max_chars", 0) or None)

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if stream == Stream.STDERR:
            self.failure_seen = True
            return (Line(line, stream),)
        return self.body.add(line, stream)

    def finish(self, exit_code: int) -> Iterable[Line]:
        lines, self.elided = self.body.close()
        return lines


def create(ctx: FilterContext) -> BaseFilter:
    prog = os.path.basename(ctx.argv[0]) if ctx.argv else ""
    if prog == "curl":
        from rtk.filters.json.curl import create_curl

        return create_curl(ctx)
    if any(a in RAW_FLAGS or (a.startswith("-") and not a.startswith("--") and "r" in a[1:]) for a in ctx.argv[1:]):
        return PassFilter(ctx)
    return JqFilter(ctx)
