"""`go test -race`'s DATA RACE reports, reduced to the frames in the user's code.

A report is a `WARNING: DATA RACE` line between `==================` rulers, then sections:
the two accesses (`Write at 0x... by goroutine 7:`, `Previous read at ...`) and where each
goroutine was created (`Goroutine 7 (running) created at:`), each a stack of two-line frames
(`  pkg.Func()` then `      /path/file.go:12 +0x45`). The accesses keep their frames in the
user's code, standard-library frames (`testing.tRunner`, `_testmain.go`'s `main.main`) counted
on one line; a `created at` stack keeps its first frame in the user's code and counts the rest
(a goroutine the testing package started is its count alone). The rulers and pc offsets go.
"""
from __future__ import annotations

from rtk.filters.go.lines import stdlib_function
from rtk.filters.go.panics import short_place

RULER = "=" * 18
WARNING = "WARNING: DATA RACE"
CREATED = " created at:"


def _library(func: str, place: str) -> bool:
    return stdlib_function(func.strip()) or "/pkg/mod/" in place or place.strip().startswith("_testmain.go")


class RaceReport:
    """Feed every line: None when it is not part of a race report (the caller reads it), else
    the lines to pass on in its place (often none)."""

    def __init__(self) -> None:
        self.active = False
        self.created = False  # the section is a `created at` stack
        self.func: str | None = None  # a frame's function line, waiting for its file line
        self.kept = 0  # user frames kept in the section
        self.folded = 0  # library frames (or later frames of a `created at` stack) in the section
        self.left_out = False  # a frame or a pc offset was: content, the recall hint says so

    def feed(self, text: str) -> list[str] | None:
        if text == RULER:
            out = self._close_section() if self.active else []
            self.active = False
            return out
        if text == WARNING:
            self.active = True
            return [text]
        if not self.active:
            return None
        if text.startswith("  ") and not text.startswith("      ") and self.func is None:
            self.func = text
            return []
        if self.func is not None and text.startswith("      "):
            func, self.func = self.func, None
            return self._frame(func, text)
        out = self._close_section()
        if not text:  # between sections
            return out
        if not text.startswith(" ") and text.endswith(":"):
            self.created = text.endswith(CREATED)
            return [*out, text]
        self.active = False
        return [*out, text]

    def _frame(self, func: str, place: str) -> list[str]:
        keep = not _library(func, place) and not (self.created and self.kept)
        if keep:
            self.kept += 1
            shown = short_place(place)
            self.left_out = self.left_out or shown != place
            return [func, shown]
        self.folded += 1
        self.left_out = True
        return []

    def _close_section(self) -> list[str]:
        """The section's count of frames left out, on one line."""
        out = [self.func] if self.func is not None else []
        folded, kept = self.folded, self.kept
        self.folded, self.kept, self.func = 0, 0, None
        if folded:
            what = "more frames" if self.created and kept else "standard library frames"
            out.append(f"      ... {folded} {what}")
        return out

    def end(self) -> list[str]:
        out = self._close_section() if self.active else []
        self.active = False
        return out
