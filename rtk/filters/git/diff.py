"""git diff / show / log -p patches: every file named with its counts, changed lines kept.

Keeps: one line per file (`src/a.py (+3 -1)`, `old -> new (renamed 95%, +1 -1)`,
`img.png (new, binary)`; counts as git writes them, `+1204`), and the changed lines within a
budget that prints a diff of tens of KB whole and grows slowly past that (hunk.py: one context
line around changes, every one with `-U`/`-W`; in a large diff no context and long runs of pure
additions or removals folded to their first and last lines), each hunk
that prints a line with its header. A file whose lines were left out says how many (`src/a.py
(+300 -10, 250 not shown)`); the hunks none of whose lines made it into the budget are one line
giving where they start and the section git named (`... 3 hunks not shown (at lines 12, 80:
def main():)`), and a file none of whose lines printed is its one line (`a.py (+5 -3, 2 hunks not
shown at lines 8: def f():; 90)`, `new.md (new, +40, not shown)`); one closing line names the
command that shows one file whole (content elided: recall).
The lines of a deleted file are left out: its line says so (`old.py (deleted, -84)`). A lockfile,
minified bundle or source map (`is_generated`) prints its first few changed lines apart from the
budget (`package-lock.json (generated, +412 -380, 786 not shown)`).
Drops: `index`, `---`/`+++` lines (the file line names the file), the other context lines (content
elided: the recall hint follows).
Combined diffs of merges (`diff --cc`) work the same way. Lines it does not know pass through.
"""
from __future__ import annotations

from rtk.filters.base import FilterContext, Line, Stream
from rtk.filters.git.common import GitFilter, out
from rtk.filters.git.hunk import UNLIMITED, Budget, Hunk
from rtk.filters.git.log_lines import hunk_marker, new_start

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from rtk.filters.base import Filter

MAX_UNSHOWN_STARTS = 60  # start lines listed for one file's hunks not shown
SECTIONS_NAMED, SECTION_CHARS = 4, 48  # the first few of them also say git's section, cut short
LOCATOR_BASE, LOCATOR_SCALE = 60, 2  # start lines listed over the whole output: 60 + 2 * sqrt(hunks)
FILE_START = ("diff --git ", "diff --cc ", "diff --combined ")
HEADER_TAGS = {
    "new file mode ": "new", "deleted file mode ": "deleted",
}
FILE_HOLD = 200
# A diff an agent reads whole (tens of KB, ~20 files, a few hundred changed lines) prints every
# changed line (sized.py); only a larger one folds, to the compact budget (issue 33).
WHOLE_BASE = 500
BUDGET_BASE, BUDGET_SCALE = 40, 2
CONTEXT_FLAGS = ("-U", "--unified", "-W", "--function-context", "--inter-hunk-context")
# Files a tool writes (lockfiles, minified bundles, source maps): a few changed lines say what
# kind of change it is (a version bump, a rebuild); the rest is the tool's, not the author's.
GENERATED_LINES = 6
GENERATED_NAMES = frozenset((
    "package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock",
    "deno.lock", "Cargo.lock", "poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock", "pixi.lock",
    "composer.lock", "Gemfile.lock", "go.sum", "go.work.sum", "flake.lock", "mix.lock",
    "pubspec.lock", "Podfile.lock", "Package.resolved", "packages.lock.json", "gradle.lockfile",
    "conda-lock.yml", "MODULE.bazel.lock",
))
GENERATED_ENDS = (".lock", ".min.js", ".min.mjs", ".min.css", ".js.map", ".mjs.map", ".css.map")


def is_generated(path: str) -> bool:
    """A lockfile, a minified bundle or a source map, by its name."""
    name = path.rsplit("/", 1)[-1].strip('"')
    return name in GENERATED_NAMES or name.endswith(GENERATED_ENDS)


def split_git_names(rest: str) -> str:
    """`a/x b/x` -> `x`; when the halves differ (a rename) the new name, best effort."""
    half = (len(rest) - 1) // 2
    old, new = rest[:half], rest[half + 1:]
    if old[2:] == new[2:] and old[:2] == "a/" and new[:2] == "b/":
        return old[2:]
    return rest


