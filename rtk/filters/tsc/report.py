"""How the tsc filter prints diagnostics: grouped by file, one compact line each, one summary.

A file's errors go under one line naming the file (named again every `REPEAT_FILE_EVERY` lines of
a long group, so a reader never scrolls far for it); each error is `  L12:5 CODE message`
followed by its continuation lines and related locations. Identical errors of one file share
one line listing all their locations (`  L12:5, L40:3 TS2580 ...`). A message already printed
in full for another file is printed as a reference to that first occurrence when the reference
is shorter: nothing is lost, the text is further up.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rtk.filters.base import Line, Stream
from rtk.filters.tsc.lines import Header

REPEAT_FILE_EVERY = 40
MAX_REMEMBERED = 10_000
MAX_CODES = 5  # codes named in the summary line
MAX_HELD = 2_000  # diagnostics of one file held before printing part of its group


@dataclass
class Diagnostic:
    """One diagnostic being read: its header, message chain and related locations."""

    head: Header
    stream: Stream
    chain: list[str] = field(default_factory=list)
    related: list[tuple[str | None, list[str]]] = field(default_factory=list)
    framed: bool = False  # a blank line was seen: what follows is code frame or related info

    def add_related_message(self, text: str) -> None:
        body = text[4:] if text.startswith("    ") else text.lstrip()
        if not self.related:
            self.related.append((None, []))
        self.related[-1][1].append(body)


class Report:
    """Counts and prints the diagnostics of one compile (one `--watch` cycle).

    Diagnostics of a file are held until the output moves on to another file (`flush`), so that
    identical ones can share one line listing all their locations.
    """

    def __init__(self) -> None:
        self.codes: Counter[str] = Counter()
        self.categories: Counter[str] = Counter()
        self.files: dict[str, None] = {}
        self.reported: int | None = None
        self._first: dict[tuple[str, ...], str] = {}
        self._file: str | None = None
        self._printed_file: str | None = None
        self._group: dict[tuple[str, ...], tuple[list[str], Diagnostic]] = {}
        self._held = 0
        self._group_lines = 0

    @property
    def empty(self) -> bool:
        return not self.categories and not self.reported

    def count(self, diag: Diagnostic) -> None:
        """Count a diagnostic that is not printed again (`--watch`: unchanged since the last compile)."""
        head = diag.head
        self.codes[head.code] += 1
        self.categories[head.category] += 1
        if head.file is not None:
            self.files.setdefault(head.file)

    def add(self, diag: Diagnostic) -> list[Line]:
        """Count a finished diagnostic; the lines that can be printed now."""
        head = diag.head
        self.count(diag)
        if head.file is None:
            out = self.flush()
            self._printed_file = None
            return out + [Line(f"{head.category} {head.code}: {head.message}", diag.stream),
                          *(Line(text, diag.stream) for text in diag.chain)]
        out = self.flush() if head.file != self._file or self._held >= MAX_HELD else []
        self._file = head.file
        key = (head.category, head.code, head.message, *diag.chain, *_related_key(diag))
        self._group.setdefault(key, ([], diag))[0].append(head.pos)
        self._held += 1
        return out

    def new_section(self) -> list[Line]:
        """Another `--build` project starts: print what is held; its first file is named again."""
        out = self.flush()
        self._printed_file = None
        return out

    def next_file(self, file: str | None) -> list[Line]:
        """A diagnostic of `file` starts: the group of another file is complete."""
        return self.flush() if file != self._file else []

    def flush(self) -> list[Line]:
        """Print the held group of the current file."""
        group, self._group, self._held = self._group, {}, 0
        if not group or self._file is None:
            return []
        texts: list[str] = []
        for positions, diag in group.values():
            entry = self._entry(positions, diag)
            texts.extend(self._group_header(self._file))
            texts.extend(entry)
            self._group_lines += len(entry)
        stream = next(iter(group.values()))[1].stream
        return [Line(text, stream) for text in texts]

    def _group_header(self, file: str) -> list[str]:
        if file != self._printed_file:
            self._printed_file, self._group_lines = file, 0
            return [file]
        if self._group_lines >= REPEAT_FILE_EVERY:
            self._group_lines = 0
            return [f"{file} (continued)"]
        return []

    def _entry(self, positions: list[str], diag: Diagnostic) -> list[str]:
        head = diag.head
        kind = "" if head.category == "error" else f"{head.category} "
        where = ", ".join(f"L{pos}" for pos in positions)
        lines = [f"  {where} {kind}{head.code} {head.message}", *(f"  {c}" for c in diag.chain)]
        reference = self._reference(diag, positions[0], lines)
        if reference is not None:
            lines = [f"  {where} {kind}{head.code} same message as {reference}"]
        for loc, messages in diag.related:
            lines.extend(_related_lines(loc, messages))
        return lines

    def _reference(self, diag: Diagnostic, pos: str, lines: list[str]) -> str | None:
        """Where this message was printed before, if saying so is shorter than repeating it."""
        head = diag.head
        key = (head.category, head.code, head.message, *diag.chain)
        first = self._first.get(key)
        if first is None:
            if len(self._first) < MAX_REMEMBERED:
                self._first[key] = f"{head.file}:{pos}"
            return None
        length = len(head.message) + sum(len(text) for text in diag.chain)
        return first if len(first) + 16 < length else None

    def summary(self, tail: str = "") -> str:
        errors = self.categories["error"]
        if not self.categories:
            text = "tsc: no errors"
        else:
            where = f" in {plural(len(self.files), 'file')}" if self.files else ""
            others = "".join(f", {plural(n, cat)}" for cat, n in self.categories.items() if cat != "error")
            text = f"tsc: {plural(errors, 'error')}{where}{others} ({_codes(self.codes)})"
        if self.reported is not None and self.reported > errors:
            text += f"; tsc reported {plural(self.reported, 'error')}"
        return text + tail


def plural(count: int, noun: str) -> str:
    """`1 error`, `2478 errors`: digits as tsc writes them (`Found 2478 errors`), no separator."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _codes(codes: Counter[str]) -> str:
    """`TS2322 x3, TS2345 x2, ...`: the most frequent codes; every code is on its error's line."""
    ranked = codes.most_common()
    shown = ranked if len(ranked) <= MAX_CODES + 1 else ranked[:MAX_CODES]
    text = ", ".join(f"{code} x{n}" for code, n in shown)
    rest = len(ranked) - len(shown)
    return f"{text}, +{rest} more codes" if rest else text


def identity(diag: Diagnostic) -> tuple[str, ...]:
    """What makes a diagnostic the same one in the next `--watch` compile."""
    head = diag.head
    return (head.file or "", head.pos, head.category, head.code, head.message, *diag.chain, *_related_key(diag))


def _related_key(diag: Diagnostic) -> list[str]:
    return [f"{loc}|{'|'.join(messages)}" for loc, messages in diag.related]


def _related_lines(loc: str | None, messages: list[str]) -> list[str]:
    if not messages:
        return [f"    {loc}"] if loc else []
    first = f"    {loc}: {messages[0]}" if loc else f"    {messages[0]}"
    return [first, *(f"      {text}" for text in messages[1:])]
