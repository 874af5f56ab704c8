"""One shell word: quote removal, escapes and expansions, with offsets (spec/rewrite.md, "Lexing").

`read_word` reads the word at the lexer's position the way bash would: single and double quotes,
backslashes, `$'...'` escapes, `$VAR` / `${VAR}`, and substitutions (whose inner command the lexer
reads, so they can be reported). The `Word` keeps its source text and offset and its value after
quote removal (what bash passes in argv), with per-character offsets and quoting, so the rewrite
engine can splice `rtk ` into the original text. Sans-I/O, and cheap to import: no `re`, no
`typing` at run time, because this runs before every agent command.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Protocol

    class Lexer(Protocol):
        """What a word needs of the lexer reading it (parse.Lexer): its text and position, where
        problems and substitutions are reported, and a reader for `$(...)`."""

        src: str
        pos: int
        problems: list[str]
        substitutions: list[str]

        def substitution(self, start: int, what: str) -> int: ...

WORD_END = frozenset(" \t\n|&;()<>")
ANSI_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
               "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
DQ_ESCAPABLE = frozenset('$`"\\\n')
NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
NAME_CHARS = NAME_START | frozenset("0123456789")
SPECIAL_PARAMS = frozenset("@*#?$!-0123456789")
OCTAL = frozenset("01234567")
HEX = frozenset("0123456789abcdefABCDEF")


def name_end(text: str, pos: int) -> int:
    """End of the shell name (`[A-Za-z_][A-Za-z0-9_]*`) starting at `pos`; `pos` when there is none."""
    if pos >= len(text) or text[pos] not in NAME_START:
        return pos
    end = pos + 1
    while end < len(text) and text[end] in NAME_CHARS:
        end += 1
    return end


def is_assignment(text: str) -> bool:
    """`NAME=...`, `NAME+=...` or `NAME[sub]=...` as a command's leading word."""
    end = name_end(text, 0)
    if end == 0:
        return False
    if text.startswith("[", end):
        close = text.find("]", end + 1)
        if close < 0:
            return False
        end = close + 1
    if text.startswith("+", end):
        end += 1
    return text.startswith("=", end)


def _has_brace_list(projection: str) -> bool:
    """An unquoted `{a,b}` or `{1..3}` (no braces inside): bash would expand the word."""
    opened = -1
    for i, ch in enumerate(projection):
        if ch == "{":
            opened = i
        elif ch == "}":
            if opened >= 0 and ("," in projection[opened + 1:i] or ".." in projection[opened + 1:i]):
                return True
            opened = -1
    return False


def _run_of(src: str, start: int, allowed: frozenset[str], limit: int) -> str:
    """The longest run (at most `limit` chars) of `allowed` characters at `start`."""
    end = start
    while end < len(src) and end - start < limit and src[end] in allowed:
        end += 1
    return src[start:end]


class Record:
    """A plain slotted record: `@dataclass` costs ~0.3 ms per class at import, and this module is
    imported before every agent command."""

    __slots__ = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        cls._fields = tuple(name for name in cls.__annotations__ if not name.startswith("_"))

    def __init__(self, *args: Any) -> None:
        for name, value in self._defaults.items():
            setattr(self, name, value)
        for name, value in zip(self._fields, args, strict=False):
            setattr(self, name, value)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"


class ShellSyntaxError(Exception):
    """The text is not a complete shell command (unterminated quote, stray operator, ...)."""


class Word(Record):
    """One word: its source text and offset, and its value after quote removal.

    `offsets[i]` is the source offset of value character i and `contexts[i]` its quoting
    (u unquoted, s single, d double, a `$'...'`). `literal` is False when an expansion ($VAR, ~,
    a glob or a brace list) means bash may pass something else than `value`.
    """

    __slots__ = ("contexts", "literal", "offsets", "start", "text", "value")
    _defaults: ClassVar[dict[str, Any]] = {"literal": True, "offsets": (), "contexts": ""}

    text: str
    start: int
    value: str
    literal: bool
    offsets: tuple[int, ...]
    contexts: str

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    @property
    def is_assignment(self) -> bool:
        return is_assignment(self.text)

    @property
    def assigned_name(self) -> str:
        return self.text.split("=", 1)[0].rstrip("+").split("[", 1)[0]



