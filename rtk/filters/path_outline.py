"""What a left-out run of a folded output holds, when it is not a file: the paths its lines start
with. A diff's file headers (`lib/email/policy.py (+21 -21)`), grep's `path:line:` matches, a
linter's `path:line:col` findings are the facts an agent looks for in a long output, and a host's
cut (Claude Code's 30,000 chars, Codex's ~10,000 bytes) folds the middle away: the marker of each
left-out run then names the files in it, in order, so that the agent knows what to ask for
(`git diff -- PATH`, `rtk recall ID --grep PATH`). Standard library only, no `re` (the run path).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right

MAX_PATHS = 5_000  # recorded path changes (memory stays bounded)
MAX_PATH_CHARS = 200
NOT_PATHS = ("+", "-", "@", "[", "(", "#", "=", "<", ">", "|", "*", "\\", "http:", "https:")


def leading_path(text: str) -> str:
    """The path a line starts with (`a/b.py`, `a/b.py:12:3`, `./x.go`), else ""."""
    word = text.split(None, 1)[0] if text[:1].strip() else ""
    word = word.split(":", 1)[0].rstrip(",;")
    if not word or len(word) > MAX_PATH_CHARS or word.startswith(NOT_PATHS):
        return ""
    name = word.rsplit("/", 1)[-1]
    stem, dot, ext = name.rpartition(".")
    if dot and stem and 0 < len(ext) <= 6 and ext.isalnum() and not stem.replace(".", "").isdigit():
        return word
    return word if "/" in word.strip("/.") and not word.endswith("/") else ""


class PathOutline:
    """Sees every line of a folded output; renders the paths of a left-out run of lines."""

    def __init__(self) -> None:
        self.numbers: list[int] = []
        self.paths: list[str] = []

    def see(self, number: int, text: str) -> None:
        path = leading_path(text)
        if path and len(self.paths) < MAX_PATHS and (not self.paths or self.paths[-1] != path):
            self.numbers.append(number)
            self.paths.append(path)

    def render(self, first: int, last: int, max_chars: int) -> list[str]:
        start, end = bisect_left(self.numbers, first), bisect_right(self.numbers, last)
        names = list(dict.fromkeys(self.paths[start:end]))
        if not names:
            return []
        line, shown = "    files in them: ", 0
        for name in names:
            if len(line) + len(name) + 12 > max_chars:
                break
            line += ("" if shown == 0 else ", ") + name
            shown += 1
        if shown == 0:
            return []
        return [line + (f", +{len(names) - shown:,} more" if shown < len(names) else "")]
