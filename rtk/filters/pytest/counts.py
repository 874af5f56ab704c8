"""The run's progress output, counted: dots and result characters (default and -q), result words
(-v, xdist's `[gw0]` lines), and the file or id of each failure for the ids of its block.

Nothing here is printed: the counts make the closing summary when pytest prints no stats line
(-qq, a killed run) and the live progress the pipeline shows; the failures' places go to the
IdResolver (ids.py) that names the FAILURES blocks.
"""
from __future__ import annotations

from collections import Counter

from rtk.filters.pytest import patterns as p
from rtk.filters.pytest.ids import IdResolver
from rtk.filters.pytest.progress_block import Counted

WORD_CHARS = {"PASSED": ".", "FAILED": "F", "ERROR": "E", "SKIPPED": "s", "XFAIL": "x", "XPASS": "X"}
LIVE_WORDS = (("F", "failed"), ("E", "errors"), ("s", "skipped"))


class RunCounts:
    def __init__(self, ids: IdResolver) -> None:
        self.ids = ids
        self.dots = 0
        self.chars: Counter[str] = Counter()
        self.verbose = False       # -v progress seen: one id per line
        self.first_result = ""     # the first result character of the last progress line
        self.file = ""             # default progress: the file of the last progress line

    def take_block(self, counted: Counted) -> None:
        """A block of passing progress the byte path counted (progress_block.py)."""
        self.dots += counted.dots
        for char, n in counted.others.items():
            self.chars[char] += n
        self.verbose = self.verbose or counted.verbose
        if counted.path:
            self.file = counted.path

    def progress(self, line: str) -> bool:
        """Count one line if it is progress output; False when it is not."""
        if line.startswith("[gw"):
            if (m := p.XDIST_RE.match(line)) is None:
                return False
            self.word(m.group(1), m.group(2))
            return True
        if "::" in line:  # -v: `path::test[params] PASSED   [ 12%]`; default progress has no `::`
            return self._verbose(line)
        if (progress := p.progress_of(line)) is not None:
            self._chars(*progress)
            return True
        return False

    def _verbose(self, line: str) -> bool:
        colons = line.find("::")
        if line.find(" ", 0, colons) >= 0:  # the id's path part has no spaces
            return False
        passed = line.find(" PASSED", colons)
        self.verbose = True
        if passed > 0:
            self.dots += 1
            return True
        if (m := p.VERBOSE_WORD_RE.search(line, colons)) is not None:
            self.word(m.group(1), line[:m.start()])
            return True
        return line.endswith(" ") and p.VERBOSE_BARE_RE.match(line) is not None

    def _chars(self, path: str, chars: str) -> None:
        self.first_result = chars[:1]
        if path:
            self.file = path
        dots = chars.count(".")
        self.dots += dots
        if dots == len(chars):
            return
        for char in "FEsxXR":
            if char in chars:
                self.chars[char] += chars.count(char)
        for char in chars:
            if char in "FE":
                self.ids.note(char, self.file, verbose=False)

    def word(self, word: str, nodeid: str) -> None:
        char = WORD_CHARS[word]
        if char == ".":
            self.dots += 1
            return
        self.chars[char] += 1
        if char in "FE":
            self.ids.note(char, nodeid, verbose=True)

    def all_chars(self) -> Counter[str]:
        chars = Counter(self.chars)
        chars["."] = self.dots
        return chars

    def live(self) -> dict[str, int]:
        counts = {"passed": self.dots}
        counts.update((word, self.chars[c]) for c, word in LIVE_WORDS if self.chars[c])
        return counts
