"""mypy's output, plain or `pretty`, read line by line into per-file groups."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.mypy import lines as ml
from rtk.filters.mypy.report import Report

_NOTHING: tuple[Line, ...] = ()


class MypyFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._report = Report()
        self._joining = False  # the last message may go on on the next line (`pretty` wraps)
        self._stream = Stream.STDOUT

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        raw = strip_ansi(line).rstrip()
        text = raw.strip()
        if (head := ml.HEADER.match(raw)) is not None:
            return self._header(head, stream)
        if (context := ml.FILE_NOTE.match(raw)) is not None and context["msg"].startswith(ml.CONTEXT):
            self._joining = False
            item = ml.Diagnostic(context["path"], 0, None, "context", context["msg"])
            return [Line(t, stream) for t in self._report.add(item)]
        if ml.SUMMARY.match(raw):
            self._joining = False
            self.failure_seen = self.failure_seen or raw.startswith("Found")
            return self._flush() + [Line(raw, stream)]
        last = self._report.last
        if last is not None and ml.SOURCE.match(raw):
            self._joining = False  # `pretty`'s source line and caret
            self.elided = True
            return _NOTHING
        if last is not None and self._joining and text:
            self._continue(last, text)
            return _NOTHING
        if not text:
            self._joining = False
            return _NOTHING
        return self._flush() + [Line(raw, stream)]

    def _header(self, head: re.Match[str], stream: Stream) -> list[Line]:
        self._stream = stream
        last = self._report.last
        message = head["msg"].rstrip()
        if head["kind"] == "note" and last is not None and last.path == head["path"]:
            last.notes.append(message)
            self._joining = False
            return []
        col = int(head["col"]) if head["col"] else None
        diag = ml.Diagnostic(head["path"], int(head["line"]), col, head["kind"], message)
        self._joining = ml.CODE.search(message) is None
        if diag.kind == "error":
            self.failure_seen = True
        return [Line(t, stream) for t in self._report.add(diag)]

    def _continue(self, last: ml.Diagnostic, text: str) -> None:
        if last.notes:
            last.notes[-1] += " " + text
        else:
            last.message += " " + text
            self._joining = ml.CODE.search(last.message) is None

    def _flush(self) -> list[Line]:
        return [Line(t, self._stream) for t in self._report.flush()]

    def progress(self) -> Mapping[str, int]:
        return {"errors": self._report.errors}

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._flush()
        if self._report.dropped_notes:
            self.elided = True
        if summary := self._report.summary():
            out.append(Line(summary, self._stream))
        return out
