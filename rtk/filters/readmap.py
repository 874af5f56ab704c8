"""A reader's map: past the host's window, what a reading command printed, as a map to ask from.

Claude Code shows a command's output whole up to 30,000 chars; past that, the model gets a ~2 KB
preview. A command that READS (cat of a file, `git diff`/`show`/`log -p`, listings, JSON, logs)
printed something the agent may want any part of, and can get any part cheaply: so there a
page of rtk's filtered output is worth less than a map. The map says what it is and how big,
shows the start (at least what the host's preview shows: never fewer facts than it), the outline
of the rest with line numbers (definitions and headings, commits, files and hunks, directories,
keys, distinct errors: map_outlines.py), the end, and how to get any part (`sed -n 'A,Bp' FILE`,
`git diff -- PATH`, `rtk recall ID --head B --tail N`, `--grep`). The writer (rtk.run.budgeted)
sizes it to at most twice the host preview's tokens and prints it only when it is smaller than
rtk's own form. Runners (tests, builds, linters) never get a map: their output is expensive to
produce again. Under the window nothing changes.

`mapped(filter, argv, name)` wraps a reader's filter so that the map sees every raw line it is fed.
"""
from __future__ import annotations

import os

from rtk.filters.base import deque, strip_ansi

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Protocol

    from rtk.filters.base import Filter, Line, Stream

    class Outliner(Protocol):
        """Says where the places of an output are (map_outlines.py, content/outline.py)."""

        def see(self, number: int, text: str) -> None: ...

        def render(self, first: int, last: int, max_chars: int) -> list[str]: ...

PREVIEW_CHARS = 2_000  # what Claude Code shows of an output past its window
PREVIEW_NOTICE = "Output too large (46KB). Full output saved to: /tmp/claude/tool-results/x.txt\n\nPreview (first 2KB):\n"
END_CHARS = 1_200  # the end kept while reading; the map shows what its room allows
LINE_CHARS = 300  # a line of the end or the outline is cut here
HOLD_CHARS = 32 * 1024  # lines held before the outliner is made (past Claude's 30,000 chars)
GIT_DIFFS = ("diff", "show")
LISTINGS = frozenset({"find", "fd", "fdfind", "ls", "tree", "grep", "egrep", "fgrep", "rg"})
LOG_NAMES = (".log", ".out", ".err", ".log.1")


class ReadMap:
    """Fed every raw line (`see`); `render` gives the map within the room it is given.

    `kind` names the outliner (`diff`, `listing`, `log`, or `file:NAME`); it is made, and `re`
    imported, only once the output is past HOLD_CHARS (or a map is asked for): until then the
    lines are held, so a short read costs no regex."""

    def __init__(self, what: str, kind: str, part: Callable[[int, int], str] | None, start: int = 1,
                 one_file: str = "") -> None:
        self.what, self.kind, self.part, self.start = what, kind, part, start
        self.one_file = one_file  # how to print one file of a diff (`git diff -- PATH`)
        self.outline: Outliner | None = None
        self.held: list[str] | None = []  # the lines, until the outliner is made
        self.count = self.chars = 0
        self.head: list[str] = []
        self.head_chars = 0
        self.tail: deque[str] = deque()
        self.tail_chars = 0

    def see(self, text: str) -> None:
        if "\x1b" in text:
            text = strip_ansi(text)
        self.count += 1
        self.chars += len(text) + 1
        if self.outline is not None:
            self.outline.see(self.start + self.count - 1, text)
        elif self.held is not None:
            self.held.append(text)
            if self.chars > HOLD_CHARS:
                self._outliner()
        if self.head_chars < PREVIEW_CHARS:
            shown = text if self.head_chars + len(text) <= PREVIEW_CHARS + LINE_CHARS else \
                f"{text[:PREVIEW_CHARS + LINE_CHARS - self.head_chars]} [+{len(text):,} chars in all]"
            self.head.append(shown)
            self.head_chars += len(text) + 1
            return
        self.tail.append(text[:LINE_CHARS])
        self.tail_chars += min(len(text), LINE_CHARS) + 1
        while self.tail_chars > END_CHARS and len(self.tail) > 1:
            self.tail_chars -= len(self.tail.popleft()) + 1

    def _outliner(self) -> Outliner:
        if self.outline is None:
            self.outline = _make_outliner(self.kind)
            for number, text in enumerate(self.held or (), self.start):
                self.outline.see(number, text)
            self.held = None
        return self.outline

    def preview(self) -> str:
        """What the host alone would show (its notice and the first 2,000 chars)."""
        return PREVIEW_NOTICE + "\n".join(self.head)[:PREVIEW_CHARS]

    def render(self, recall_id: str | None, outline_chars: int, end_chars: int) -> list[str]:
        tail = self._end(end_chars)
        first, last = self.start + len(self.head), self.start + self.count - len(tail) - 1
        title = f"[rtk: {self.what}: {self.count:,} lines, {self.chars:,} chars; a map (the host would show its first 2 KB)]"
        out = [title, *self.head]
        if last >= first:
            get = f"; print them: {self.part(first, last)}" if self.part else ""
            out.append(f"... lines {first:,}-{last:,} not shown ({last - first + 1:,} lines){get}")
            out.extend(self._outliner().render(first, last, outline_chars))
        out.extend(tail)
        out.append(self._how(recall_id))
        return out

    def _end(self, room: int) -> list[str]:
        tail = list(self.tail)
        while tail and sum(len(t) + 1 for t in tail) > room:
            tail.pop(0)
        return tail

    def _how(self, recall_id: str | None) -> str:
        ways = [f"lines A-B: {self.part_hint()}"] if self.part else []
        if self.one_file:
            ways.append(f"one file: {self.one_file}")
        if recall_id:
            ways.append(f"the output's lines A-B: rtk recall {recall_id} --head B --tail N (N = B-A+1), "
                        f"matches: rtk recall {recall_id} --grep REGEX, all: rtk recall {recall_id}")
        return "[rtk: any part: " + "; ".join(ways) + "]" if ways else "[rtk: the full output was not kept]"

    def part_hint(self) -> str:
        return self.part(0, 0).replace("0,0", "A,B") if self.part else ""


