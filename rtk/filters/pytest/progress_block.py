"""Blocks of passing progress counted on their raw bytes: the pytest filter's byte path.

A long passing run is mostly `....s  [ 40%]`, `tests/x.py ..x.` or `x.py::t PASSED  [ 9%]` lines
that the line path would only count; one C-level regex match a line is several times faster
than decoding and dispatching each. Anything else in the block (a failure, an error, a section)
makes it None, and the line path takes the whole block.
"""
from __future__ import annotations

import re
from collections import Counter

# Lines of passing progress (`....s  [ 40%]`, `tests/x.py ..x.`, `x.py::t PASSED  [ 9%]`), checked
# on the raw bytes of a whole block, one C-level match a line: the line path would only count them.
DOTS_LINE = re.compile(rb"(?:([.sxX]+)|(\S+) ([.sxX]+)) *(?:\[ *\d+(?:%|/\d+)\])?")  # bare first: no backtracking
# Whole blocks of bare progress lines (-q) or of -v PASSED lines, checked in one match each:
# no per-line work at all.
BARE_BLOCK = re.compile(rb"(?:[.sxX]+ *(?:\[ *\d+(?:%|/\d+)\])?\n)*")
# Each line is checked by a lookahead (never backtracked into) and then taken whole, so a line
# matches one way only: a failing match stays linear however many `::` or ` PASSED` a line holds.
VERBOSE_BLOCK = re.compile(rb"(?:(?=[^ \n]*::[^\n]* PASSED)[^\n]*\n)*")


class Counted:
    """What a block of passing progress adds: dots, other result letters, the last file named."""

    __slots__ = ("dots", "others", "path", "verbose")

    def __init__(self, dots: int, others: Counter[str], path: str, verbose: bool) -> None:
        self.dots, self.others, self.path, self.verbose = dots, others, path, verbose


def passing_progress(body: bytes) -> Counted | None:
    """`body`: whole lines (each ending in a newline), ASCII, no ANSI codes or carriage returns."""
    if BARE_BLOCK.fullmatch(body) is not None:  # the counters hold no `.`, `s`, `x` or `X`
        others = Counter({char: n for char in "sxX" if (n := body.count(char.encode()))})
        return Counted(body.count(b"."), others, "", False)
    if b"::" in body:
        if VERBOSE_BLOCK.fullmatch(body) is None:
            return None
        return Counted(body.count(b"\n"), Counter(), "", True)
    lines = body.split(b"\n")
    lines.pop()  # after the final newline
    found = list(map(DOTS_LINE.fullmatch, lines))
    if not all(found):
        return None
    results = b"".join(m[1] or m[3] for m in found if m)
    others = Counter({char: n for char in "sxX" if (n := results.count(char.encode()))})
    path = next((m[2] for m in reversed(found) if m and m[2]), b"")
    return Counted(results.count(b"."), others, path.decode(), False)
