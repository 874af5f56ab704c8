"""Numbers as a person reads them in a report: 1.2K tokens, 3.4 s. Shared by every rendering."""
from __future__ import annotations


def human(n: float) -> str:
    """1234 -> 1.2K, 34567 -> 34.6K, 1234567 -> 1.2M; below 1000 as is."""
    sign, n = ("-" if n < 0 else ""), abs(n)
    for limit, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "K")):
        if n >= limit:
            return f"{sign}{n / limit:.1f}{suffix}"
    return f"{sign}{int(n)}"


def count(n: int, noun: str, plural: str = "") -> str:
    """1 run, 2 runs, 1,234 runs: a count as a sentence says it."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def duration(ms: int) -> str:
    if ms < 1000:
        return f"{ms} ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"
