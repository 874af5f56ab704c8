"""git add/commit/push/pull/fetch/checkout/switch/stash/merge/rebase/cherry-pick/revert: `ok ...` lines.

Keeps: what each command did, one short line each (`ok commit [main a1b2c3d] subject (3 files,
+20 -4)`, `ok push main -> origin/main (1a2b3c4..5d6e7f8)`, `ok pull fast-forward 1a2b..5d6e`), every
file it names (diffstat, `create`/`delete`/`rename` lines; over 250 the first 100 and a marker),
hook and remote messages, and from the first error or conflict on everything verbatim (a failed
`git commit` prints a status: verbatim too).
Drops: progress (`Counting objects`, `remote: Total ...`), blank lines, the detached-HEAD advice
paragraph, `From`/`To` URL lines when the remote's name is known. `git stash pop/apply` print a
status: it goes through the status filter. Unrecognised lines pass through.
"""
from __future__ import annotations

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.git.caps import MAX_FILES, SHOW_FILES, CappedList
from rtk.filters.git.common import NOTHING, is_error, out
from rtk.filters.git.status import FIRST_WORDS, StatusFilter, branch_part
from rtk.filters.git.write_lines import (
    change_groups,
    is_commit_head,
    is_progress,
    ref_groups,
    simple_groups,
    stat_groups,
    summary_counts,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

ADVICE_START = "You are in 'detached HEAD' state."
ADVICE_END = "Turn off this advice by setting config variable advice.detachedHead to false"
FAILED_COMMIT = ("nothing to commit", "no changes added to commit", "nothing added to commit")


def remote_of(sub: str, args: Sequence[str]) -> str | None:
    """The remote named on the command line (`git push origin main` -> origin)."""
    if sub not in ("push", "pull", "fetch"):
        return None
    words = [a for a in args if not a.startswith("-")]
    return words[0] if words else None


class WriteFilter(BaseFilter):
    def __init__(self, ctx: FilterContext, sub: str, args: Sequence[str]) -> None:
        super().__init__(ctx)
        self.sub, self.remote = sub, remote_of(sub, args)
        self.raw = self.advice = False
        self.url: str | None = None
        self.range = ""
        self.commit: tuple[str, str] | None = None
        self.status: StatusFilter | None = None
        big = 1 << 60
        show, cap = (SHOW_FILES, MAX_FILES) if ctx.recall_enabled else (big, big)
        self.files = CappedList(ctx.limit("git_status_show_files", show), ctx.limit("git_status_max_files", cap))
        self.lines = 0
        self.rebase_step = ""

    def _stopped_at(self, stream: Stream) -> list[Line]:
        step, self.rebase_step = self.rebase_step, ""
        return [Line(step, stream)] if step else []

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        self.lines += 1
        text = strip_ansi(line).rstrip()
        failed = is_error(text) or (self.sub == "commit" and text.startswith(FAILED_COMMIT))
        self.failure_seen = self.failure_seen or failed
        if self.raw:
            return (Line(line, stream),)
        if failed or (self.sub == "commit" and text.startswith(FIRST_WORDS)):
            self.raw = True
            return [*self._flush(), *self._stopped_at(stream), Line(line, stream)]
        if text.startswith("Rebasing (") and is_progress(text):
            self.rebase_step = text  # said only if the rebase stops: where it stopped
            return []
        if text.startswith(("Stopped at ", "Could not apply ")):
            return [*self._stopped_at(stream), Line(line, stream)]
        if self.status is not None and not text.startswith("Dropped "):
            return self.status.feed(line, stream)
        held = self._commit_line() if self.commit and summary_counts(text) is None else []
        return [*held, *self._line(text, line, stream)]

    def _line(self, text: str, line: str, stream: Stream) -> list[Line]:
        if self.advice or text.startswith(ADVICE_START):
            self.advice = text != ADVICE_END
            return []
        if not text or is_progress(text):
            return []
        if self.sub == "stash" and text.startswith(FIRST_WORDS):
            self.status = StatusFilter(self.ctx)
            return list(self.status.feed(line, stream))
        for handler in self._handlers():
            if (done := handler(text)) is not None:
                return out(*done)
        return [Line(line, stream)]

    def _handlers(self) -> tuple[Callable[[str], list[str] | None], ...]:
        return (self._commit, self._summary, self._simple, self._ref, self._file, self._tracking)

    def _commit(self, text: str) -> list[str] | None:
        if not is_commit_head(text):
            return None
        self.commit = (text.strip(), "")
        return []

    def _commit_line(self, stats: str = "") -> list[Line]:
        """`ok commit [branch hash] subject (3 files, +20 -4)`: git's own line keeps the branch."""
        line, _ = self.commit or ("", "")
        self.commit = None
        verb = self.sub if self.sub in ("cherry-pick", "revert") else "commit"
        return out(f"ok {verb} {line}{stats}")

    def _summary(self, text: str) -> list[str] | None:
        if (m := summary_counts(text)) is None:
            return None
        files = f"{m[0]} {'file' if m[0] == '1' else 'files'}"
        counts = " ".join(c for c in (m[1] and f"+{m[1]}", m[2] and f"-{m[2]}") if c)
        if self.commit is not None:
            return [t for t, _ in self._commit_line(f" ({files}, {counts})" if counts else f" ({files})")]
        return [f"{files} changed, {counts}" if counts else f"{files} changed"]

    def _simple(self, text: str) -> list[str] | None:
        if (found := simple_groups(text)) is not None:
            template, groups = found
            if text.startswith("Updating "):
                self.range = groups[0]
            elif text.startswith(("From ", "To ")):
                self.url = groups[0]
                return [] if self.remote else None
            return [template.format(*groups, sub=self.sub)] if template else []
        if text == "Fast-forward":
            return [f"ok {self.sub}: fast-forward {self.range}".rstrip()]
        return None

    def _ref(self, text: str) -> list[str] | None:
        if (groups := ref_groups(text)) is None:
            return None
        _flag, what, src, dst, note = groups
        if self.sub == "push" and self.remote:
            dst = f"{self.remote}/{dst}"
        detail = ", ".join(p for p in (what.strip("[]"), note) if p)
        return [f"ok {self.sub} {src} -> {dst} ({detail})"]

    def _file(self, text: str) -> list[str] | None:
        if (m := change_groups(text)) is not None:
            kept = text.strip() if m[0] is None else f"{m[0]} {m[1]}"
            path = m[1] or m[3] or (m[4] or "").split(" ")[-1]
        elif (stat := stat_groups(text)) is not None:
            kept, path = f"{stat[0]} | {stat[1]}", stat[0]
        else:
            return None
        return self.files.add(kept, path)

    def _tracking(self, text: str) -> list[str] | None:
        part = branch_part(text) if text.startswith(("Your branch ", "and have ")) else None
        return None if part is None else [f"({part})"]

    def _flush(self) -> list[Line]:
        lines = self._commit_line() if self.commit else []
        if self.status is not None:
            lines += self.status.flush()
        lines += out(*self.files.close())
        self.elided = self.elided or self.files.overflowed or bool(self.status and self.status.elided)
        return lines

    def finish(self, exit_code: int) -> Iterable[Line]:
        return NOTHING if self.raw else self._flush()

    def progress(self) -> dict[str, int]:
        return {"lines": self.lines}
