"""Blocks of passing progress counted on their raw bytes: the pytest filter's byte path.

A long passing run is mostly `....s  [ 40%]`, `tests/x.py ..x.` or `x.py::t PASSED  [ 9%]` lines
that the line path would only count; one C-level regex match a line is several times faster
than decoding and dispatching each. Anything else in the block (a failure, an error, a section)
makes it None, and the line path takes the whole block.
"""
from __future__ import annotations

import re
from collections import Counter

from rtk.filters.pytest.patterns import VERBOSE_WORD_RE

# A line of default progress (`....s  [ 40%]`, `tests/x.py ..x.`), as the line path reads one
# (patterns.py `progress_of`): bare results first, else a path, a space and results.
DOTS_LINE_AS_WRITTEN = rb"(?:([.sxX]+)|(\S+) ([.sxX]+)) *(?:\[ *\d+(?:%|/\d+)\])?"
_RESULTS = rb"(?=[.sxX])\.*+(?:[sxX]\.*+)*+"  # [.sxX]+ as runs of dots (a one-character loop in C)
_COUNTER = rb" *+(?:\[ *+\d++(?:%|/\d++)\])?+"
# Every such line of a block in one findall: the path of each (b"" for bare results: the lazy
# `??` tries them first). A line that is not one is not found, so the block is all progress
# when each of its lines was found.
DOTS_LINES = re.compile(rb"^(?:(\S++) )??" + _RESULTS + _COUNTER + rb"$", re.MULTILINE)
# A whole block of bare progress lines (-q), checked in one match: no per-line work at all.
# It is BARE_BLOCK_AS_WRITTEN, made fast: possessive throughout (each step's characters differ
# from the next's, so nothing is given up), and the results as runs of dots (a one-character
# loop in C) between letters rather than a class tested per character: ~3x in all.
BARE_BLOCK_AS_WRITTEN = rb"(?:[.sxX]+ *(?:\[ *\d+(?:%|/\d+)\])?\n)*"
BARE_BLOCK = re.compile(rb"(?:" + _RESULTS + _COUNTER + rb"\n)*+")
_LETTERS = tuple((char, char.encode()) for char in "sxX")
# -v: a run of `path::id[params] PASSED ...` lines, every step possessive (~2x the lookahead's
# speed). Stricter than the line path (an id with a space outside one `[...]` stops the run);
# VERBOSE_LINE then takes what the line path would count as passed: a lookahead (never
# backtracked into), then the whole line, so a line matches one way only and a failing match
# stays linear however many `::` or ` PASSED` it holds.
VERBOSE_RUN = re.compile(rb"(?:[^ \n:]++::[^ \n\[]*+(?:\[[^\n\]]*+\])?+ PASSED[^\n]*+\n)*+")
VERBOSE_LINE = re.compile(rb"(?=[^ \n]*::[^\n]* PASSED)[^\n]*\n")
# the result words a -v line may end in that the line path only counts (FAILED and ERROR name
# their test for the FAILURES blocks: the line path takes those)
COUNTED_WORDS = {"SKIPPED": "s", "XFAIL": "x", "XPASS": "X"}


class Counted:
    """What a block of passing progress adds: dots, other result letters, the last file named."""

    __slots__ = ("dots", "others", "path", "verbose")

    def __init__(self, dots: int, others: Counter[str], path: str, verbose: bool) -> None:
        self.dots, self.others, self.path, self.verbose = dots, others, path, verbose


def passing_progress(body: bytes) -> Counted | None:
    """`body`: whole lines (each ending in a newline), ASCII, no ANSI codes or carriage returns."""
    if BARE_BLOCK.fullmatch(body) is not None:  # the counters hold no `.`, `s`, `x` or `X`
        # (`in` is a memchr; a count walks every byte: only the letters present are counted)
        others = Counter({char: body.count(letter) for char, letter in _LETTERS if letter in body})
        return Counted(body.count(b"."), others, "", False)
    if b"::" in body:
        return _verbose_progress(body)
    return _default_progress(body)


def _default_progress(body: bytes) -> Counted | None:
    """A block of default progress lines: the results are every `.sxX` of the block but those
    in its paths (the counters hold none), so nothing is taken out line by line (~2x faster)."""
    paths = DOTS_LINES.findall(body)
    if len(paths) != body.count(b"\n"):
        return None
    in_paths = b"".join(paths)
    others = Counter({char: n for char, letter in _LETTERS
                      if letter in body and (n := body.count(letter) - in_paths.count(letter))})
    path = next((found for found in reversed(paths) if found), b"")
    return Counted(body.count(b".") - in_paths.count(b"."), others, path.decode(), False)


def _verbose_progress(body: bytes) -> Counted | None:
    """A block of -v result lines: runs of PASSED lines in one match each, and between them the
    few other lines read as the line path reads them (counts.py `_verbose`): a PASSED id with
    spaces, a SKIPPED, XFAIL or XPASS. One skipped test no longer sends its whole block down the
    line path (8x slower there)."""
    dots, others, at, size = 0, Counter[str](), 0, len(body)
    run, passed = VERBOSE_RUN.match, VERBOSE_LINE.match
    while True:
        found = run(body, at)  # (always a match, maybe of no line)
        end = found.end() if found is not None else at
        dots += body.count(b"\n", at, end)
        if end == size:
            return Counted(dots, others, "", True)
        at = body.index(b"\n", end) + 1
        if passed(body, end) is not None:
            dots += 1
            continue
        char = _counted_word(body[end:at - 1].decode("ascii"))
        if char is None:
            return None
        others[char] += 1


def _counted_word(line: str) -> str | None:
    """The result character of a -v line the line path would only count (not PASSED: those are
    VERBOSE_LINE's), else None."""
    colons = line.find("::")
    if colons < 0 or line.find(" ", 0, colons) >= 0:
        return None
    found = VERBOSE_WORD_RE.search(line, colons)
    return COUNTED_WORDS.get(found.group(1)) if found is not None else None
