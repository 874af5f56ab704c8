"""A goroutine trace reduced to the frames in the user's code.

A frame is two lines: the function (`pkg.Func(args)`) and its file (`\t/path/file.go:12 +0x45`).
Frames of the standard library (runtime, testing, ...) are counted, not printed: the panic
message above the trace already says what happened, the user's frames say where.
"""
from __future__ import annotations

from rtk.filters.go.lines import FRAME_FILE, stdlib_function


class Trace:
    def __init__(self) -> None:
        self.func: str | None = None
        self.dropped = 0

    def feed(self, text: str) -> list[str] | None:
        """Lines to print for a trace line, or None when the line is not part of a trace."""
        if FRAME_FILE.match(text) and self.func is not None:
            func, self.func = self.func, None
            if stdlib_function(func):
                self.dropped += 1
                return []
            return [func, text]
        if self.func is not None:
            return None
        if "(" in text and not text.startswith(("\t", " ")) or text.startswith("created by "):
            self.func = text
            return []
        return None

    def end(self) -> list[str]:
        """Close the trace: a pending line, the count of library frames dropped."""
        out = [self.func] if self.func else []
        self.func = None
        if self.dropped:
            out.append(f"\t... {self.dropped} standard library frames")
        self.dropped = 0
        return out
