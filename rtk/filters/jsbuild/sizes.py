"""The size tables JS bundlers print, read row by row and reported as a total and the largest.

vite (`dist/assets/index.js  222.04 kB │ gzip: 69.19 kB`), tsup (`ESM dist/index.mjs 2.07 KB`),
webpack (`asset main.js 6.42 KiB [emitted] ...`), unbuild (`dist/index.cjs (total size: 15 kB,
...)` and its `└─ chunk (13.7 kB)` lines). An agent needs to know the build produced output and
what dominates it, not every chunk's line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

UNITS = {"b": 1, "bytes": 1, "kb": 1000, "kib": 1024, "mb": 1000**2, "mib": 1024**2, "gb": 1000**3,
         "gib": 1024**3}
SIZE = r"(?P<size>[\d.,]+) ?(?P<unit>[kKMG]i?B|B|bytes)"
ROWS = (
    re.compile(r"^(?P<file>[\w.@/\\-]+\.\w+)\s+" + SIZE + r"(?:\s+│\s*gzip:\s*(?P<gzip>[\d.]+ ?\w+))?(?:\s+│.*)?\s*$"),
    re.compile(r"^(?P<format>ESM|CJS|IIFE|DTS|UMD) (?P<file>\S+)\s+" + SIZE + r"\s*$"),
    re.compile(r"^asset (?P<file>\S+) " + SIZE + r" .*$"),
    re.compile(r"^\s+(?P<file>\S+) \(total size: " + SIZE + r"(?:, chunk size: [^,)]+)?(?:, exports: .*)?\)\s*$"),
)
# next build: `┌ ○ /about   5.65 kB   108 kB` (route, page size, first load JS)
NEXT_ROUTE = re.compile(r"^[┌├└│]\s+[○●ƒλ◐]\s+(?P<route>/\S*)\s+(?P<size>[\d.]+ ?[kKMG]?B)\s+(?P<first>[\d.]+ ?[kKMG]?B)\s*$")
NEXT_TABLE_NOISE = re.compile(r"^Route \((?:app|pages)\)\s+Size\s+First Load JS|^\s+[├└]\s+(?:chunks/\S+|other shared "
                              r"chunks \(total\)|css/\S+)\s+[\d.]+ ?[kKM]?B\s*$")
UNBUILD_CHUNK = re.compile(r"^\s+└─ (?P<file>\S+) \(" + SIZE + r"\)\s*$")
SIZE_TEXT = re.compile(r"([\d.,]+) ?([kKMG]?i?B|bytes)")
TOP = 3


@dataclass(frozen=True)
class Entry:
    file: str
    size: str
    bytes: float
    gzip: str = ""


class SizeTable:
    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.unit = ""
        self.own_total = False  # the tool printed its own total (unbuild's `Σ Total dist size`)
        self.routes: list[Entry] = []  # next build's routes: first load JS, page size in `gzip`

    def feed(self, text: str) -> bool:
        """Whether `text` is a size row (consumed)."""
        if (route := NEXT_ROUTE.match(text)) is not None:
            first = route["first"]
            self.routes.append(Entry(route["route"], first, _bytes(first), route["size"]))
            return True
        if NEXT_TABLE_NOISE.match(text):
            return True
        if UNBUILD_CHUNK.match(text):
            return True  # a shared chunk, already counted in its entry's total size
        for pattern in ROWS:
            match = pattern.match(text)
            if match is not None:
                self._add(match)
                return True
        return False

    def _add(self, match: re.Match[str]) -> None:
        unit = match["unit"]
        amount = float(match["size"].replace(",", ""))
        gzip = match["gzip"] if "gzip" in match.re.groupindex else None
        self.unit = self.unit or unit
        self.entries.append(Entry(match["file"], f"{match['size']} {unit}",
                                  amount * UNITS.get(unit.lower(), 1), gzip or ""))

    def route_report(self) -> tuple[str, bool]:
        """next build's route table in one line: the routes with the largest first load JS."""
        if not self.routes:
            return "", False
        largest = sorted(self.routes, key=lambda e: -e.bytes)[:TOP + 2]
        shown = ", ".join(f"{e.file} {e.size} (page {e.gzip})" for e in largest)
        rest = len(self.routes) - len(largest)
        more = f" (+{rest} smaller)" if rest > 0 else ""
        return f"routes: {len(self.routes):,}; largest first load JS: {shown}{more}", rest > 0

    def report(self) -> tuple[str, bool]:
        """One line: count, total and the largest entries; and whether entries were left out."""
        if not self.entries:
            return "", False
        total = sum(e.bytes for e in self.entries)
        cut = len(self.entries) > TOP + 1
        largest = sorted(self.entries, key=lambda e: -e.bytes)[:TOP if cut else TOP + 1]
        shown = ", ".join(_entry(e, gzip=i == 0) for i, e in enumerate(largest))
        label = "largest" if cut else "files"
        summed = "" if self.own_total else f", {_human(total, self.unit)} total"
        line = f"output: {len(self.entries):,} files{summed}; {label}: {shown}"
        return line, cut


def _bytes(size: str) -> float:
    match = SIZE_TEXT.match(size.strip())
    return float(match[1].replace(",", "")) * UNITS.get(match[2].lower(), 1) if match else 0.0


def _entry(entry: Entry, gzip: bool) -> str:
    return f"{entry.file} {entry.size}" + (f" (gzip {entry.gzip})" if gzip and entry.gzip else "")


def _human(amount: float, unit: str) -> str:
    binary = "i" in unit
    base = 1024 if binary else 1000
    for name in ("B", "KiB" if binary else "kB", "MiB" if binary else "MB"):
        if amount < base or name.startswith("M"):
            return f"{amount:.0f} B" if name == "B" else f"{amount:.2f} {name}"
        amount /= base
    return f"{amount:.2f} GB"