def read_word(lexer: Lexer) -> Word:
    """The word at the lexer's position; the lexer's position moves past it."""
    builder = _WordBuilder(lexer, lexer.pos)
    builder.read()
    return builder.finish()


class _WordBuilder:
    """Reads one word from the lexer's position, recording value, offsets and quoting per char."""

    def __init__(self, lexer: Lexer, start: int) -> None:
        self.lx, self.src, self.start = lexer, lexer.src, start
        self.chars: list[str] = []
        self.offsets: list[int] = []
        self.contexts: list[str] = []
        self.literal = True
        self.projection: list[str] = []

    def add(self, text: str, offset: int, ctx: str) -> None:
        for ch in text:
            self.chars.append(ch)
            self.offsets.append(offset)
            self.contexts.append(ctx)
            self.projection.append(ch if ctx == "u" else "x")

    def read(self) -> None:
        src, lx = self.src, self.lx
        while lx.pos < len(src):
            c = src[lx.pos]
            if src.startswith(("<(", ">("), lx.pos):
                self._substitution(lx.pos + 2, f"process substitution {c}(...)")
            elif c in WORD_END:
                return
            elif c == "\\":
                self._backslash()
            elif c == "'":
                self._single()
            elif c == '"':
                lx.pos += 1
                self._double()
            elif c in "$`":
                self._dollar_or_backtick("u")
            else:
                self._plain(c)

    def _plain(self, c: str) -> None:
        if c in "*?[" or (c == "~" and not self.chars):
            self.literal = False
        self.add(c, self.lx.pos, "u")
        self.lx.pos += 1

    def _backslash(self) -> None:
        lx = self.lx
        nxt = self.src[lx.pos + 1:lx.pos + 2]
        if nxt == "\n":
            lx.pos += 2
        elif nxt == "":
            self.add("\\", lx.pos, "u")
            lx.pos += 1
        else:
            self.add(nxt, lx.pos, "q")
            lx.pos += 2

    def _single(self) -> None:
        lx = self.lx
        end = self.src.find("'", lx.pos + 1)
        if end < 0:
            raise ShellSyntaxError("unterminated single quote")
        for i in range(lx.pos + 1, end):
            self.add(self.src[i], i, "s")
        lx.pos = end + 1

    def _double(self) -> None:
        src, lx = self.src, self.lx
        while True:
            if lx.pos >= len(src):
                raise ShellSyntaxError("unterminated double quote")
            c = src[lx.pos]
            if c == '"':
                lx.pos += 1
                return
            if c == "\\" and src[lx.pos + 1:lx.pos + 2] in DQ_ESCAPABLE and lx.pos + 1 < len(src):
                if src[lx.pos + 1] != "\n":
                    self.add(src[lx.pos + 1], lx.pos, "d")
                lx.pos += 2
            elif c in "$`":
                self._dollar_or_backtick("d")
            else:
                self.add(c, lx.pos, "d")
                lx.pos += 1

    def _dollar_or_backtick(self, ctx: str) -> None:
        src, pos = self.src, self.lx.pos
        nxt = src[pos + 1:pos + 2]
        if src[pos] == "`":
            self._backtick()
        elif src.startswith("$((", pos):
            self._substitution(pos + 2, "arithmetic expansion $((...))")
        elif nxt == "(":
            self._substitution(pos + 2, "command substitution $(...)")
        elif nxt == "{":
            self._parameter(ctx)
        elif ctx == "u" and nxt == "'":
            self._ansi_c()
        elif ctx == "u" and nxt == '"':
            self.lx.pos += 2
            self._double()
        elif nxt and (nxt in SPECIAL_PARAMS or nxt in NAME_START):
            end = name_end(src, pos + 1)
            end = end if end > pos + 1 else pos + 2
            self._expansion(pos, end, ctx)
        else:
            self.add("$", pos, ctx)
            self.lx.pos += 1

    def _expansion(self, start: int, end: int, ctx: str) -> None:
        self.add(self.src[start:end], start, ctx)
        self.literal = False
        self.lx.pos = end

    def _parameter(self, ctx: str) -> None:
        src, start = self.src, self.lx.pos
        end = src.find("}", start + 2)
        if end < 0:
            raise ShellSyntaxError("unterminated ${")
        body = src[start + 2:end]
        if any(c in body for c in "$`'\"\\({"):
            self.lx.problems.append(f"parameter expansion {src[start:end + 1]}")
        self._expansion(start, end + 1, ctx)

    def _substitution(self, inner_start: int, what: str) -> None:
        end = self.lx.substitution(inner_start, what)
        self._expansion(self.lx.pos, end + 1, "u")

    def _backtick(self) -> None:
        src, start = self.src, self.lx.pos
        i, inner = start + 1, []
        while i < len(src) and src[i] != "`":
            if src[i] == "\\" and i + 1 < len(src) and src[i + 1] in "\\`$":
                i += 1
            inner.append(src[i])
            i += 1
        if i >= len(src):
            raise ShellSyntaxError("unterminated backtick")
        self.lx.problems.append("backtick substitution `...`")
        self.lx.substitutions.append("".join(inner))
        self._expansion(start, i + 1, "u")

    def _ansi_c(self) -> None:
        src, lx = self.src, self.lx
        lx.pos += 2
        while True:
            if lx.pos >= len(src):
                raise ShellSyntaxError("unterminated $'")
            c = src[lx.pos]
            if c == "'":
                lx.pos += 1
                return
            if c != "\\":
                self.add(c, lx.pos, "a")
                lx.pos += 1
                continue
            text, length = _ansi_escape(src, lx.pos)
            lx.pos += length
            if "\0" in text:  # bash ends the $'...' string at a NUL byte
                self._skip_ansi_rest()
                return
            self.add(text, lx.pos - length, "a")

    def _skip_ansi_rest(self) -> None:
        src, lx = self.src, self.lx
        while lx.pos < len(src) and src[lx.pos] != "'":
            lx.pos += 2 if src[lx.pos] == "\\" else 1
        if lx.pos >= len(src):
            raise ShellSyntaxError("unterminated $'")
        lx.pos += 1

    def finish(self) -> Word:
        text = self.src[self.start:self.lx.pos]
        if not text:
            raise ShellSyntaxError(f"unexpected {self.src[self.lx.pos:self.lx.pos + 1]!r}")
        projection = "".join(self.projection)
        tilde = is_assignment(text) and ("=~" in projection or ":~" in projection)
        if ("{" in projection and _has_brace_list(projection)) or tilde:
            self.literal = False
        return Word(text, self.start, "".join(self.chars), self.literal, tuple(self.offsets),
                    "".join(self.contexts))


