"""Quote-aware shell lexer and parser for the rewrite engine (spec/rewrite.md, "Lexing").

`parse(source)` turns one command string, as an agent passes it to `bash -c`, into pipelines of
simple commands and groups. Every word keeps its offset in the source and its value after quote
removal (what bash passes in argv), so the caller decides on words and splices `rtk ` into the
original text: nothing is ever re-joined or re-quoted. Constructs rtk cannot attest (command,
process and arithmetic substitution, heredocs, keywords, syntax errors) are collected in
`Script.problems`; the commands found inside substitutions are kept as source in
`Script.substitutions` so permission rules can still see them. Sans-I/O, standard library only.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, ClassVar

OPERATORS = (";;&", "&&", "||", ";;", ";&", "|&", "|", "&", ";", "(", ")", "\n")
REDIRECTS = ("&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">&", ">>", ">|", "<", ">")
WORD_END = frozenset(" \t\n|&;()<>")
SEPARATORS = frozenset({"&&", "||", ";", "&", "\n"})
KEYWORDS = frozenset({"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case",
                      "esac", "function", "select", "coproc", "in", "[[", "]]", "}", "(("})
ANSI_SIMPLE = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
               "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
DQ_ESCAPABLE = frozenset('$`"\\\n')
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
SPECIAL_PARAMS = frozenset("@*#?$!-0123456789")
ASSIGNMENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
BRACE_EXPANSION_RE = re.compile(r"\{[^{}]*(,|\.\.)[^{}]*\}")


class _Record:
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


class Word(_Record):
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
        return ASSIGNMENT_RE.match(self.text) is not None

    @property
    def assigned_name(self) -> str:
        return self.text.split("=", 1)[0].rstrip("+").split("[", 1)[0]


class Redirect(_Record):
    __slots__ = ("fd", "op", "start", "target")

    op: str
    fd: str
    target: Word
    start: int

    @property
    def end(self) -> int:
        return self.target.end

    @property
    def harmless(self) -> bool:
        """fd duplication or closing, or /dev/null: the command's output still reaches the agent."""
        if self.op in ("<<", "<<-", "<<<"):
            return False
        value = self.target.value
        if self.op in (">&", "<&") and self.target.literal and (value.isdigit() or value == "-"):
            return True
        return self.target.literal and value == "/dev/null"


class Op(_Record):
    __slots__ = ("start", "text")

    text: str
    start: int


class Command(_Record):
    """A simple command: words (assignments first) and redirects, with its source span."""

    __slots__ = ("end", "redirects", "start", "words")

    words: list[Word]
    redirects: list[Redirect]
    start: int
    end: int

    @property
    def assignments(self) -> list[Word]:
        out = []
        for word in self.words:
            if not word.is_assignment:
                break
            out.append(word)
        return out

    @property
    def argv(self) -> list[Word]:
        return self.words[len(self.assignments):]

    def text(self, source: str) -> str:
        """The words and redirects as written, joined by single spaces (for permission rules)."""
        parts = sorted([(w.start, w.text) for w in self.words]
                       + [(r.start, source[r.start:r.end]) for r in self.redirects])
        return " ".join(text for _, text in parts)


class Group(_Record):
    __slots__ = ("body", "end", "kind", "redirects", "start")

    kind: str
    body: list[Pipeline]
    redirects: list[Redirect]
    start: int
    end: int


class Pipeline(_Record):
    __slots__ = ("negated", "sep", "stages")
    _defaults: ClassVar[dict[str, Any]] = {"negated": False, "sep": ""}

    stages: list[Command | Group]
    negated: bool
    sep: str


class Script(_Record):
    __slots__ = ("pipelines", "problems", "source", "substitutions")

    source: str
    pipelines: list[Pipeline]
    problems: list[str]
    substitutions: list[str]

    def commands(self) -> Iterator[Command]:
        """Every simple command, groups looked into, in source order."""
        yield from _walk(self.pipelines)


