"""One `ls -l` line parsed into the parts the filter keeps.

`-rw-r--r-- 1 root root 6131 Jan  1  1970 __init__.py` (optionally preceded by `-i` inode and
`-s` block numbers; `-g`/`-o`/`-G` drop owner or group; `-h` sizes like `4.0K`; device files show
`major, minor`; dates as `Mon DD HH:MM`, `Mon DD  YYYY`, or the iso time styles).
"""
from __future__ import annotations

import re

LONG_RE = re.compile(
    r"^(?:\s*\d+\s+)?(?:\s*[\d.,]+[KMGTPEZY]?\s+)?"             # -i inode, -s blocks
    r"(?P<mode>[-dlcbpsDw?][-rwxsStTl?]{9})[.+@]?\s+\d+\s+"
    r"(?P<owners>(?:\S+\s+){0,2}?)"
    r"(?P<size>\d+,\s*\d+|[\d.,]+[KMGTPEZYkB]?i?)\s+"
    r"(?P<date>[A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d{1,2}:\d{2}|\d{4})"
    r"|\d{1,2}\s+[A-Z][a-z]{2}\s+(?:\d{1,2}:\d{2}|\d{4})"
    r"|\d{4}-\d{2}-\d{2}(?:\s+\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s+[-+]\d{4})?)?"
    r"|\d{2}-\d{2}\s+\d{2}:\d{2})\s"
    r"(?P<name>.*)$"
)


class Entry:
    """An entry of a long listing: its kind (`d`, `l`, `-`, ...), name, size, date, link target."""

    __slots__ = ("date", "executable", "kind", "name", "size", "target")

    def __init__(self, mode: str, name: str, size: str, date: str) -> None:
        self.kind = mode[0]
        self.executable = self.kind == "-" and "x" in mode[1:]
        self.name, _, self.target = name.partition(" -> ") if self.kind == "l" else (name, "", "")
        self.size = size
        self.date = " ".join(date.split())

    def render(self) -> str:
        """`name/` for a directory, `name -> target`, `name* 6131` (executable), `name 6131`."""
        if self.kind == "d":
            return f"{self.name}/"
        if self.kind == "l":
            return f"{self.name} -> {self.target}"
        mark = "*" if self.executable and not self.name.endswith("*") else ""
        kind = "" if self.kind == "-" else f" ({self.kind})"
        return f"{self.name}{mark} {self.size}{kind}"


def parse_long(text: str) -> Entry | None:
    match = LONG_RE.match(text)
    if match is None:
        return None
    return Entry(match["mode"], match["name"], match["size"].replace(" ", ""), match["date"])