def _ansi_escape(src: str, pos: int) -> tuple[str, int]:
    """Decode the `$'...'` escape at `pos` (a backslash): (text, source length)."""
    c = src[pos + 1:pos + 2]
    if c in ANSI_SIMPLE:
        return ANSI_SIMPLE[c], 2
    if c in "01234567" and c:
        octal = _run_of(src, pos + 1, OCTAL, 3)
        return _byte(int(octal, 8) & 0xFF), 1 + len(octal)
    if c == "x" and src.startswith("{", pos + 2):  # bash's \x{HHH...}: low byte, NUL if empty
        hexa = _run_of(src, pos + 3, HEX, len(src))
        closed = src.startswith("}", pos + 3 + len(hexa))
        return _byte(int(hexa or "0", 16) & 0xFF), 3 + len(hexa) + closed
    if c in ("x", "u", "U"):
        limit = {"x": 2, "u": 4, "U": 8}[c]
        hexa = _run_of(src, pos + 2, HEX, limit)
        if not hexa:
            return "\\" + c, 2
        code = int(hexa, 16)
        text = _byte(code) if c == "x" else (chr(code) if code < 0x110000 else "\\" + c)
        return text, 2 + len(hexa)
    if c == "c" and pos + 2 < len(src):
        return chr(ord(src[pos + 2].upper()) & 0x1F), 3
    return "\\" + c, 1 + len(c)


def _byte(value: int) -> str:
    """One byte as a str character: ASCII as is, others as surrogate escapes (bash passes bytes)."""
    return chr(value) if value < 0x80 else chr(0xDC00 + value)
