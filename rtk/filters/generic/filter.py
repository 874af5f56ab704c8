"""Fallback for any command: keeps every line, drops only what no reader needs.

Drops trailing white space, repeats of the same line (the first copy is printed at once; when the
run ends one `(xN)` line says how many there were, N counting the first), and runs of blank lines
(one kept). Lines are compared without their ANSI codes; a kept line keeps them, so a person at a
terminal sees the child's colours (the writer removes them everywhere else). Carriage-return
redraws already arrive reduced to their final state (the splitter does that).

A run that goes on and on (`yes`, a log stuck in a loop) prints a `(... still repeating)` line
every REPORT_EVERY copies, with no number: the count is said once, when the run ends (running
totals on lines of their own read as a sum). The output stays a function of the input alone, and
a reader that has seen enough (`rtk yes | head`) gets the writes that let it hang up, so the child
meets its SIGPIPE.

Every marker replaces at least two raw lines, so it never makes output larger. When its collapses
left out ELIDE_MIN_BYTES or more (copies, blank lines), it says `elided`, so the exact output is
kept for `rtk recall` and the hint names it (the hint costs less than what was left out). It is
`lossless` otherwise: every distinct line is on screen, so a failing run needs no raw tail.
"""
from __future__ import annotations

from _operator import eq, methodcaller  # `operator` is a Python module around it: ~0.4 ms to load
from itertools import islice  # (built in)

from rtk.filters.base import BaseFilter, FilterContext, LazyPattern, Line, Stream, strip_ansi

TYPE_CHECKING = False
if TYPE_CHECKING:  # neither `collections` nor `re` on the path of every unknown command
    from collections.abc import Iterable, Mapping

REPORT_EVERY = 10_000
STILL_REPEATING = "(... still repeating)"
ELIDE_MIN_BYTES = 256  # left out by collapses before the run keeps its raw output for recall
# Bytes that need the line path (ANSI codes, redraws, what `str.rstrip()` strips besides space
# and tab): a block without them, without trailing blanks and without two equal neighbours
# prints as it came. Single bytes: each `in` is a memchr.
_LINE_PATH_BYTES = (b"\x1b", b"\r", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\x1f")
_ENDS_BLANK = methodcaller("endswith", (b" ", b"\t"))
_NOTHING: tuple[Line, ...] = ()
_TRAILING = LazyPattern(r"(?:\s|\x1b\[[0-9;?]*[ -/]*[@-~])+$")  # compiled with the first coloured line


class GenericFilter(BaseFilter):
    lossless = True

    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._last: tuple[str, Stream] | None = None
        self._shown = ""  # the run's line as printed (with its colours)
        self._count = 0
        self._reported = 0  # copies when the last "still repeating" line was printed (0: none yet)
        self._lines = 0
        self._saved = 0  # bytes of raw lines the collapses left out, less the markers printed

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        # the hot loop of every unknown command: kept lean (no helper calls for plain lines)
        self._lines += 1
        coloured = "\x1b" in line
        text = (strip_ansi(line) if coloured else line).rstrip()
        last = self._last
        if last is not None and last[0] == text and last[1] == stream:
            self._count += 1
            self._saved += len(line) + 1
            return self._report() if self._count % REPORT_EVERY == 0 else _NOTHING
        out = self._end_run() if self._count >= 2 else []
        self._last, self._count, self._reported = (text, stream), 1, 0
        self._shown = _with_colours(line, text) if coloured else text
        out.append(Line(self._shown, stream))
        return out

    def feed_block(self, body: bytes, stream: Stream) -> bytes | None:
        """Whole lines as raw bytes (each ending in `\n`): the bytes to print when the block has
        nothing to change (the common case: 4-10x faster than line by line), else None and the
        caller feeds its lines one by one. Same result either way."""
        if self._count >= 2 or not body.isascii() or any(b in body for b in _LINE_PATH_BYTES):
            return None
        lines = body.split(b"\n")
        lines.pop()  # after the final newline
        last = self._last
        if last is not None and last[1] == stream and last[0] == lines[0].decode():
            return None
        if any(map(_ENDS_BLANK, lines)) or any(map(eq, lines, islice(lines, 1, None))):
            return None
        self._lines += len(lines)
        text = lines[-1].decode()
        self._last, self._count, self._reported, self._shown = (text, stream), 1, 0, text
        return body

    def _report(self) -> list[Line]:
        assert self._last is not None
        self._reported = self._count
        self._saved -= len(STILL_REPEATING) + 1
        return [Line(STILL_REPEATING, self._last[1])]

    def _end_run(self) -> list[Line]:
        """Close the current run of identical lines: a second copy as is, more as one `(xN)`."""
        last, count = self._last, self._count
        if last is None or count < 2:
            return []
        if not last[0] and not self._reported:
            return []  # a blank run collapses to its first line
        if count == 2:
            self._saved -= len(self._shown) + 1
            return [Line(self._shown, last[1])]
        marker = f"(x{count})"
        self._saved -= len(marker) + 1
        return [Line(marker, last[1])]

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._end_run()
        self._last, self._count, self._reported = None, 0, 0
        self.elided = self._saved >= ELIDE_MIN_BYTES
        return out

    def progress(self) -> Mapping[str, int]:
        return {"lines": self._lines}


def _with_colours(line: str, text: str) -> str:
    """`line` without its trailing white space (and the codes among it), if that reads as `text`."""
    if "\x1b" not in line:
        return text
    shown = _TRAILING.get().sub("", line)
    return shown if strip_ansi(shown) == text else text


def create(ctx: FilterContext) -> GenericFilter:
    return GenericFilter(ctx)
