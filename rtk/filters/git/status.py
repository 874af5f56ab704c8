"""git status (long format): a branch line and one compact line per file, grouped.

Keeps: the branch and its ahead/behind/diverged state (`branch main, ahead of origin/main by 2`),
state lines (merge/rebase/cherry-pick in progress) verbatim, and every file as one line in its
group (`staged:`, `conflicts:`, `unstaged:`, `untracked:`): `M src/a.py`, `R old -> new`,
`UU src/b.py`; untracked and ignored paths alone (`tmp/`: the group says what they are, and
git's own tab-indented line costs no more). A clean tree is one line: `clean (branch main, up to
date with origin/main)`.
Drops: hint lines (`  (use "git add <file>..." ...)`), blank lines, the closing `no changes added
to commit` advice. Every file is named up to 250 in a group (an agent acts on each path); a
larger group shows its first 100 and a marker counting the rest by folder (content elided:
recall). Anything not in git's English long format passes through.
"""
from __future__ import annotations

from rtk.filters.base import FilterContext, Line, Stream
from rtk.filters.git.caps import MAX_FILES, SHOW_FILES, CappedList
from rtk.filters.git.common import NOTHING, GitFilter, out
from rtk.filters.git.status_lines import branch_part, file_entry, is_hint

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

SECTIONS = {
    "Changes to be committed:": "staged",
    "Unmerged paths:": "conflicts",
    "Changes not staged for commit:": "unstaged",
    "Untracked files:": "untracked",
    "Ignored files:": "ignored",
}
CODES = {
    "modified": "M", "new file": "A", "deleted": "D", "renamed": "R", "copied": "C",
    "typechange": "T", "unknown": "X", "unmerged": "U",
    "both modified": "UU", "added by us": "AU", "added by them": "UA", "deleted by us": "DU",
    "deleted by them": "UD", "both added": "AA", "both deleted": "DD",
}
PLAIN_SECTIONS = frozenset(("untracked", "ignored"))
FIRST_WORDS = ("On branch ", "HEAD detached ", "Not currently on any branch.")
STATE_WORDS = ("interactive rebase in progress", "rebase in progress", "You are currently ",
               "You are in the middle of ", "No commits yet", "You have unmerged paths.")


class StatusFilter(GitFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._branch: list[str] = []
        self._branch_shown = False
        self._section: str | None = None
        self._group: CappedList | None = None
        self.files = 0
        recall = self.ctx.recall_enabled
        big = 1 << 60
        self._cap = self.ctx.limit("git_status_max_files", MAX_FILES) if recall else big
        self._show = min(self.ctx.limit("git_status_show_files", SHOW_FILES), self._cap) if recall else big

    def starts(self, text: str) -> bool:
        return text.startswith(FIRST_WORDS + STATE_WORDS)

    def parse(self, text: str, line: str, stream: Stream) -> Iterable[Line]:
        text = text.rstrip()
        if self._section and text.startswith("\t"):
            return self._file(text, line, stream)
        if not text or is_hint(text):
            return NOTHING
        if not self._branch_shown and (part := branch_part(text)) is not None:
            self._branch.append(part)
            return NOTHING
        if text in SECTIONS:
            return [*self._close_group(), *self._show_branch(), *self._open(SECTIONS[text])]
        if text.startswith(("nothing to commit", "no changes added to commit", "nothing added to commit")):
            return [*self._close_group(), *self._ending(text)]
        return [*self._close_group(), *self._show_branch(), Line(line, stream)]

    def _file(self, text: str, line: str, stream: Stream) -> Iterable[Line]:
        section = self._section or ""
        if section in PLAIN_SECTIONS:
            entry = path = text[1:]
        elif (found := file_entry(text)) is not None and found[0] in CODES:
            entry, path = f"{CODES[found[0]]} {found[1]}", found[1]
        else:
            return [Line(line, stream)]
        self.files += 1
        assert self._group is not None
        return out(*self._group.add(entry, path))

    def _open(self, section: str) -> list[Line]:
        self._section = section
        self._group = CappedList(self._show, self._cap)
        return out(f"{section}:")

    def _close_group(self) -> list[Line]:
        group, self._group, self._section = self._group, None, None
        if group is None:
            return []
        self.elided = self.elided or group.overflowed
        return out(*group.close())

    def _branch_text(self) -> str:
        return ", ".join(self._branch)

    def _show_branch(self) -> list[Line]:
        if self._branch_shown:
            return []
        self._branch_shown = True
        return out(self._branch_text()) if self._branch else []

    def _ending(self, text: str) -> list[Line]:
        if not text.startswith("nothing to commit") or self.files:
            return []
        note = "; untracked files not listed" if "-u to show untracked" in text else ""
        if self._branch_shown:
            return out(f"clean{note}")
        self._branch_shown = True
        return out(f"clean ({self._branch_text()}{note})")

    def flush(self) -> list[Line]:
        return [*self._close_group(), *self._show_branch()]

    def progress(self) -> dict[str, int]:
        return {"files": self.files}


def create(ctx: FilterContext) -> StatusFilter:
    return StatusFilter(ctx)
