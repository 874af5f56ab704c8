"""A finished failure or error block, as printed: its full title, then what explains it.

Failures repeat: one broken fixture or helper fails fifty tests with the same error, a
parametrized test fails with the same traceback for each of its parameters. The first one is
printed whole; a later one whose whole traceback was printed before is one line,
`FAILED id (same traceback as test_x)`, and one whose error part (from the `>` line before the first
`E` line down) was printed before is one line naming where the test itself was when it happened,
`FAILED id (same error as test_x, via tests/test_y.py:12)`. Their captured output still follows.
"""
from __future__ import annotations

import re

from rtk.filters.pytest import patterns as p
from rtk.filters.pytest.block import Block, own_frame
from rtk.filters.pytest.ids import IdResolver

NATIVE_PLACE_RE = re.compile(r'^File "([^"]+)", line (\d+)')


class Reporter:
    def __init__(self, ids: IdResolver) -> None:
        self.ids = ids
        self.kind = "F"  # the section being read: F (FAILURES) or E (ERRORS)
        self.rootdir = ""
        self.elided = False
        self._seen: dict[int, str] = {}

    def render(self, block: Block) -> list[str]:
        lines = block.render()
        if self.rootdir:  # --tb=native prints absolute paths: under the rootdir they are made relative
            root = f'File "{self.rootdir}/'
            lines = [text.replace(root, 'File "', 1) if text.startswith('File "') else text for text in lines]
        self.elided = self.elided or block.elided
        title = self.title(block)
        name = title.partition(" of ")[2] or title.partition(" ")[2]
        name = name.rpartition("/")[2] if "::" in name else name  # `test_x.py::TestA::test_b`
        return self._dedupe(block, lines, title, name)

    def _dedupe(self, block: Block, lines: list[str], title: str, name: str) -> list[str]:
        """A failure whose traceback (or its error part) was printed already refers to it."""
        body, captured, tail = lines[:block.body_len], lines[block.body_len:], block.error_tail()
        whole = hash(tuple(body))
        if len(body) > 1 and (first := self._seen.get(whole)) is not None:
            self.elided = True
            return [f"{title} (same traceback as {first})", *captured]
        self._seen.setdefault(whole, name)
        if tail < 0 or len(body) - tail < 3:
            return [title, *lines]
        key = hash(("tail", *body[tail:]))
        if (first := self._seen.get(key)) is None:
            self._seen[key] = name
            return [title, *lines]
        self.elided = True  # the frames between the test's own line and the error go
        place = _place(own_frame(body[:tail]))
        via = f", via {place}" if place else ""
        return [f"{title} (same error as {first}{via})", *captured]

    def title(self, block: Block) -> str:
        title = block.title
        if self.kind == "F":
            return "FAILED " + self.ids.resolve(title, "F", block.first_file, block.first_func)
        if title.startswith("ERROR collecting "):
            self.ids.reported.add(title[len("ERROR collecting "):])
            return title
        head, sep, name = title.partition(" of ")
        if not sep:
            return title
        return f"{head} of {self.ids.resolve(name, 'E', block.first_file, block.first_func)}"


def _place(frames: list[str]) -> str:
    """`path:line` of the last location among a test's own traceback lines, or ""."""
    for text in reversed(frames):
        if (m := p.LOCATION_RE.match(text)) is not None or (m := NATIVE_PLACE_RE.match(text)) is not None:
            return f"{m.group(1)}:{m.group(2)}"
    return ""
