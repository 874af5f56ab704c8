"""Paths grouped by directory: `src/click/ (17): core.py types.py ...`, every entry named.

Nothing is hidden, only the repeated directory prefix goes: on a list of many files in few
directories that is most of the text. Each path can still be read back whole: its directory
starts a line and its name is a word on that line (how the fixtures' `@path` facts are scored).

find walks depth first, so once a path comes from outside a directory's subtree that directory
is finished: its line is written then, and the list still streams (a directory's entries come
together even when find printed its subdirectories in between). fd, git ls-files and rg --files
order differently; a directory seen again later simply gets a second line. A directory with one
entry stays a path; a leading `./` goes (`find .` prints it on every path); names holding spaces or quotes are quoted as a shell would; a long line is split at
LINE_CHARS; past HELD_NAMES names held at once every open directory is written out.
"""
from __future__ import annotations

import posixpath

LINE_CHARS = 1000
MIN_GROUP = 2  # a directory with fewer entries stays as printed: a header would cost more
HELD_NAMES = 2000  # bounded memory: open directories are written out past this
SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-[]{}()~^#!")


def split_path(path: str) -> tuple[str, str]:
    """(the directory with its slash, or "" at the top; the name, with a directory's own slash)."""
    bare = path.rstrip("/")
    head, name = posixpath.split(bare)
    if not head or not name:
        return "", path
    return head + "/", name + path[len(bare):]


def quoted(name: str) -> str:
    if name and all(c in SAFE for c in name):
        return name
    return "'" + name.replace("'", "'\\''") + "'"


class Grouper:
    def __init__(self) -> None:
        self.open: dict[str, list[str]] = {}  # directory -> paths as printed, in order of opening
        self.held = 0

    def add(self, path: str) -> list[str]:
        """The finished lines: directories this path shows were left behind, or a top-level path."""
        directory, _ = split_path(path)
        if not directory:
            return [path]
        out = self._close_outside(directory)
        self.open.setdefault(directory, []).append(path)
        self.held += 1
        return out + (self.flush() if self.held >= HELD_NAMES else [])

    def _close_outside(self, directory: str) -> list[str]:
        done = [d for d in self.open if not directory.startswith(d)]
        return [line for d in done for line in _group(d, self.open.pop(d), self)]

    def flush(self) -> list[str]:
        out = [line for d in list(self.open) for line in _group(d, self.open.pop(d), self)]
        self.held = 0
        return out


def _group(directory: str, paths: list[str], grouper: Grouper) -> list[str]:
    grouper.held -= len(paths)
    if len(paths) < MIN_GROUP:
        return [_bare(p) for p in paths]
    return _lines(_bare(directory), [quoted(split_path(p)[1]) for p in paths])


def _bare(path: str) -> str:
    """`./src/a.py` as `src/a.py`: `find .` puts `./` on every path, a reader needs it on none."""
    return path[2:] if path.startswith("./") and len(path) > 2 else path


def _lines(directory: str, names: list[str]) -> list[str]:
    head = f"{directory} ({len(names):,}):"
    lines: list[str] = []
    current = head
    for name in names:
        if len(current) + 1 + len(name) > LINE_CHARS and current != head:
            lines.append(current)
            current = f"{directory} (cont.):"
        current += " " + name
    lines.append(current)
    return lines


def grouped(paths: list[str]) -> list[str]:
    """A finished list of paths, grouped (the tail of a long list, tests)."""
    grouper = Grouper()
    out = [line for path in paths for line in grouper.add(path)]
    return out + grouper.flush()
