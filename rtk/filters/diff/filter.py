"""The diff filter: parses unified diff output into files and hunks, prints a summary first."""
from __future__ import annotations

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, plural, strip_ansi
from rtk.filters.diff.model import FileDiff, Hunk

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

VERBATIM = ("Only in ", "Binary files ", "File ", "diff: ", "Files ")
NOTHING: tuple[Line, ...] = ()


class PassFilter(BaseFilter):
    lossless = True


class DiffFilter(BaseFilter):
    def __init__(self, ctx: FilterContext) -> None:
        super().__init__(ctx)
        self.max_changed = ctx.limit("diff_max_hunk_lines", 150)
        self.keep_changed = min(ctx.limit("diff_keep_hunk_lines", 100), self.max_changed)
        self.budget = ctx.limit("diff_max_lines", 4000)  # kept lines in all; later hunks only counted
        # files listed (and notes kept) in all: past them a file or note is only counted, so a
        # diff of any size holds a bounded summary (a repeated 200 MB diff held 170 MB)
        self.max_files = ctx.limit("diff_max_files", 2000)
        self.max_notes = ctx.limit("diff_max_notes", 2000)
        self.kept = 0
        self.keep_context = asks_context(ctx.argv)
        self.files: list[FileDiff] = []
        self.unlisted_files = self.unlisted_added = self.unlisted_removed = 0  # the files past max_files
        self.notes: list[str] = []  # `Only in`, binary files, errors: printed with the summary
        self.unkept_notes = 0
        self.current: FileDiff | None = None

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        if stream == Stream.STDERR or text.startswith(VERBATIM):
            self.failure_seen |= text.startswith("diff: ")
            self._close_file()
            self._note(text)
            return NOTHING
        current = self.current
        in_hunk = current is not None and current.hunk is not None and not current.hunk.complete
        if text.startswith("--- ") and not in_hunk:
            self._close_file()
            self.current = FileDiff(_path(text))
        elif text.startswith("+++ ") and current is not None and current.hunk is None and not current.lines:
            current.new = _path(text)
        elif text.startswith("@@") and current is not None:
            self.kept += current.close_hunk()
            listed = len(self.files) < self.max_files
            current.hunk = Hunk(text, self.max_changed, self.keep_changed, keep=listed and self.kept < self.budget,
                                keep_context=self.keep_context)
        elif current is not None and current.hunk is not None and text[:1] in ("+", "-", " ", "\\", "") \
                and (in_hunk or text.startswith("\\")):
            current.added += text[:1] == "+"
            current.removed += text[:1] == "-"
            current.hunk.add(text)
        elif not text.startswith("diff "):
            self._close_file()
            self._note(text)
        return NOTHING

    def _note(self, text: str) -> None:
        if len(self.notes) < self.max_notes:
            self.notes.append(text)
        else:
            self.unkept_notes += 1
            self.elided = True

    def _close_file(self) -> None:
        if self.current is not None:
            self.kept += self.current.close_hunk()
            self.elided |= self.current.folded or self.current.context_dropped
            if len(self.files) < self.max_files:
                self.files.append(self.current)
            else:  # counted only: its name and hunks are in the raw output (recall)
                self.unlisted_files += 1
                self.unlisted_added += self.current.added
                self.unlisted_removed += self.current.removed
                self.elided = True
            self.current = None

    def finish(self, exit_code: int) -> Iterable[Line]:
        self.failure_seen |= exit_code == 1  # diff's exit 1 means "the files differ", shown here
        self._close_file()
        out = self._summary()
        for diff in self.files:
            out.extend(Line(text) for text in diff.render())
        return out

    def _summary(self) -> list[Line]:
        notes = [Line(text) for text in self.notes]
        if self.unkept_notes:
            notes.append(Line(f"... {self.unkept_notes:,} more lines like these"))
        if not self.files:
            return notes
        added = sum(d.added for d in self.files) + self.unlisted_added
        removed = sum(d.removed for d in self.files) + self.unlisted_removed
        head = f"diff: {plural(len(self.files) + self.unlisted_files, 'file')} changed, +{added:,} -{removed:,}"
        out = [Line(head)]
        if len(self.files) > 1:
            out.extend(Line(f" {d.name} +{d.added:,} -{d.removed:,}") for d in self.files)
        if self.unlisted_files:
            out.append(Line(f" ... {plural(self.unlisted_files, 'more file')} "
                            f"+{self.unlisted_added:,} -{self.unlisted_removed:,}"))
        return out + notes


def _path(text: str) -> str:
    """`--- a/x.py\\t2024-01-01 ...` -> `a/x.py` (the timestamp after the tab goes)."""
    return text[4:].split("\t", 1)[0]


def is_unified(argv: Sequence[str]) -> bool:
    for arg in argv[1:]:
        if arg == "--":
            break
        if arg.startswith("--"):
            if arg.startswith(("--unified", "--new-file", "--recursive")) is False and arg in (
                    "--brief", "--side-by-side", "--ed", "--normal", "--rcs", "--context"):
                return False
            if arg.startswith("--unified"):
                return True
        elif arg.startswith("-") and ("u" in arg or "U" in arg) and not set(arg[1:]) & set("qyecn"):
            return True
    return False


def asks_context(argv: Sequence[str]) -> bool:
    """`-U5`, `--unified=5`: the context lines are what the command asked to read (`-u` is diff's
    default three, which the filter cuts to one around each change)."""
    for arg in argv[1:]:
        if arg == "--":
            break
        if arg.startswith("--unified=") or (arg.startswith("-") and not arg.startswith("--") and "U" in arg):
            return True
    return False


def create(ctx: FilterContext) -> BaseFilter:
    return DiffFilter(ctx) if is_unified(ctx.argv) else PassFilter(ctx)
