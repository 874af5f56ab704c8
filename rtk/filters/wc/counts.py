"""Reading a wc line (`  12  40 310 path`) with str methods rather than a regex: `re` costs more
to import than `wc` takes to run. Held equal to COUNTS_PATTERN by tests/filters/test_str_readers.py
(hypothesis); a line holding a newline (which the splitter never gives) takes the regex itself."""
from __future__ import annotations

from rtk.filters.base import LazyPattern
from rtk.filters.scan import decimal_end, space_end

COUNTS_PATTERN = r"^\s*(\d+(?:\s+\d+)*)(?:\s(.*))?$"
_COUNTS = LazyPattern(COUNTS_PATTERN)


def split_counts(text: str) -> tuple[str, str | None] | None:
    """(counts, name or None) as the regex's two groups: the counts as many whitespace-separated
    numbers as can be followed by the end or a whitespace, the name what follows that one space."""
    if "\n" in text:
        found = _COUNTS.get().match(text)
        return (found[1], found[2]) if found else None
    start = space_end(text, 0)
    end = decimal_end(text, start)
    if end == start:
        return None
    ends = [end]
    while True:
        gap = space_end(text, end)
        after = decimal_end(text, gap)
        if gap == end or after == gap:
            break
        end = after
        ends.append(end)
    if end < len(text) and not text[end].isspace():  # `12abc`: the last number is the name's start
        ends.pop()
        if not ends:
            return None
        end = ends[-1]
    return text[start:end], (text[end + 1:] if end < len(text) else None)
