"""One simple command as permission rules see it: the words bash will execute, and the text as written.

Hosts match their rules on text (Claude Code compares the command with its redirections cut out;
Gemini a JSON-encoded prefix), but what runs is bash's argv after quote removal, escapes, `$'...'`
and line continuations. rtk never answers `allow` unless an allow rule covers both readings, and
steps aside when a deny or ask rule matches either (spec/rewrite.md, "Permissions"). A word the
lexer cannot attest (`$VAR`, a glob, `~`) makes the command non-literal: it can never be allowed,
and a deny rule matches it when the rule could match any text starting with what is certain.
Sans-I/O, standard library only (the hook path).
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.shell.parse import Command, Word

UNCERTAIN_UNQUOTED = frozenset("$`*?[{~<>")
UNCERTAIN_DOUBLE = frozenset("$`")


class Segment:
    """`words`: argv values with the leading assignments; `start`: index of the command word after
    assignments and transparent wrappers; `literal`: every word is what bash passes; `known`: the
    text certain before the first uncertain character (the whole command when literal); `text`:
    the source with redirections cut out, trimmed; `text_start`: the offset in `text` where the
    command word starts; `redirected`: the command has redirections; `certain`: per word, whether
    bash passes exactly that value (all True when `literal`)."""

    __slots__ = ("certain", "known", "literal", "redirected", "start", "text", "text_start", "words")

    def __init__(self, words: tuple[str, ...], start: int, literal: bool, known: str, text: str,
                 text_start: int, redirected: bool = False, certain: tuple[bool, ...] | None = None) -> None:
        self.words, self.start, self.literal, self.known = words, start, literal, known
        self.text, self.text_start, self.redirected = text, text_start, redirected
        self.certain = (literal,) * len(words) if certain is None else certain

    def __repr__(self) -> str:
        return f"Segment({self.words!r}, start={self.start}, literal={self.literal})"

    @property
    def argv(self) -> tuple[str, ...]:
        return self.words[self.start:]

    def joined(self) -> str:
        return " ".join(self.words)

    def peeled(self) -> str:
        return " ".join(self.words[self.start:])

    def text_peeled(self) -> str:
        return self.text[self.text_start:]

    def known_peeled(self) -> str:
        """`known` without the assignments and wrappers (when they are literal)."""
        prefix = " ".join(self.words[:self.start])
        if self.start == 0:
            return self.known
        if self.known.startswith(prefix + " "):
            return self.known[len(prefix) + 1:]
        return ""

    def forms(self) -> tuple[str, ...]:
        """Every reading a deny or ask rule is tried on."""
        return tuple(dict.fromkeys((self.joined(), self.peeled(), self.text, self.text_peeled())))


def of_command(cmd: Command, source: str, start: int | None) -> Segment:
    """The segment of a parsed simple command; `start` None when wrappers could not be peeled."""
    words = cmd.words
    first = len(cmd.assignments) if start is None else min(start, len(words))
    literal = all(w.literal for w in words)
    known = " ".join(w.value for w in words) if literal else _known(words)
    text, offsets = _text_without_redirects(cmd, source)
    text_start = offsets.get(words[first].start, 0) if first < len(words) else len(text)
    return Segment(tuple(w.value for w in words), first, literal, known, text, text_start,
                   bool(cmd.redirects), tuple(w.literal for w in words))


def of_words(words: list[str], start: int = 0) -> Segment:
    """A segment from plain argv values (tests and callers without source text)."""
    text = " ".join(words)
    at = len(" ".join(words[:start])) + (1 if start else 0)
    return Segment(tuple(words), start, True, text, text, min(at, len(text)))


def derived(words: tuple[str, ...], certain: tuple[bool, ...]) -> Segment:
    """A command another one runs (`find -exec`, `xargs`, git without its global options), as a
    segment of its own: the text is the words joined; an uncertain word ends what is known."""
    literal = all(certain)
    if literal:
        known = " ".join(words)
    else:
        cut = certain.index(False)
        known = " ".join(words[:cut]) + (" " if cut else "")
    return Segment(words, 0, literal, known, " ".join(words), 0, False, certain)


def _known(words: list[Word]) -> str:
    """The values up to the first uncertain character (an expansion, a glob, `~`, `{`)."""
    out: list[str] = []
    for word in words:
        if word.literal:
            out.append(word.value)
            continue
        cut = _first_uncertain(word)
        out.append(word.value[:cut])
        break
    return " ".join(out)


def _first_uncertain(word: Word) -> int:
    for k, ch in enumerate(word.value):
        ctx = word.contexts[k] if k < len(word.contexts) else "u"
        if (ctx == "u" and ch in UNCERTAIN_UNQUOTED) or (ctx == "d" and ch in UNCERTAIN_DOUBLE):
            return k
    return 0


def _text_without_redirects(cmd: Command, source: str) -> tuple[str, dict[int, int]]:
    """The command's source with every redirection cut out, trimmed; and for each word start its
    offset in that text."""
    spans = sorted((r.start, r.end) for r in cmd.redirects)
    pieces: list[str] = []
    pos, size = cmd.start, 0
    kept: list[tuple[int, int]] = []  # (source offset, text offset) at the start of each piece
    for start, end in [*spans, (cmd.end, cmd.end)]:
        if start > pos:
            kept.append((pos, size))
            pieces.append(source[pos:start])
            size += start - pos
        pos = max(pos, end)
    raw = "".join(pieces)
    lead = len(raw) - len(raw.lstrip())
    text = raw.strip()
    offsets = {}
    for word in cmd.words:
        for src_at, txt_at in reversed(kept):
            if word.start >= src_at:
                offsets[word.start] = txt_at + word.start - src_at - lead
                break
    return text, offsets
