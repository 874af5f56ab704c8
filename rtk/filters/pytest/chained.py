"""Chained exceptions (`raise ... from`, an error while handling another): each earlier
exception's traceback cut to its first frame and the frame that raised it.

pytest prints every exception of a chain with its whole traceback, separated by `The above
exception was the direct cause of the following exception:` or `During handling of the above
exception, another exception occurred:`. The last one is the failure and stays as it is; of an
earlier one, its error lines stay with the frame where it entered the traceback (the test or
the project's code calling in) and the frame that raised it; the frames between are counted
(`... 9 more traceback lines`).
"""
from __future__ import annotations

import re

from rtk.filters.base import elision_marker
from rtk.filters.pytest import patterns as p

MARKER_RE = re.compile(r"^\.\.\. ([\d,]+) more traceback lines$")
HEAD = 2  # lines of the first frame: `> source` and its place (long style), or the other way round
MIN_CUT = 4  # fewer lines between stay: the marker would cost about what it saves


def condense_chained(lines: list[str]) -> tuple[list[str], bool]:
    cuts = [i for i, text in enumerate(lines) if text in p.CHAIN_LINES]
    if not cuts:
        return lines, False
    out: list[str] = []
    start, cut = 0, False
    for end in cuts:
        section, condensed = _condense(lines[start:end])
        out.extend(section)
        out.append(lines[end])
        start, cut = end + 1, cut or condensed
    out.extend(lines[start:])
    return out, cut


def _raised_at_after(lines: list[str]) -> bool:
    """Long style: the raising frame's place (`path:12: ValueError`) follows its error lines."""
    for text in lines:
        m = p.LOCATION_RE.match(text) if text[:2] != "E " else None
        if m is not None:
            return bool(m.group(3)) and not m.group(3).startswith("in ")
    return False


def _condense(section: list[str]) -> tuple[list[str], bool]:
    first_error = next((i for i, text in enumerate(section) if text[:2] == "E " or text == "E"), -1)
    if first_error < 0:
        return section, False
    frames, rest = section[:first_error], section[first_error:]
    tail = 1 if _raised_at_after(rest) else 2
    if len(frames) - HEAD - tail < MIN_CUT:
        return section, False
    between = frames[HEAD:len(frames) - tail]
    count = sum(int(m.group(1).replace(",", "")) if (m := MARKER_RE.match(text)) else 1 for text in between)
    return [*frames[:HEAD], elision_marker(count, "traceback lines"), *frames[-tail:], *rest], True