class Mapped:
    """A reader's filter, unchanged, whose raw lines its map sees too (the pipeline reads its
    attributes through this; no byte path, so that every line reaches the map)."""

    feed_block = None

    def __init__(self, inner: Filter, read_map: ReadMap) -> None:
        self.inner, self.read_map = inner, read_map

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        self.read_map.see(line)
        return self.inner.feed(line, stream)

    def finish(self, exit_code: int) -> Iterable[Line]:
        return self.inner.finish(exit_code)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


def mapped(filt: Filter, argv: Sequence[str], name: str) -> Filter:
    """`filt` wrapped with a map when the command reads (see the module docstring), else `filt`."""
    read_map = map_for(argv, name)
    return filt if read_map is None else Mapped(filt, read_map)  # type: ignore[return-value]


def _make_outliner(kind: str) -> Outliner:
    from rtk.filters import map_outlines as mo
    from rtk.filters.content.outline import Outline

    kinds = {"diff": mo.DiffOutline, "listing": mo.ListingOutline, "log": mo.LogOutline}
    return kinds[kind]() if kind in kinds else Outline(kind.partition(":")[2])


def map_for(argv: Sequence[str], name: str) -> ReadMap | None:
    words = list(argv)
    prog = os.path.basename(words[0]) if words else ""
    sub = next((w for w in words[1:] if not w.startswith("-")), "") if prog == "git" else ""
    if name == "content":
        return _file_map(words)
    if prog == "git" and (sub in GIT_DIFFS or sub == "log" and _patch(words)):
        return ReadMap(f"`{_shown(words)}`", "diff", None, one_file=_one_file(words, sub))
    if name == "diff":
        return ReadMap("the diff", "diff", None)
    if name == "json":
        return ReadMap("the JSON", "file:output.json", None)
    if prog == "git" and sub == "log":
        return ReadMap("the log", "diff", None)
    if name in LISTINGS or prog in LISTINGS or (prog == "git" and sub in ("ls-files", "grep")):
        return ReadMap("the listing", "listing", None)
    return None


def _shown(words: list[str]) -> str:
    from rtk.shell.quote import join_words

    text = join_words(words)
    return text if len(text) <= 80 else text[:77] + "..."


def _one_file(words: list[str], sub: str) -> str:
    """The command that prints one file of this diff: the same with `-- PATH` (log -p: git show)."""
    from rtk.shell.quote import join_words

    if sub == "log":
        return "git show COMMIT -- PATH"
    before = words[:words.index("--")] if "--" in words else words
    return f"{join_words(before)} -- PATH"


def _patch(words: list[str]) -> bool:
    return any(w in ("-p", "-u", "--patch") or w.startswith(("-U", "--unified")) for w in words[1:])


def _file_map(words: list[str]) -> ReadMap:
    from rtk.filters.content import sed_print_range
    from rtk.filters.content.origin import Origin

    is_sed = os.path.basename(words[0]) == "sed" if words else False
    origin = Origin(words, sed_print_range(words) if is_sed else None)
    name = origin.name or ""
    part = origin.command_for if origin.file is not None else None
    return ReadMap(name or "the text", "log" if name.endswith(LOG_NAMES) else f"file:{name}", part, origin.start)
