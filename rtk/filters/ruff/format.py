"""`ruff format`: the files that would change (or changed), ruff's count line, syntax errors.

`--check` prints a diff-like code frame per file: reduced to the file's name (kept for recall).
`--diff` asks to read the changes: its unified diffs print as ruff wrote them (the `+++` line that
repeats the `---` name and the blank lines between files dropped) while DIFF_BUDGET lines last,
which only a reformat of a whole large code base passes; past it, each further file is one line
with its `+added -removed` counts (content elided: recall).
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, plural, strip_ansi
from rtk.filters.ruff import lines as rl

DIFF_OLD = re.compile(r"^--- (?P<path>\S.*?)(?:\t.*)?$")
DIFF_NEW = re.compile(r"^\+\+\+ (?P<path>\S.*?)(?:\t.*)?$")
WOULD_REFORMAT = re.compile(r"^Would reformat: (?P<path>.+)$")
DIFF_BODY = ("+", "-", " ", "@", "\\")
UNFORMATTED = "unformatted: File would be reformatted"
COUNT_LINE = re.compile(r"^(?:\d[\d,]* files? (?:would be reformatted|reformatted|left unchanged|already formatted)"
                        r"|Would fix \d)")
_NOTHING: tuple[Line, ...] = ()
DIFF_BUDGET = 1500  # diff lines printed whole (~60 KB): a whole code base's reformat folds past it


class FormatFilter(BaseFilter):
    """Also serves `ruff check --diff` (`heading` "would fix:"), whose output is the same diffs."""

    def __init__(self, ctx: FilterContext | None = None, heading: str = "would reformat:") -> None:
        super().__init__(ctx)
        self._heading = heading
        self._diff_path: str | None = None
        self._added = self._removed = 0
        self._error: rl.Finding | None = None
        self._pending_header: str | None = None
        self._in_frame = False
        self._files = 0
        self._counted = False  # ruff printed its own `N files would be reformatted`
        self._stream = Stream.STDOUT
        self._budget = self.ctx.limit("ruff_diff_budget", DIFF_BUDGET) if self.ctx.recall_enabled else 1 << 60
        self._diff_shown = False  # the open diff's lines print (it started within the budget)
        self._headed: set[str] = set()  # the headings already printed

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        raw = strip_ansi(line).rstrip("\r\n")
        text = raw.rstrip()
        if self._diff_path is not None and raw[:1] in DIFF_BODY and not raw.startswith(("--- ", "+++ ")):
            return self._diff_line(raw, stream)
        if self._pending_header is not None:
            return self._after_header(text, stream)
        if self._in_frame:
            # a code frame (with `----` between hunks) runs to the next blank line
            if text:
                return _NOTHING
            self._in_frame = False
            return self._close_error(stream)
        return self._line(text, stream)

    def _line(self, text: str, stream: Stream) -> list[Line]:
        if (new := DIFF_NEW.match(text)) is not None and self._diff_path is not None:
            same = new["path"] == self._diff_path
            return [] if same or not self._diff_shown else [Line(text, stream)]
        out = self._close_diff(stream)
        if not text:
            return out
        if (m := DIFF_OLD.match(text)) is not None:
            return out + self._open_diff(m["path"], text, stream)
        if (path := self._changed_path(text)) is not None:
            return out + self._file(path, stream)
        if text == UNFORMATTED or text.startswith(("invalid-syntax", "error")) and ":" in text:
            self._pending_header = text
            return out
        if COUNT_LINE.match(text):
            self.failure_seen = self.failure_seen or "would be" in text
            self._counted = True
        return out + [Line(text, stream)]

    def _changed_path(self, text: str) -> str | None:
        if (m := WOULD_REFORMAT.match(text)) is not None:
            return m["path"]
        if (f := rl.concise(text)) is not None and f.code == "unformatted":
            return f.path
        return None

    def _after_header(self, text: str, stream: Stream) -> list[Line]:
        header, self._pending_header = self._pending_header, None
        assert header is not None
        arrow = rl.ARROW.match(text)
        if arrow is None:
            out = [Line(header, stream)]
            out.extend(self._line(text, stream))
            return out
        self._in_frame = True
        self.elided = True
        if header == UNFORMATTED:
            return self._file(arrow["path"], stream)
        code, _, msg = header.partition(": ")
        self._error = rl.Finding(arrow["path"], int(arrow["line"]), int(arrow["col"]), code, msg)
        return []

    def _file(self, path: str, stream: Stream) -> list[Line]:
        return self._listed(path, stream)

    def _listed(self, entry: str, stream: Stream, heading: str | None = None) -> list[Line]:
        self._files += 1
        self._stream = stream
        self.failure_seen = True
        heading = heading or self._heading
        head = [] if heading in self._headed else [Line(heading, stream)]
        self._headed.add(heading)
        return head + [Line(f"  {entry}", stream)]

    def _close_error(self, stream: Stream) -> list[Line]:
        err, self._error = self._error, None
        if err is None:
            return []
        self.failure_seen = True
        return [Line(f"{err.path}:{err.line}:{err.col}: {err.code}: {err.message}", stream)]

    def _open_diff(self, path: str, text: str, stream: Stream) -> list[Line]:
        """A file's diff starts: its `---` line prints while the budget lasts."""
        self._diff_path = path
        self._diff_shown = self._budget > 0
        if not self._diff_shown:
            return []
        self._files += 1
        self._stream = stream
        self.failure_seen = True
        return [Line(text, stream)]

    def _diff_line(self, text: str, stream: Stream) -> Iterable[Line]:
        if text.startswith("+"):
            self._added += 1
        elif text.startswith("-"):
            self._removed += 1
        if not self._diff_shown:
            return _NOTHING
        self._budget -= 1
        return [Line(text, stream)]

    def _close_diff(self, stream: Stream) -> list[Line]:
        path, self._diff_path = self._diff_path, None
        if path is None:
            return []
        added, removed = self._added, self._removed
        self._added = self._removed = 0
        if self._diff_shown:
            return []
        self.elided = True
        heading = "diffs not shown:" if self._heading == "would reformat:" else "fixes not shown:"
        return self._listed(f"{path} (+{added} -{removed})", stream, heading)

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._close_diff(self._stream) + self._close_error(self._stream)
        if self._pending_header is not None:
            out.append(Line(self._pending_header, self._stream))
        if self._files and not self._counted:
            verb = "fix" if self._heading == "would fix:" else "reformat"
            out.append(Line(f"ruff: {plural(self._files, 'file')} to {verb}", self._stream))
        return out
