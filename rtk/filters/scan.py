"""Scanning runs of digits and whitespace the way `\\d+` and `\\s+` match them (Unicode decimal
digits, Unicode whitespace), for the readers that parse a layout with str methods: `re` costs
more to import than `ls`, `wc` or a small `grep` take to run, so their line readers do without it,
each held equal to the regex it replaces by a hypothesis test."""
from __future__ import annotations


def decimal_end(text: str, at: int) -> int:
    """The end of the run of decimal digits (what `\\d` matches) starting at `at`."""
    while at < len(text) and text[at].isdecimal():
        at += 1
    return at


def space_end(text: str, at: int) -> int:
    """The end of the run of whitespace (what `\\s` matches) starting at `at`."""
    while at < len(text) and text[at].isspace():
        at += 1
    return at
