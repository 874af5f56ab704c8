"""`pytest --collect-only -q`: one test id a line, grouped under the part they share.

An agent asks for the ids to pick some to run, so every one of them stays, whole enough to be
put back together: the ids of one file (or class) are printed under one `path::` line, each
name indented under it (`tests/test_a.py::TestA::` then `  test_b[1]`). A group of one id is
printed as the id. Nothing is dropped, so nothing is marked elided.
"""
from __future__ import annotations

import re

COLLECT_FLAGS = frozenset({"--collect-only", "--co"})
NODEID_RE = re.compile(r"^[^\s:\[]+\.py::\S")  # `path.py::...`, the file part without spaces


def wants_collect(argv: tuple[str, ...]) -> bool:
    return any(word in COLLECT_FLAGS for word in argv)


def parent_and_name(nodeid: str) -> tuple[str, str]:
    """`t.py::TestA::test_b[a::b]` -> (`t.py::TestA`, `test_b[a::b]`): `::` inside the
    parameters is part of the name."""
    head, bracket, params = nodeid.partition("[")
    parent, _, name = head.rpartition("::")
    return parent, name + bracket + params


class CollectedIds:
    def __init__(self) -> None:
        self._parent = ""
        self._names: list[str] = []

    @staticmethod
    def is_nodeid(line: str) -> bool:
        return "::" in line and NODEID_RE.match(line) is not None and not line.endswith(" ")

    def add(self, nodeid: str) -> list[str]:
        parent, name = parent_and_name(nodeid)
        out = self.flush() if parent != self._parent else []
        self._parent = parent
        self._names.append(name)
        return out

    def flush(self) -> list[str]:
        parent, names = self._parent, self._names
        self._parent, self._names = "", []
        if len(names) == 1:
            return [f"{parent}::{names[0]}"]
        return [f"{parent}::", *(f"  {name}" for name in names)] if names else []
