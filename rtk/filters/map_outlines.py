"""What a long reader's output holds, line by line, for its map (rtk.filters.readmap): the places
an agent would ask for, each with its output line number.

- a diff (`git diff`, `git show`, `git log -p`, `diff -ru`): each commit, each file with its
  added and removed line counts, each hunk (`@@ -a,b +c,d @@ context`);
- a listing (`find`, `ls -R`, `tree`, `git ls-files`, `rg --files`, grep matches): each directory
  (or file of a grep) with how many lines it holds, deeper directories first to go;
- a log: the first line of each distinct message that says what failed or warns.

Entries are (line number, depth, text); content/outline.py's `render_entries` picks what fits.
A file's outline, JSON's included (its keys that open an object or array, by indentation), is
content/outline.py's own.
Memory stays bounded: past MAX_ENTRIES the deepest entries are no longer recorded.
"""
from __future__ import annotations

import re

from rtk.filters.content.outline import render_entries
from rtk.filters.path_outline import leading_path

MAX_ENTRIES = 20_000
ENTRY_CHARS = 100
HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@ ?(.*)")
TREE_GLYPHS = ("├── ", "└── ", "|-- ", "`-- ")
NUMBERS = re.compile(r"\d+")
# what a log line says went wrong, by the words logs use for it (case matters: `Error:` inside a
# test's name is not a level, `ERROR`, `FAILED`, `ValueError`, `Traceback` are)
LOG_PROBLEM = re.compile(r"\b(?:ERROR|FATAL|CRITICAL|FAIL(?:ED|URE)?|WARN(?:ING)?|Traceback|panic(?:ked)?|"
                         r"[A-Z]\w*(?:Error|Exception|Warning))\b|\b(?:error|warning|fatal):")
LOG_ENTRY_CHARS = 80


class Entries:
    """The entries recorded so far, shallower ones kept when there are too many."""

    what = "places"

    def __init__(self) -> None:
        self.entries: list[list] = []  # [number, depth, text, count, count2]: lines under it (added, removed)
        self.deepest = 1 << 30

    def see(self, number: int, text: str) -> None:
        """Each line of the output, numbered, in order (each kind records what names a place)."""

    def record(self, number: int, depth: int, text: str) -> None:
        if depth > self.deepest:
            return
        self.entries.append([number, depth, text[:ENTRY_CHARS].rstrip(), 0, 0])
        if len(self.entries) > MAX_ENTRIES:
            self.deepest = max(e[1] for e in self.entries) - 1
            self.entries = [e for e in self.entries if e[1] <= self.deepest]

    def label(self, entry: list) -> str:
        return str(entry[2])

    def render(self, first: int, last: int, max_chars: int) -> list[str]:
        rows = [(e[0], e[1], self.label(e)) for e in self.entries]
        return render_entries(rows, first, last, max_chars, self.what)


class DiffOutline(Entries):
    what = "commits, files and hunks"

    def __init__(self) -> None:
        super().__init__()
        self.file: list | None = None
        self.subject: list | None = None  # a commit whose subject line is still to come
        self.files = 0

    def see(self, number: int, text: str) -> None:
        if text.startswith("diff --git ") or text.startswith("diff -") and " " in text[6:]:
            self.files += 1
            path = text.rsplit(" b/", 1)[-1] if text.startswith("diff --git ") else text.rsplit(" ", 1)[-1]
            self.record(number, 1, path)
            self.file = self.entries[-1] if self.entries and self.entries[-1][0] == number else None
        elif text.startswith("commit ") and len(text) >= 47:
            self.record(number, 0, f"commit {text[7:19]}")
            self.file, self.subject = None, self.entries[-1] if self.entries else None
        elif self.subject is not None and text.startswith("    ") and text.strip():
            self.subject[2] = f"{self.subject[2]} {text.strip()}"[:ENTRY_CHARS]  # the commit's subject
            self.subject = None
        elif text.startswith("@@ ") and (m := HUNK.match(text)):
            self.record(number, 2, f"@@ +{m.group(1)} {m.group(2)}".rstrip())
        elif self.file is not None and text[:1] in ("+", "-") and not text.startswith(("+++ ", "--- ")):
            self.file[3 if text[0] == "+" else 4] += 1

    def label(self, entry: list) -> str:
        return f"{entry[2]} (+{entry[3]} -{entry[4]})" if entry[1] == 1 else str(entry[2])


class ListingOutline(Entries):
    """Each run of lines under one directory, at every level (`src/ (40)`, then `src/click/ (17)`):
    the top levels show first, so a long listing reads as its tree, each part with its lines."""

    what = "directories or files"

    def __init__(self) -> None:
        super().__init__()
        self.open: list[list] = []  # the entries of the directories the last line was under, by level

    def see(self, number: int, text: str) -> None:
        if text.endswith(":") and not text.startswith(" ") and ("/" in text or text == ".:"):
            self._under(number, text[:-1].strip("/").split("/"))  # ls -R: `./src/click:`
            return
        for glyph in TREE_GLYPHS:
            at = text.find(glyph)
            if at >= 0:
                if at // 4 <= 1:
                    self.record(number, at // 4, text[at + len(glyph):])
                return
        path = leading_path(text) or (text.strip() if "/" in text and " " not in text.strip() else "")
        if not path:
            if self.open:
                for entry in self.open:
                    entry[3] += 1
            return
        grep_match = ":" in text.split(None, 1)[0]
        parts = path.strip("/").split("/")
        self._under(number, parts if grep_match else parts[:-1] or ["."], file_last=grep_match)

    def _under(self, number: int, parts: list[str], file_last: bool = False) -> None:
        for level in range(len(parts)):
            name = "/".join(parts[:level + 1]) + ("" if file_last and level == len(parts) - 1 else "/")
            if level < len(self.open) and self.open[level][2] == name:
                self.open[level][3] += 1
                continue
            del self.open[level:]
            entry = [number, level, name, 1, 0]
            self.open.append(entry)
            if level <= self.deepest:
                self.entries.append(entry)
        del self.open[len(parts):]
        if len(self.entries) > MAX_ENTRIES:
            self.deepest = max(e[1] for e in self.entries) - 1
            self.entries = [e for e in self.entries if e[1] <= self.deepest]

    def label(self, entry: list) -> str:
        return f"{entry[2]} ({entry[3]:,})" if entry[3] > 1 else str(entry[2])


class LogOutline(Entries):
    what = "distinct error or warning lines"

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[str, list] = {}

    def see(self, number: int, text: str) -> None:
        if not LOG_PROBLEM.search(text):
            return
        key = NUMBERS.sub("N", text[:LOG_ENTRY_CHARS])
        if key in self.seen:
            self.seen[key][3] += 1
            return
        self.record(number, 0, text.strip()[:LOG_ENTRY_CHARS].rstrip())
        if self.entries and self.entries[-1][0] == number and len(self.seen) < MAX_ENTRIES:
            self.seen[key] = self.entries[-1]
            self.entries[-1][3] = 1

    def label(self, entry: list) -> str:
        return f"{entry[2]} (x{entry[3]:,})" if entry[3] > 1 else str(entry[2])
