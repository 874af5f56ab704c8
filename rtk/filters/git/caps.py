"""A list of file lines that streams its first entries and, past a cap, counts the rest by folder.

Up to `show` entries print at once; entries up to `cap` are held, so a list of at most `cap`
entries prints whole; past `cap` only the first `show` are printed and a marker says how many
more there were and in which folders (`... 460 more files (gen/: 400, docs/: 60)`).
"""
from __future__ import annotations

from rtk.filters.base import elision_marker

TOP_DIRS = 5
# A list of files (a status group, a commit's create/delete lines) of up to MAX_FILES prints
# whole: an agent acts on each path. Past it, the first SHOW_FILES and a marker by folder.
MAX_FILES, SHOW_FILES = 250, 100


def folder_of(path: str) -> str:
    """The folder a path is in (`src/gen/`), `./` for a top-level file."""
    path = path.split(" -> ")[-1].strip('"')
    parts = path.rstrip("/").split("/")[:-1]
    return "/".join(parts) + "/" if parts else "./"


class CappedList:
    def __init__(self, show: int, cap: int) -> None:
        self.show, self.cap = show, max(cap, show)
        self.count = 0
        self._held: list[tuple[str, str]] = []
        self._folders: dict[str, int] = {}  # not a Counter: `collections` is a dozen imports on git status

    @property
    def overflowed(self) -> bool:
        return self.count > self.cap

    def add(self, text: str, path: str) -> list[str]:
        self.count += 1
        if self.count <= self.show:
            return [text]
        if self.count <= self.cap:
            self._held.append((text, path))
            return []
        for _, held_path in self._held:
            self._count(folder_of(held_path))
        self._held = []
        self._count(folder_of(path))
        return []

    def _count(self, folder: str) -> None:
        self._folders[folder] = self._folders.get(folder, 0) + 1

    def close(self, what: str = "files") -> list[str]:
        if not self.overflowed:
            held, self._held = self._held, []
            return [text for text, _ in held]
        return [elision_marker(self.count - self.show, what, self._detail())]

    def _detail(self) -> str:
        ranked = sorted(self._folders.items(), key=lambda kv: (-kv[1], kv[0]))
        parts = [f"{name}: {n:,}" for name, n in ranked[:TOP_DIRS]]
        rest = sum(n for _, n in ranked[TOP_DIRS:])
        if rest:
            parts.append(f"{len(ranked) - TOP_DIRS} more folders: {rest:,}")
        return ", ".join(parts)
