"""Where a folded lint appeared again: a list of `path:line:col` places, written short.

A lint repeated in one file (a generated table, a `cfg` name used all over a module) would spend
most of its tokens repeating the path. A file with at least GROUP_MIN places gets two lines
instead, its path, then its places as `L<line>:<col>` (the grouped-by-file layout editors and
code hosts use; `L9:21,32` for two places on line 9); a file with fewer keeps `path:line:col`
on the lint's own line. Every place stays, in the order rustc reported it within its file.
"""
from __future__ import annotations

import re

GROUP_MIN = 4
PLACE_RE = re.compile(r"^(.+):(\d+:\d+)$")


def split(places: list[str], indent: str = "  ") -> tuple[list[str], list[str]]:
    """The places written inline (full), and the lines of the per-file groups."""
    by_file: dict[str, list[str]] = {}
    for place in places:
        match = PLACE_RE.match(place)
        if match is not None:
            by_file.setdefault(match.group(1), []).append(match.group(2))
    grouped = {path for path, spots in by_file.items() if len(spots) >= GROUP_MIN}
    inline = [place for place in places if not _in(place, grouped)]
    block: list[str] = []
    for path, spots in by_file.items():
        if path in grouped:
            block += [f"{indent}{path}", f"{indent}  " + " ".join(_merge_columns(spots))]
    return inline, block


def _merge_columns(spots: list[str]) -> list[str]:
    """`L9:21 L9:32 L40:1` as `L9:21,32 L40:1`: places on one line (next to each other in the
    list) share the line number."""
    merged: list[tuple[str, list[str]]] = []
    for spot in spots:
        line, col = spot.split(":")
        if merged and merged[-1][0] == line:
            merged[-1][1].append(col)
        else:
            merged.append((line, [col]))
    return [f"L{line}:{','.join(cols)}" for line, cols in merged]


def _in(place: str, grouped: set[str]) -> bool:
    match = PLACE_RE.match(place)
    return match is not None and match.group(1) in grouped


def lines(head: str, places: list[str], indent: str = "  ") -> list[str]:
    """`head: inline, places` and, under it, the groups of files with many places."""
    inline, block = split(places, indent)
    return [f"{head}: {', '.join(inline)}" if inline else f"{head}:", *block]
