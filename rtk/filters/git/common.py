"""What every git output family shares: error recognition, the probe that falls back to raw
output for anything that is not git's English format, and the pass-through filter.

git's errors (`fatal:`, `error:`, `CONFLICT (...)`, ` ! [rejected]`) are always printed verbatim,
together with everything after them: an error message is never shortened.
"""
from __future__ import annotations

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

# How git starts an error line (str.startswith, not `re`: `git status` must not pay its import).
ERROR_STARTS = ("fatal: ", "error: ", "usage: ", "CONFLICT (", "Automatic merge failed", " ! [")
WARNING_START = "warning: "
NOTHING: tuple[Line, ...] = ()


def is_error(text: str) -> bool:
    return text.startswith(ERROR_STARTS)


def has_flag(args: Sequence[str], flags: Iterable[str]) -> bool:
    """True when any arg (before `--`) is one of `flags` or `flag=value` for one of them."""
    wanted = tuple(flags)
    for arg in args:
        if arg == "--":
            return False
        if arg in wanted or any(arg.startswith(f + "=") for f in wanted if f.startswith("--")):
            return True
    return False


class PassFilter(BaseFilter):
    """Output that is already compact (or not ours to judge): every line as git printed it."""

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if not self.failure_seen and is_error(strip_ansi(line)):
            self.failure_seen = True
        return (Line(line, stream),)


class GitFilter(BaseFilter):
    """A family filter: `parse` gets git's English lines (ANSI stripped, trailing space kept) once the first line was
    recognised by `starts`; unrecognised output, and everything from an error on, goes out raw."""

    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self.mode = "probe"
        self.lines = 0

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        self.lines += 1
        if self.mode == "raw":
            return (Line(line, stream),)
        text = strip_ansi(line)
        if is_error(text):
            self.failure_seen = True
            self.mode = "raw"
            return [*self.flush(), Line(line, stream)]
        if text.startswith(WARNING_START):
            return (Line(line, stream),)
        if self.mode == "probe":
            if not text.strip():
                return NOTHING
            if not self.starts(text.rstrip()):
                self.mode = "raw"
                return (Line(line, stream),)
            self.mode = "parse"
        return self.parse(text, line, stream)

    def finish(self, exit_code: int) -> Iterable[Line]:
        return self.flush() if self.mode == "parse" else NOTHING

    def progress(self) -> dict[str, int]:
        return {"lines": self.lines}

    def starts(self, text: str) -> bool:
        raise NotImplementedError

    def parse(self, text: str, line: str, stream: Stream) -> Iterable[Line]:
        raise NotImplementedError

    def flush(self) -> list[Line]:
        """Whatever is held back, printed now (end of output, or an error follows)."""
        return []


def out(*texts: str) -> list[Line]:
    return [Line(t, Stream.STDOUT) for t in texts]