def _walk(pipelines: list[Pipeline]) -> Iterator[Command]:
    for pipeline in pipelines:
        for stage in pipeline.stages:
            if isinstance(stage, Group):
                yield from _walk(stage.body)
            else:
                yield stage


def parse(source: str) -> Script:
    """Lex and parse `source`; never raises. Problems make the command unattestable."""
    lexer = _Lexer(source, 0)
    try:
        lexer.run()
    except (ShellSyntaxError, RecursionError) as exc:
        lexer.problems.append(f"syntax: {exc}")
        return Script(source, _flat(lexer.tokens), lexer.problems, lexer.substitutions)
    parser = _Parser(lexer.tokens, lexer.problems)
    try:
        pipelines = parser.parse_list(None)
    except (ShellSyntaxError, RecursionError) as exc:
        lexer.problems.append(f"syntax: {exc}")
        pipelines = _flat(lexer.tokens)
    return Script(source, pipelines, lexer.problems, lexer.substitutions)


def _flat(tokens: list[Word | Redirect | Op]) -> list[Pipeline]:
    """Fallback after a syntax error: every run of words between operators is one command."""
    pipelines: list[Pipeline] = []
    words: list[Word] = []
    for tok in [*tokens, Op("", -1)]:
        if isinstance(tok, Word):
            words.append(tok)
        elif isinstance(tok, Op) and words:
            pipelines.append(Pipeline([Command(words, [], words[0].start, words[-1].end)]))
            words = []
    return pipelines


class _Lexer:
    """Tokens (words, redirects, operators) from `pos`; with `in_subst`, stops at the `)` that closes."""

    def __init__(self, src: str, pos: int, in_subst: bool = False) -> None:
        self.src, self.pos, self.in_subst = src, pos, in_subst
        self.tokens: list[Word | Redirect | Op] = []
        self.problems: list[str] = []
        self.substitutions: list[str] = []
        self.heredocs: list[tuple[str, bool]] = []
        self.depth = 0

    def run(self) -> int:
        src = self.src
        while True:
            self._skip_blanks()
            if self.pos >= len(src):
                if self.in_subst:
                    raise ShellSyntaxError("unterminated $(")
                return self.pos
            c = src[self.pos]
            if c == "#":
                self._skip_comment()
            elif src.startswith(("<(", ">("), self.pos):
                self.tokens.append(self._word())
            elif op := _prefix(src, self.pos, REDIRECTS):
                self.tokens.append(self._redirect(op, ""))
            elif op := _prefix(src, self.pos, OPERATORS):
                if self._operator(op):
                    return self.pos
            else:
                self._word_or_fd_redirect()

    def _skip_blanks(self) -> None:
        src = self.src
        while self.pos < len(src):
            if src[self.pos] in " \t":
                self.pos += 1
            elif src.startswith("\\\n", self.pos):
                self.pos += 2
            else:
                return

    def _skip_comment(self) -> None:
        end = self.src.find("\n", self.pos)
        self.pos = len(self.src) if end < 0 else end

    def _operator(self, op: str) -> bool:
        """Emit `op`; True when it is the `)` closing the substitution being lexed."""
        if self.in_subst and op == ")" and self.depth == 0:
            return True
        self.depth += {"(": 1, ")": -1}.get(op, 0)
        self.tokens.append(Op(op, self.pos))
        self.pos += len(op)
        if op == "\n":
            self._heredoc_bodies()
        return False

    def _word_or_fd_redirect(self) -> None:
        word = self._word()
        src, pos = self.src, self.pos
        op = _prefix(src, pos, REDIRECTS) if word.text.isdigit() else None
        if op and not op.startswith("&") and not src.startswith(("<(", ">("), pos):
            self.pos = word.start
            self.tokens.append(self._redirect(op, word.text))
            return
        self.tokens.append(word)

    def _redirect(self, op: str, fd: str) -> Redirect:
        start = self.pos
        self.pos += len(fd) + len(op)
        self._skip_blanks()
        if self.pos >= len(self.src) or self.src[self.pos] in WORD_END:
            raise ShellSyntaxError(f"redirect '{op}' without a target")
        target = self._word()
        if op in ("<<", "<<-"):
            self.problems.append(f"heredoc {op}{target.text}")
            self.heredocs.append((target.value, op == "<<-"))
        elif op == "<<<":
            self.problems.append("here-string <<<")
        return Redirect(op, fd, target, start)

    def _heredoc_bodies(self) -> None:
        for delimiter, strip_tabs in self.heredocs:
            while self.pos < len(self.src):
                end = self.src.find("\n", self.pos)
                end = len(self.src) if end < 0 else end
                line = self.src[self.pos:end]
                self.pos = min(end + 1, len(self.src))
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
        self.heredocs = []

    def _word(self) -> Word:
        builder = _WordBuilder(self, self.pos)
        builder.read()
        return builder.finish()


