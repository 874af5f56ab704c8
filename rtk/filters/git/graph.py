"""`git log --graph` in the medium format: the graph columns peeled off each line, and the count
of commits the command asked for.

Every line of a commit starts with as many graph columns as its `commit` line (`| * commit ...`
then `|/  Author: ...`): those columns are split off so the log filter reads the line as without
`--graph`. Columns that fork or merge (`/`, `\\`, `_`) are returned so they stay in the output, in
order, after the commit line they belong to; plain `|` columns carry no information once each
commit is one line and are dropped.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

GRAPH_CHARS = frozenset("*|/\\_ ")
FORKS = frozenset("/\\_")


class Graph:
    def __init__(self) -> None:
        self.prefix = ""

    @staticmethod
    def _commit_prefix(text: str) -> str | None:
        at = text.find("commit ")
        if at < 0 or not set(text[:at]) <= GRAPH_CHARS or "*" not in text[:at]:
            return None
        return text[:at]

    def strip_commit(self, text: str) -> str:
        prefix = self._commit_prefix(text)
        return text if prefix is None else text[len(prefix):]

    def split(self, text: str) -> tuple[str, list[str]]:
        """The line without its graph columns, and those columns when they fork or merge."""
        prefix = self._commit_prefix(text)
        if prefix is not None:
            self.prefix = prefix
            return text[len(prefix):], []
        width = len(self.prefix)
        head = text[:width]
        if not width or not set(head) <= GRAPH_CHARS:
            return text, []
        forks = [head.rstrip()] if set(head) & FORKS else []
        return text[width:], forks


def asked_count(argv: Sequence[str]) -> int:
    """The number of commits the command line asked for (`-n 5`, `-n5`, `-5`, `--max-count=5`), 0 if none."""
    count = 0
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = ""
        if arg in ("-n", "--max-count") and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--max-count="):
            value = arg[12:]
        elif arg.startswith("-n") or (arg[:1] == "-" and arg[1:].isdigit()):
            value = arg[2:] if arg.startswith("-n") else arg[1:]
        if value.isdigit():
            count = max(count, int(value))
    return count