def cut_section(section: str) -> str:
    """git's section (`def pager(generator: t.Iterable[str], ...`) cut at a word's end: its start
    names the function or heading."""
    if len(section) <= SECTION_CHARS:
        return section
    cut = section[:SECTION_CHARS + 1]
    space = cut.rfind(" ", SECTION_CHARS // 2)
    return cut[:space] if space > 0 else cut[:SECTION_CHARS]


class FileDiff:
    """One file's header facts and its kept lines, held until the file ends (up to FILE_HOLD)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.old_name: str | None = None
        self.tags: list[str] = []
        self.added = self.removed = 0
        self.held: list[str] = []
        self.header_shown = False
        self.hidden = 0
        self.own_budget: Budget | None = None  # a generated file's few lines, apart from the output's
        # where the hunks start that printed none of their lines, and the section git named (`def f():`)
        self.unshown: list[tuple[str, str]] = []

    def title(self, with_counts: bool = True) -> str:
        name = f"{self.old_name} -> {self.name}" if self.old_name and self.old_name != self.name else self.name
        parts = list(self.tags)
        counts = " ".join(c for c in (self.added and f"+{self.added}", self.removed and f"-{self.removed}") if c)
        if with_counts and counts:
            parts.append(counts)
        if with_counts and self.hidden:
            parts.append(f"{self.hidden} not shown")
        return f"{name} ({', '.join(parts)})" if parts else name


class DiffParser:
    """Feed patch lines (ANSI stripped); get the lines to print. Not a Filter: show/log use it too."""

    def __init__(self, budget: Budget, fold: bool = True, keep_context: bool = False) -> None:
        self.budget, self.fold, self.keep_context = budget, fold, keep_context
        self.locator = Budget(LOCATOR_BASE, LOCATOR_SCALE) if fold else Budget(UNLIMITED, 0)
        self.file: FileDiff | None = None
        self.hunk: Hunk | None = None
        self.files = 0
        self.elided = False
        self.folded = False  # lines of a file left out: the one-file command is worth a hint
        self.deleted = False
        self.pending_header: str | None = None  # the open hunk's @@ line, printed with its first kept line
        self.hunk_start = ("", "")

    @staticmethod
    def starts(text: str) -> bool:
        return text.startswith(FILE_START)

    def feed(self, text: str) -> list[str] | None:
        """Printed lines, or None when the line is not part of a patch (the caller decides)."""
        if self.hunk is not None and text[:1] in (" ", "+", "-", "\\"):
            return self._hunk_line(text)
        if text.startswith(FILE_START):
            done = self.close()
            return done + self._start(text)
        if self.file is None:
            return None
        if (marker := hunk_marker(text)) is not None:
            return self._close_hunk() + self._open_hunk(text, len(marker) - 1)
        if self.hunk is None and (header := self._header(text)) is not None:
            return header
        return None

    def _start(self, text: str) -> list[str]:
        self.files += 1
        for start in FILE_START:
            if text.startswith(start):
                rest = text[len(start):]
                name = split_git_names(rest) if start == "diff --git " else rest
                self.file = FileDiff(name)
        return []

    def _header(self, text: str) -> list[str] | None:
        file = self.file
        assert file is not None
        for start, tag in HEADER_TAGS.items():
            if text.startswith(start):
                file.tags.append(tag)
                return []
        if text.startswith(("index ", "similarity index ", "dissimilarity index ", "copy from ",
                            "copy to ", "old mode ", "new mode ", "mode ")):
            return self._minor_header(file, text)
        if text.startswith(("rename from ", "rename to ")):
            if text.startswith("rename from "):
                file.old_name = text[12:]
            else:
                file.name = text[10:]
            return []
        if text.startswith(("--- ", "+++ ")):
            return self._names(file, text)
        if text.startswith("Binary files ") and text.endswith(" differ"):
            file.tags.append("binary")
            return []
        return None

    def _minor_header(self, file: FileDiff, text: str) -> list[str]:
        if text.startswith("similarity index "):
            file.tags.append(("copied " if "copy" in file.tags else "renamed ") + text[17:])
        elif text.startswith("copy from "):
            file.old_name, file.tags = text[10:], ["copy", *file.tags]
        elif text.startswith("copy to "):
            file.name = text[8:]
        elif text.startswith("old mode "):
            file.tags.append(f"mode {text[9:]}")
        elif text.startswith("new mode ") and file.tags and file.tags[-1].startswith("mode "):
            file.tags[-1] += f" -> {text[9:]}"
        return []

    @staticmethod
    def _names(file: FileDiff, text: str) -> list[str]:
        path = text[4:].split("\t")[0]
        if path != "/dev/null" and text.startswith("+++ "):
            file.name = path[2:] if path[:2] == "b/" else path
        return []

    def _open_hunk(self, text: str, width: int) -> list[str]:
        self.deleted = self.fold and self.file is not None and "deleted" in self.file.tags
        self.hunk = Hunk(width, Budget(0, 0) if self.deleted else self._hunk_budget(), self.fold, self.keep_context)
        self.locator.seen += 1
        self.pending_header = text
        marker = "@" * (width + 1)
        close = text.find(" " + marker, len(marker))
        section = text[close + len(marker) + 1:].strip() if close >= 0 else ""
        self.hunk_start = (new_start(text) or "?", section)
        return []

    def _hunk_budget(self) -> Budget:
        """The output's budget, or a generated file's own: its churn neither prints nor grows the budget."""
        file = self.file
        if not self.fold or file is None:
            return self.budget
        if file.own_budget is None and is_generated(file.name):
            file.own_budget = Budget(GENERATED_LINES, 0)
            file.tags.append("generated")
        return file.own_budget or self.budget

    def _hunk_line(self, text: str) -> list[str]:
        assert self.hunk is not None and self.file is not None
        kept, plus, minus = self.hunk.add(text)
        self.file.added += plus
        self.file.removed += minus
        return self._shown(kept)

    def _shown(self, lines: list[str]) -> list[str]:
        """Lines of the open hunk to print: its header goes first, once."""
        if lines and self.pending_header is not None:
            lines = [*self._unshown_line(), self.pending_header, *lines]
            self.pending_header = None
        return self._file_lines(lines) if lines else []

    def _unshown_line(self) -> list[str]:
        """`... 3 hunks not shown (at lines 9, 23: jobs:; 53: def main():)`."""
        what, where = self._unshown()
        if not what:
            return []
        return [f"... {what} ({where})" if where else f"... {what}"]

    def _unshown(self) -> tuple[str, str]:
        """How many hunks printed none of their lines, and where they start while the locator
        budget lasts (it grows slowly with the hunks seen, like the lines' budget)."""
        file = self.file
        if file is None or not file.unshown:
            return "", ""
        starts, file.unshown = file.unshown, []
        located = [] if file.own_budget else [s for s in starts[:MAX_UNSHOWN_STARTS] if self.locator.take()]
        what = "1 hunk not shown" if len(starts) == 1 else f"{len(starts)} hunks not shown"
        if not located:
            return what, ""
        groups: list[tuple[list[str], str]] = []
        for n, (line, section) in enumerate(located):
            section = cut_section(section) if n < SECTIONS_NAMED else ""
            if groups and groups[-1][1] == section:
                groups[-1][0].append(line)
            else:
                groups.append(([line], section))
        where = "; ".join(", ".join(lines) + (f": {section}" if section else "") for lines, section in groups)
        more = f"; +{len(starts) - len(located)} more" if len(starts) > len(located) else ""
        return what, f"at {'line' if len(starts) == 1 else 'lines'} {where}{more}"

    def _close_hunk(self) -> list[str]:
        hunk, self.hunk = self.hunk, None
        if hunk is None:
            return []
        lines, elided = hunk.close()
        if self.deleted:
            lines, elided = [], hunk.changed > 0
        elif self.file is not None:
            self.file.hidden += hunk.hidden
        self.folded = self.folded or (elided and not self.deleted)
        self.elided = self.elided or elided or hunk.context_dropped
        shown = self._shown(lines)
        if self.pending_header is not None and self.file is not None and not self.deleted:
            self.file.unshown.append(self.hunk_start)
        self.pending_header = None
        return shown

    def _file_lines(self, lines: list[str]) -> list[str]:
        file = self.file
        assert file is not None
        if file.header_shown:
            return lines
        file.held.extend(lines)
        if len(file.held) <= FILE_HOLD:
            return []
        file.header_shown = True
        held, file.held = file.held, []
        return [file.title(with_counts=False), *held]

    def close(self) -> list[str]:
        """The current file is over: its line (with counts) and held lines, or its final counts."""
        lines = self._close_hunk() if self.file is not None else []
        file = self.file
        if file is None:
            return []
        if file.unshown and not file.held and not file.header_shown:
            return self._close_unshown(file)
        if file.unshown:
            lines += self._file_lines(self._unshown_line())
        self.file = None
        if file.header_shown:
            hidden = f", {file.hidden} not shown" if file.hidden else ""
            return [*lines, f"({file.name}: +{file.added} -{file.removed}{hidden})"]
        return [file.title(), *file.held]


    def _close_unshown(self, file: FileDiff) -> list[str]:
        """A file none of whose lines printed is one line: `a.py (+5 -3, 2 hunks not shown at lines 8, 90)`,
        `new.py (new, +40, not shown)`."""
        single = len(file.unshown) == 1
        what, where = self._unshown()
        self.file = None
        file.hidden = 0
        title = file.title()
        if single:  # one hunk: "not shown"; where it starts only when that is not the file's start
            what, where = "not shown", "" if where in ("at line 0", "at line 1") else where
        tail = f"{what} {where}" if where else what
        return [f"{title[:-1]}, {tail})" if title.endswith(")") else f"{title} ({tail})"]


class DiffFilter(GitFilter):
    """`git diff` and `git show` of something that is only a patch."""

    def __init__(self, ctx: FilterContext | None = None, whole: bool = False) -> None:
        super().__init__(ctx)
        self.diff = new_parser(self.ctx, whole)

    def starts(self, text: str) -> bool:
        return DiffParser.starts(text)

    def parse(self, text: str, line: str, stream: Stream) -> Iterable[Line]:
        kept = self.diff.feed(text)
        if kept is None:
            return [*out(*self.diff.close()), Line(line, stream)]
        self.elided = self.elided or self.diff.elided
        return out(*kept)

    def flush(self) -> list[Line]:
        lines = out(*self.diff.close())
        self.elided = self.elided or self.diff.elided
        if self.diff.folded:
            lines.extend(out(one_file_hint(self.ctx.argv)))
        return lines

    def progress(self) -> dict[str, int]:
        return {"files": self.diff.files}


def new_parser(ctx: FilterContext, whole: bool = False) -> DiffParser:
    """Without a recall store nothing may be left out: no budget, no folding. `whole`: the budget
    of a diff printed whole (sized.py), else the compact one. A command that asked for context
    (`-U5`, `-W`) gets every context line git printed."""
    if not ctx.recall_enabled:
        return DiffParser(Budget(UNLIMITED, 0), fold=False)
    base = ctx.limit("git_diff_whole_lines", WHOLE_BASE) if whole else ctx.limit("git_diff_budget_base", BUDGET_BASE)
    return DiffParser(Budget(base, ctx.limit("git_diff_budget_scale", BUDGET_SCALE)), keep_context=asks_context(ctx.argv))


def asks_context(argv: tuple[str, ...]) -> bool:
    """`-U5`, `--unified=5`, `-W`: context lines are what the command asked to read."""
    words = argv[1:argv.index("--")] if "--" in argv else argv[1:]
    return any(word.startswith(CONTEXT_FLAGS) for word in words)


def one_file_hint(argv: tuple[str, ...]) -> str:
    """How to see one file whole: the command as typed, limited to a path."""
    words = list(argv[:argv.index("--")] if "--" in argv else argv)
    return f"[folded: `{' '.join(words)} -- PATH` shows one file whole]"


def create(ctx: FilterContext) -> Filter:
    """Printed whole when it is a diff an agent reads, compact when it is larger (sized.py)."""
    if not ctx.recall_enabled:
        return DiffFilter(ctx)
    from rtk.filters.git.sized import SizedPatch

    return SizedPatch(lambda whole: DiffFilter(ctx, whole))
