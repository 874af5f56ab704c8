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
# RUST_BACKTRACE=full: `  22:     0x55843ad2b914 - regex::expand::expand_str::h0ef4c134122bfab6`
FULL_FRAME_RE = re.compile(r"^(\s+\d+:)\s+0x[0-9a-f]+ - (.*)$")
CRATE_HASH_RE = re.compile(r"\[[0-9a-f]{16}\]")
SYMBOL_HASH_RE = re.compile(r"::h[0-9a-f]{16}$")
# the C runtime under every thread: not the user's code either
SYSTEM_SYMBOLS = ("start_thread", "clone3", "__clone", "__libc_start", "_start", "<unknown>")
SYSTEM_PLACE_RE = re.compile(r"\.[cS]:\d+(?::\d+)?$")
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
        """`cargo test: 7847 passed, 2 failed, 1 ignored (10 suites, 2.03s)`: numbers written as
        cargo writes them (no thousands separator), so a count searched for is found."""
        counts = [f"{self.passed} passed", f"{self.failed} failed", f"{self.ignored} ignored"]
        if self.measured:
            counts.append(f"{self.measured} measured")
        if self.filtered:
            counts.append(f"{self.filtered} filtered out")
        suites = self.suites or self.results
        extra = [f"{suites} suite" + ("" if suites == 1 else "s"), f"{self.seconds:.2f}s"]
        if warnings:
            extra.append(f"{warnings} warning" + ("" if warnings == 1 else "s"))
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


def _one_line(frame: list[str]) -> list[str]:
    """`   5: regex::expand::expand_str` over `             at ./src/expand.rs:41:41` as one line
    (a frame with several places, inlined calls, keeps its lines). Under RUST_BACKTRACE=full the
    frame's address and the symbol's hashes go too: they change with every build."""
    head = _plain_symbol(frame[0])
    if len(frame) != 2:
        return [head, *frame[1:]]
    place = FRAME_AT_RE.match(frame[1])
    return [f"{head} at {place.group(1)}"] if place else [head, frame[1]]


def _plain_symbol(line: str) -> str:
    """`  22:     0x55843ad2b914 - regex[0ef4c1341]::expand::expand_str::h0ef4c134122bfab6` ->
    `  22: regex::expand::expand_str`."""
    full = FULL_FRAME_RE.match(line)
    head = f"{full.group(1)} {full.group(2)}" if full else line
    return SYMBOL_HASH_RE.sub("", CRATE_HASH_RE.sub("", head))


def _is_user_frame(frame: list[str]) -> bool:
    symbol = FRAME_RE.match(_plain_symbol(frame[0]))
    name = symbol.group(1) if symbol else ""
    if name.startswith(SYSTEM_SYMBOLS):
        return False
    places = [m.group(1) for m in map(FRAME_AT_RE.match, frame[1:]) if m]
    if places:
        return not any(marker in place for place in places for marker in FOREIGN_PATHS) \
            and not any(SYSTEM_PLACE_RE.search(place) for place in places)
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
