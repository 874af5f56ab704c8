"""One `ls -l` line parsed into the parts the filter keeps.

`-rw-r--r-- 1 root root 6131 Jan  1  1970 __init__.py` (optionally preceded by `-i` inode and
`-s` block numbers; `-g`/`-o`/`-G` drop owner or group; `-h` sizes like `4.0K`; device files show
`major, minor`; dates as `Mon DD HH:MM`, `Mon DD  YYYY`, or the iso time styles).
"""
from __future__ import annotations

from rtk.filters.ls.long_line import long_fields


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
    fields = long_fields(text)
    if fields is None:
        return None
    mode, _, size, date, name = fields
    return Entry(mode, name, size.replace(" ", ""), date)
