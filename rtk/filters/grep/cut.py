"""Cutting a very long match line (minified code, data files) around the match, at word edges."""
from __future__ import annotations

from rtk.filters.base import LazyPattern

EDGE = LazyPattern(r"[\s,;:(){}\[\]<>]")  # `re` only once a line is long enough to cut


def find_match(text: str, pattern: str | None, ignore_case: bool) -> int:
    """Where the pattern first matches (as a Python regex, else literally), or 0."""
    if not pattern:
        return 0
    import re

    flags = re.IGNORECASE if ignore_case else 0
    try:
        found = re.search(pattern, text, flags)
    except re.error:
        found = None
    if found is not None:
        return found.start()
    pos = (text.lower() if ignore_case else text).find(pattern.lower() if ignore_case else pattern)
    return max(pos, 0)


def cut_line(text: str, cap: int, at: int) -> str:
    """`text` when short; else about `cap` characters around `at`, cut at word edges, with counts."""
    if len(text) <= cap:
        return text
    start = _edge_before(text, max(0, at - cap // 4))
    end = _edge_before(text, min(len(text), start + cap), floor=start + cap // 2)
    before = f"[{start:,} chars] " if start else ""
    after = f" [+{len(text) - end:,} chars]" if end < len(text) else ""
    return before + text[start:end] + after


def _edge_before(text: str, pos: int, floor: int = 0) -> int:
    """The nearest word edge at or before `pos` (not below `floor`), else `pos` itself."""
    if pos <= 0 or pos >= len(text):
        return max(pos, 0)
    window = text[floor:pos]
    edges = [m.end() for m in EDGE.get().finditer(window)]
    return floor + edges[-1] if edges else pos
