"""`ruff check`: findings in any output format, reduced to one line each under their file."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream
from rtk.filters.ruff import lines as rl
from rtk.filters.ruff.report import Report

SPACES = re.compile(r"\s+")
FRAME_OPEN = re.compile(r"^\s*\|\s*$")  # the line a code frame starts with
SPAN_MARK = re.compile(r"^\s*[/|](?=\s)")  # the start of a multi-line span
_NOTHING: tuple[Line, ...] = ()


class CheckFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._report = Report()
        self._header: tuple[str, str, Stream] | None = None  # full-format `CODE message`
        self._open: rl.Finding | None = None  # finding whose frame is being read
        self._after_help = False
        self._in_frame = False  # the open finding's frame has begun
        self._group_path: str | None = None
        self._stream = Stream.STDOUT

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = rl.clean(line)
        out: list[Line] = []
        if self._open is not None and self._absorb(text):
            return _NOTHING
        if self._header is not None:
            code, msg, hstream = self._header
            self._header = None
            if (arrow := rl.ARROW.match(text)) is not None:
                self._start(rl.Finding(arrow["path"], int(arrow["line"]), int(arrow["col"]), code, msg))
                return self._add(self._open, stream)
            out.append(Line(f"{code} {msg}", hstream))
        out.extend(self._line(text, stream))
        return out

    def _line(self, text: str, stream: Stream) -> list[Line]:
        if not text:
            return []
        if (finding := rl.concise(text)) is not None:
            self._start(finding)
            return self._add(finding, stream)
        if (item := self._grouped(text)) is not None:
            return self._add(item, stream)
        if rl.STATISTIC.match(text):
            self.failure_seen = True
            return [Line(SPACES.sub(" ", text.strip()), stream)]
        if rl.is_summary(text) or text.startswith(("warning:", "error:")):
            self.failure_seen = self.failure_seen or text.startswith(("Found", "error:"))
            return self._flush(stream) + [Line(text, stream)]
        if (group := rl.GROUP_FILE.match(text)) is not None:
            self._group_path = group["path"]
            return []
        if (head := rl.HEADER.match(text)) is not None:
            self._header = (head["code"], head["msg"], stream)
            return []
        return [Line(text, stream)]

    def _grouped(self, text: str) -> rl.Finding | None:
        if self._group_path is None or (m := rl.GROUP_ITEM.match(text)) is None:
            return None
        return rl.Finding(self._group_path, int(m["line"]), int(m["col"]), m["code"], m["msg"])

    def _start(self, finding: rl.Finding) -> None:
        self._open = finding
        self._after_help = False
        self._in_frame = False

    def _absorb(self, text: str) -> bool:
        """Whether the line belongs to the open finding's code frame (kept in it or dropped)."""
        finding = self._open
        assert finding is not None
        if not text:
            self._open = None
            return True
        first, self._in_frame = not self._in_frame, True
        if first and not FRAME_OPEN.match(text) and not rl.HELP.match(text):
            self._open = None  # no frame follows (concise): `- path:` of --show-fixes is not one
            return False
        if (help_line := rl.HELP.match(text)) is not None:
            if help_line["kind"] == "help" and not finding.help:
                finding.help = help_line["text"]
            self._after_help = True
            self.elided = True
            return True
        if rl.is_frame(text):
            source = rl.FRAME_SOURCE.match(text)
            if (source and not self._after_help and not finding.source
                    and int(source["num"]) == finding.line):
                finding.source = SPAN_MARK.sub("", source["text"]).strip()
            self.elided = True
            return True
        self._open = None
        return False

    def _add(self, finding: rl.Finding | None, stream: Stream) -> list[Line]:
        assert finding is not None
        self.failure_seen = True
        self._stream = stream
        return [Line(t, stream) for t in self._report.add(finding)]

    def _flush(self, stream: Stream | None = None) -> list[Line]:
        return [Line(t, stream or self._stream) for t in self._report.flush()]

    def progress(self) -> Mapping[str, int]:
        return {"findings": self._report.total}

    def finish(self, exit_code: int) -> Iterable[Line]:
        out: list[Line] = []
        if self._header is not None:
            code, msg, stream = self._header
            out.append(Line(f"{code} {msg}", stream))
        out.extend(self._flush())
        if summary := self._report.summary():
            out.append(Line(summary, self._stream))
        return out
