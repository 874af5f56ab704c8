"""prettier --check / --list-different / --write.

Kept: every file that needs formatting (`[warn] src/a.ts` -> `src/a.ts`), every `[error]` message
with its location (a syntax error's code frame lines are dropped), files `--write` changed, and
one summary line: `prettier: 6 files need formatting (prettier --write fixes them)`,
`prettier: All matched files use Prettier code style!`, `prettier: 3 files written, 40 unchanged`.
Dropped (noise): `Checking formatting...`, the `[warn]`/`[error]` prefixes, code frames,
`(unchanged)` lines of --write. Anything else passes through.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, plural, strip_ansi

CHECKING = re.compile(r"^Checking formatting\.\.\.\s*$")
ALL_GOOD = re.compile(r"^All matched files use Prettier code style!\s*$")
ISSUES = re.compile(r"^\[warn\] Code style issues (?:found in (?:the above file|(?P<n>\d+) files))")
WARN_FILE = re.compile(r"^\[warn\] (?P<file>\S.*)$")
ERROR_FRAME = re.compile(r"^\[error\]\s+(?:>?\s*\d+ \||\s*\|)")
ERROR = re.compile(r"^\[error\] (?P<text>.*)$")
WRITTEN = re.compile(r"^(?P<file>\S.*?) (?P<ms>\d+)ms(?P<unchanged> \(unchanged\))?\s*$")
ERROR_TRAILER = re.compile(r"^Error occurred when checking code style in")
_NOTHING: tuple[Line, ...] = ()


class PrettierFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._unformatted = 0
        self._errors = 0
        self._written = 0
        self._unchanged = 0
        self._verdict = ""

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if not text or CHECKING.match(text):
            return _NOTHING
        if ALL_GOOD.match(text):
            self._verdict = text
            return _NOTHING
        if ISSUES.match(text) or ERROR_TRAILER.match(text):
            self.failure_seen = True
            return _NOTHING
        if ERROR_FRAME.match(text):
            return _NOTHING
        if (error := ERROR.match(text)) is not None:
            self._errors += 1
            self.failure_seen = True
            return (Line(f"error: {error['text']}", stream),)
        if (warn := WARN_FILE.match(text)) is not None:
            self._unformatted += 1
            return (Line(warn["file"], stream),)
        if (written := WRITTEN.match(text)) is not None:
            return self._write_line(written, stream)
        return (Line(text, stream),)

    def _write_line(self, written: re.Match[str], stream: Stream) -> Iterable[Line]:
        if written["unchanged"]:
            self._unchanged += 1
            return _NOTHING
        self._written += 1
        return (Line(written["file"], stream),)

    def finish(self, exit_code: int) -> Iterable[Line]:
        parts = []
        if self._unformatted:
            parts.append(f"{self._unformatted:,} files need formatting (prettier --write fixes them)")
        if self._errors:
            parts.append(plural(self._errors, "error"))
        if self._written or self._unchanged:
            parts.append(f"{self._written:,} files written, {self._unchanged:,} unchanged")
        if not parts and self._verdict:
            parts.append(self._verdict)
        return (Line("prettier: " + ", ".join(parts)),) if parts else _NOTHING

    def progress(self) -> Mapping[str, int]:
        return {"files": self._unformatted + self._written}


def create(ctx: FilterContext) -> PrettierFilter:
    return PrettierFilter(ctx)
