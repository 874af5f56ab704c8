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

    from rtk.filters.base import Filter, Line, Stream

PREVIEW_CHARS = 2_000  # what Claude Code shows of an output past its window
PREVIEW_NOTICE = "Output too large (46KB). Full output saved to: /tmp/claude/tool-results/x.txt\n\nPreview (first 2KB):\n"
END_CHARS = 1_200  # the end kept while reading; the map shows what its room allows
LINE_CHARS = 300  # a line of the end or the outline is cut here
GIT_DIFFS = ("diff", "show")
LISTINGS = frozenset({"find", "fd", "fdfind", "ls", "tree", "grep", "egrep", "fgrep", "rg"})
LOG_NAMES = (".log", ".out", ".err", ".log.1")


class ReadMap:
    """Fed every raw line (`see`); `render` gives the map within the room it is given."""

    def __init__(self, what: str, outline: object, part: Callable[[int, int], str] | None, start: int = 1,
                 one_file: str = "") -> None:
        self.what, self.outline, self.part, self.start = what, outline, part, start
        self.one_file = one_file  # how to print one file of a diff (`git diff -- PATH`)
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
        self.outline.see(self.start + self.count - 1, text)  # type: ignore[attr-defined]
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
            out.extend(self.outline.render(first, last, outline_chars))  # type: ignore[attr-defined]
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


def map_for(argv: Sequence[str], name: str) -> ReadMap | None:
    from rtk.filters import map_outlines as mo

    words = list(argv)
    prog = os.path.basename(words[0]) if words else ""
    sub = next((w for w in words[1:] if not w.startswith("-")), "") if prog == "git" else ""
    if name == "content":
        return _file_map(words)
    if prog == "git" and (sub in GIT_DIFFS or sub == "log" and _patch(words)):
        return ReadMap(f"`{_shown(words)}`", mo.DiffOutline(), None, one_file=_one_file(words, sub))
    if name == "diff":
        return ReadMap("the diff", mo.DiffOutline(), None)
    if name == "json":
        from rtk.filters.content.outline import Outline

        return ReadMap("the JSON", Outline("output.json"), None)
    if prog == "git" and sub == "log":
        return ReadMap("the log", mo.DiffOutline(), None)
    if name in LISTINGS or prog in LISTINGS or (prog == "git" and sub in ("ls-files", "grep")):
        return ReadMap("the listing", mo.ListingOutline(), None)
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
    from rtk.filters import map_outlines as mo
    from rtk.filters.content import sed_print_range
    from rtk.filters.content.origin import Origin
    from rtk.filters.content.outline import Outline

    is_sed = os.path.basename(words[0]) == "sed" if words else False
    origin = Origin(words, sed_print_range(words) if is_sed else None)
    name = origin.name or ""
    outline = mo.LogOutline() if name.endswith(LOG_NAMES) else Outline(name)
    what = f"{name or 'the text'}"
    part = origin.command_for if origin.file is not None else None
    return ReadMap(what, outline, part, origin.start)
