"""Paths grouped by directory: `src/click/ (17): core.py types.py ...`, every entry named.

find prints a directory's entries together (readdir order, subdirectories in between), so each
run of paths in one directory becomes one line: the directory once, then every name. Nothing is
hidden, only the repeated directory prefix goes: on a list of many files in few directories
that is most of the text. A run of one or two paths stays as printed; names holding spaces or
quotes are quoted as a shell would; a very long run is split over lines of at most LINE_CHARS.
Runs are written when the directory changes, so the list still streams.
"""
from __future__ import annotations

import posixpath

LINE_CHARS = 1000
MIN_RUN = 3  # a run of fewer paths stays as printed: a header would save nothing
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
        self.directory: str | None = None
        self.run: list[tuple[str, str]] = []  # (path as printed, name) of the current directory

    def add(self, path: str) -> list[str]:
        """The finished lines (the previous directory's run when this path starts another)."""
        directory, name = split_path(path)
        out = self.flush() if directory != self.directory or not directory else []
        self.directory = directory
        self.run.append((path, name))
        return out

    def flush(self) -> list[str]:
        run, self.run = self.run, []
        if len(run) < MIN_RUN or not self.directory:
            return [path for path, _ in run]
        return _lines(self.directory, [quoted(name) for _, name in run])


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


def pays(paths: list[str]) -> bool:
    """Many paths in few directories: runs of MIN_RUN paths or more on average."""
    runs = sum(1 for i, path in enumerate(paths) if i == 0 or split_path(path)[0] != split_path(paths[i - 1])[0])
    return len(paths) >= MIN_RUN * max(runs, 1)


def grouped(paths: list[str]) -> list[str]:
    """A finished list of paths, grouped (the post path, tests)."""
    grouper = Grouper()
    out = [line for path in paths for line in grouper.add(path)]
    return out + grouper.flush()
