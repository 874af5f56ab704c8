"""libtest output: the counts of every test binary and doc-test run, and failing tests' blocks.

Each `test result:` line is added to one tally, so several binaries give one summary line. In a
failing test's `---- name stdout ----` block everything is kept but blank lines, the
`RUST_BACKTRACE` hint and backtrace frames outside the user's code (std, core, the test harness,
registry crates), which are replaced by one line saying how many were left out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

RESULT_RE = re.compile(
    r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; "
    r"(\d+) filtered out(?:; finished in ([\d.]+)s)?"
)
FRAME_RE = re.compile(r"^\s+\d+: (.*)$")
FRAME_AT_RE = re.compile(r"^\s+at (.*)$")
FOREIGN_PATHS = ("/rustc/", "/.cargo/registry/", "/.rustup/", "/usr/share/cargo/registry/")
FOREIGN_SYMBOLS = ("std::", "core::", "alloc::", "test::", "__rustc::", "<fn()", "<alloc::",
                   "<core::", "<std::", "<usize as core::", "rust_begin_unwind", "__rust_")
PANIC_RE = re.compile(r"^thread '(.*?)'(?: \(\d+\))? panicked at (.*)$")
BLOCK_NOISE = (
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
    "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
)


@dataclass
class Tally:
    """Counts summed over every `test result:` line."""

    passed: int = 0
    failed: int = 0
    ignored: int = 0
    measured: int = 0
    filtered: int = 0
    seconds: float = 0.0
    suites: int = 0
    results: int = 0

    def add(self, line: str) -> bool:
        match = RESULT_RE.match(line)
        if match is None:
            return False
        _, passed, failed, ignored, measured, filtered, seconds = match.groups()
        self.passed += int(passed)
        self.failed += int(failed)
        self.ignored += int(ignored)
        self.measured += int(measured)
        self.filtered += int(filtered)
        self.seconds += float(seconds or 0)
        self.results += 1
        return True

    def summary(self, warnings: int) -> str:
        counts = [f"{self.passed:,} passed", f"{self.failed:,} failed", f"{self.ignored:,} ignored"]
        if self.measured:
            counts.append(f"{self.measured:,} measured")
        if self.filtered:
            counts.append(f"{self.filtered:,} filtered out")
        suites = self.suites or self.results
        extra = [f"{suites} suite" + ("" if suites == 1 else "s"), f"{self.seconds:.2f}s"]
        if warnings:
            extra.append(f"{warnings:,} warning" + ("" if warnings == 1 else "s"))
        return f"cargo test: {', '.join(counts)} ({', '.join(extra)})"


class Backtrace:
    """Reads `stack backtrace:` frames one at a time and keeps those in the user's code."""

    def __init__(self, keep_all: bool = False) -> None:
        self.frame: list[str] = []
        self.omitted = 0
        self.keep_all = keep_all

    def feed(self, line: str) -> list[str] | None:
        """Lines to print now, or None when `line` is not part of the backtrace (it has ended)."""
        if FRAME_AT_RE.match(line) and self.frame:
            self.frame.append(line)
            return []
        if FRAME_RE.match(line):
            out = self.close_frame()
            self.frame = [line]
            return out
        return None

    def close_frame(self) -> list[str]:
        frame, self.frame = self.frame, []
        if not frame:
            return []
        if self.keep_all:
            return frame
        if _is_user_frame(frame):
            return _one_line(frame)
        self.omitted += 1
        return []

    def end(self) -> list[str]:
        out = self.close_frame()
        if self.omitted:
            out.append(f"   ... {self.omitted} frames in std/core/test omitted")
        return out


def _one_line(frame: list[str]) -> list[str]:
    """`   5: regex::expand::expand_str` over `             at ./src/expand.rs:41:41` as one line
    (a frame with several places, inlined calls, keeps its lines)."""
    if len(frame) != 2:
        return frame
    place = FRAME_AT_RE.match(frame[1])
    return [f"{frame[0]} at {place.group(1)}"] if place else frame


def _is_user_frame(frame: list[str]) -> bool:
    symbol = FRAME_RE.match(frame[0])
    name = symbol.group(1) if symbol else ""
    places = [m.group(1) for m in map(FRAME_AT_RE.match, frame[1:]) if m]
    if places:
        return not any(marker in place for place in places for marker in FOREIGN_PATHS)
    return not name.startswith(FOREIGN_SYMBOLS)


def compact_panic(line: str, test_name: str) -> str:
    """`thread 't' (1234) panicked at f.rs:4:5:` -> `panicked at f.rs:4:5:` inside t's own block.

    The block header already names the test, and the thread id changes on every run.
    """
    match = PANIC_RE.match(line)
    if match is None:
        return line
    thread, place = match.groups()
    if thread in (test_name, "main"):
        return f"panicked at {place}"
    return f"thread '{thread}' panicked at {place}"