class _WordBuilder:
    """Reads one word from the lexer's position, recording value, offsets and quoting per char."""

    def __init__(self, lexer: _Lexer, start: int) -> None:
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
        elif nxt and (nxt in SPECIAL_PARAMS or NAME_RE.match(nxt)):
            m = NAME_RE.match(src, pos + 1)
            end = m.end() if m else pos + 2
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
        sub = _Lexer(self.src, inner_start, in_subst=True)
        end = sub.run()
        self.lx.problems.append(what)
        self.lx.problems.extend(sub.problems)
        self.lx.substitutions.append(self.src[inner_start:end])
        self.lx.substitutions.extend(sub.substitutions)
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
        tilde = ASSIGNMENT_RE.match(text) and re.search(r"[=:]~", projection)
        if BRACE_EXPANSION_RE.search(projection) or tilde:
            self.literal = False
        return Word(text, self.start, "".join(self.chars), self.literal, tuple(self.offsets),
                    "".join(self.contexts))


def _ansi_escape(src: str, pos: int) -> tuple[str, int]:
    """Decode the `$'...'` escape at `pos` (a backslash): (text, source length)."""
    c = src[pos + 1:pos + 2]
    if c in ANSI_SIMPLE:
        return ANSI_SIMPLE[c], 2
    if c in "01234567" and c:
        digits = re.match(r"[0-7]{1,3}", src[pos + 1:pos + 4])
        assert digits is not None
        return _byte(int(digits.group(), 8) & 0xFF), 1 + digits.end()
    if c == "x" and src.startswith("{", pos + 2):  # bash's \x{HHH...}: low byte, NUL if empty
        digits = re.match(r"[0-9a-fA-F]*", src[pos + 3:])
        assert digits is not None
        closed = src.startswith("}", pos + 3 + digits.end())
        return _byte(int(digits.group() or "0", 16) & 0xFF), 3 + digits.end() + closed
    if c in ("x", "u", "U"):
        limit = {"x": 2, "u": 4, "U": 8}[c]
        digits = re.match(f"[0-9a-fA-F]{{1,{limit}}}", src[pos + 2:pos + 2 + limit])
        if digits is None:
            return "\\" + c, 2
        code = int(digits.group(), 16)
        text = _byte(code) if c == "x" else (chr(code) if code < 0x110000 else "\\" + c)
        return text, 2 + digits.end()
    if c == "c" and pos + 2 < len(src):
        return chr(ord(src[pos + 2].upper()) & 0x1F), 3
    return "\\" + c, 1 + len(c)


def _byte(value: int) -> str:
    """One byte as a str character: ASCII as is, others as surrogate escapes (bash passes bytes)."""
    return chr(value) if value < 0x80 else chr(0xDC00 + value)


def _prefix(src: str, pos: int, options: tuple[str, ...]) -> str | None:
    for op in options:
        if src.startswith(op, pos):
            return op
    return None


