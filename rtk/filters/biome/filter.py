"""biome lint / check / format / ci.

Kept: every diagnostic as `  L12:5 severity rule (fixable): message` under its file (the same
rule and message at several places: one line, `L77:5 L81:5`) (the
first message line biome prints under the header: `×` error, `!` warning, `i` info); a
formatter diagnostic as `  needs formatting`; biome's own totals (`Checked 6 files in 20ms. No
fixes applied.`, `Found 42 errors.`, diagnostics not shown) folded into one summary line.
Dropped: code frames, suggested-fix diffs and the advice paragraphs under a diagnostic (content:
`rtk recall` has them), the closing `lint ━━━ × Some errors were emitted` banner.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi

HEADER = re.compile(r"^(?P<file>\S.*?)(?::(?P<line>\d+):(?P<col>\d+))? (?P<category>[\w/.-]+)"
                    r"(?P<tags>(?:\s+[A-Z]+)*)\s+━+\s*$")
MESSAGE = re.compile(r"^\s+(?P<mark>[×!i✖⚠ℹ])\s+(?P<text>\S.*)$")
BANNER = re.compile(r"^(?:lint|check|format|ci)\s+━+\s*$")
EMITTED = re.compile(r"^\s+× Some errors were emitted while (?:running checks|applying fixes)")
TOTALS = re.compile(r"^(?:Checked \d+ files?|Found \d+ (?:errors?|warnings?|infos?)\.|Fixed \d+ files?|"
                    r"Formatted \d+ files?|Skipped \d+|Diagnostics not shown: \d+\.)")
LIMIT = re.compile(r"^The number of diagnostics exceeds the limit")
SEVERITY = {"×": "error", "✖": "error", "!": "warning", "⚠": "warning", "i": "info", "ℹ": "info"}
_NOTHING: tuple[Line, ...] = ()


class BiomeFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._file = ""
        self._pending: re.Match[str] | None = None  # a header whose message line is still to come
        self._in_diagnostic = False
        self._groups: dict[tuple[str, str, str], list[str]] = {}
        self._stream = Stream.STDOUT
        self._totals: list[str] = []
        self._diagnostics = 0

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if BANNER.match(text) or EMITTED.match(text) or LIMIT.match(text):
            self._in_diagnostic = False
            return _NOTHING
        if (header := HEADER.match(text)) is not None:
            out = self._unmatched_header(stream)
            self._pending, self._in_diagnostic = header, True
            self._diagnostics += 1
            return out
        if TOTALS.match(text):
            self._totals.append(text.rstrip("."))
            self._in_diagnostic = False
            return self._end_file()
        if self._pending is not None and (message := MESSAGE.match(text)) is not None:
            return self._diagnostic(self._pending, SEVERITY[message["mark"]], message["text"], stream)
        if self._in_diagnostic:
            if text.strip():
                self.elided = True
            return _NOTHING
        return (Line(text, stream),) if text.strip() else _NOTHING

    def _diagnostic(self, header: re.Match[str], severity: str, message: str, stream: Stream) -> list[Line]:
        self._pending = None
        out = self._end_file() if header["file"] != self._file else []
        self._file, self._stream = header["file"], stream
        if severity == "error":
            self.failure_seen = True
        category, fixable = header["category"], " (fixable)" if "FIXABLE" in header["tags"] else ""
        if category == "format":
            message, category = "needs formatting", ""
        where = f"{header['file']}:{header['line']}:{header['col']}" if header["line"] else ""
        self._groups.setdefault((severity, category + fixable, message), []).append(where)
        return out

    def _end_file(self) -> list[Line]:
        """The file's diagnostics, one line per (severity, rule, message), each place in biome's own
        `path:line:col` form; the file alone on its line only for diagnostics without a place."""
        if not self._file:
            return []
        placeless = any(not p for places in self._groups.values() for p in places)
        out = [Line(self._file, self._stream)] if placeless else []
        for (severity, rule, message), places in self._groups.items():
            rule_part = f" {rule}" if rule else ""
            where = [p for p in places if p]
            if len(where) <= 1:
                lead = f"{where[0]} " if where else ""
                out.append(Line(f"{lead}{severity}{rule_part}: {message}", self._stream))
            else:
                spots = " ".join(where)
                out.append(Line(f"{severity}{rule_part}: {message} (x{len(where)}): {spots}", self._stream))
        self._file, self._groups = "", {}
        return out

    def _unmatched_header(self, stream: Stream) -> list[Line]:
        header, self._pending = self._pending, None
        return [Line(header.group(0), stream)] if header is not None else []

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = [*self._end_file(), *self._unmatched_header(Stream.STDOUT)]
        if self._totals:
            out.append(Line("biome: " + "; ".join(self._totals)))
        return out

    def progress(self) -> Mapping[str, int]:
        return {"diagnostics": self._diagnostics}


def create(ctx: FilterContext) -> BiomeFilter:
    return BiomeFilter(ctx)