class _Parser:
    """Pipelines and groups from the token list (recursive descent over `list`, `pipeline`, `stage`)."""

    def __init__(self, tokens: list[Word | Redirect | Op], problems: list[str]) -> None:
        self.tokens, self.problems, self.i = tokens, problems, 0

    def peek(self) -> Word | Redirect | Op | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def is_op(self, *texts: str) -> bool:
        tok = self.peek()
        return isinstance(tok, Op) and tok.text in texts

    def is_word(self, text: str) -> bool:
        tok = self.peek()
        return isinstance(tok, Word) and tok.text == text

    def parse_list(self, closer: str | None) -> list[Pipeline]:
        pipelines: list[Pipeline] = []
        while True:
            while self.is_op("\n"):
                self.i += 1
            if self.peek() is None or (closer == ")" and self.is_op(")")) or (closer and self.is_word(closer)):
                if closer and self.peek() is None:
                    raise ShellSyntaxError(f"missing '{closer}'")
                return pipelines
            pipelines.append(self.parse_pipeline())
            tok = self.peek()
            if isinstance(tok, Op) and tok.text in SEPARATORS:
                pipelines[-1].sep = tok.text
                self.i += 1
                if tok.text in ("&&", "||"):
                    self._expect_more(closer)
            elif tok is not None and not (closer == ")" and self.is_op(")")) and not (
                    closer and self.is_word(closer)):
                raise ShellSyntaxError(f"unexpected {getattr(tok, 'text', '?')!r}")

    def _expect_more(self, closer: str | None) -> None:
        while self.is_op("\n"):
            self.i += 1
        if self.peek() is None or isinstance(self.peek(), Op) and not self.is_op("("):
            raise ShellSyntaxError("command expected after && or ||")

    def parse_pipeline(self) -> Pipeline:
        negated = False
        while self.is_word("!"):
            negated, self.i = True, self.i + 1
        stages = [self.parse_stage()]
        while self.is_op("|", "|&"):
            self.i += 1
            while self.is_op("\n"):
                self.i += 1
            stages.append(self.parse_stage())
        return Pipeline(stages, negated)

    def parse_stage(self) -> Command | Group:
        tok = self.peek()
        if isinstance(tok, Op) and tok.text == "(":
            nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
            if isinstance(nxt, Op) and nxt.text == "(" and nxt.start == tok.start + 1:
                self.problems.append("arithmetic command ((...))")
            return self._group("(", ")")
        if isinstance(tok, Word) and tok.text == "{":
            return self._group("{", "}")
        return self.parse_simple()

    def _group(self, opener: str, closer: str) -> Group:
        start = self.peek().start  # type: ignore[union-attr]
        self.i += 1
        body = self.parse_list(closer)
        end_tok = self.peek()
        assert end_tok is not None and not isinstance(end_tok, Redirect)
        self.i += 1
        redirects = self._redirects()
        return Group(opener, body, redirects, start, end_tok.start + 1)

    def _redirects(self) -> list[Redirect]:
        out = []
        while isinstance(tok := self.peek(), Redirect):
            out.append(tok)
            self.i += 1
        return out

    def parse_simple(self) -> Command:
        words: list[Word] = []
        redirects: list[Redirect] = []
        while isinstance(tok := self.peek(), (Word, Redirect)):
            if isinstance(tok, Redirect):
                redirects.append(tok)
            else:
                if all(w.is_assignment for w in words) and tok.text in KEYWORDS:
                    self.problems.append(f"shell keyword '{tok.text}'")
                words.append(tok)
            self.i += 1
        if self.is_op("(") and words:
            raise ShellSyntaxError("function definition")
        if not words and not redirects:
            raise ShellSyntaxError(f"unexpected {getattr(tok, 'text', 'end of input')!r}")
        spans = [(w.start, w.end) for w in words] + [(r.start, r.end) for r in redirects]
        return Command(words, redirects, min(s for s, _ in spans), max(e for _, e in spans))
