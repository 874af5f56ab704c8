"""Shell command structure for the rewrite engine (spec/rewrite.md, "Lexing"): operators,
redirects, pipelines and groups.

`parse(source)` turns one command string, as an agent passes it to `bash -c`, into pipelines of
simple commands and groups. The lexer here splits at operators and redirects; `shell_words`
reads each word (quoting, escapes, expansions). Words keep their offsets, so the caller decides
on words and splices `rtk ` into the original text: nothing is ever re-joined or re-quoted.
Constructs rtk cannot attest (command, process and arithmetic substitution, heredocs, keywords,
syntax errors) are collected in `Script.problems`; the commands found inside substitutions are
kept as source in `Script.substitutions` so permission rules can still see them. Sans-I/O,
standard library only, no `re` or `typing` at run time (the hook path).
"""
from __future__ import annotations

from rtk.shell.words import WORD_END, Record, ShellSyntaxError, Word, is_assignment, read_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, ClassVar

__all__ = ["Command", "Group", "Op", "Pipeline", "Redirect", "Script", "ShellSyntaxError", "Word",
           "is_assignment", "parse"]

OPERATORS = (";;&", "&&", "||", ";;", ";&", "|&", "|", "&", ";", "(", ")", "\n")
REDIRECTS = ("&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">&", ">>", ">|", "<", ">")
SEPARATORS = frozenset({"&&", "||", ";", "&", "\n"})
KEYWORDS = frozenset({"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case",
                      "esac", "function", "select", "coproc", "in", "[[", "]]", "}", "(("})


class Redirect(Record):
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


class Op(Record):
    __slots__ = ("start", "text")

    text: str
    start: int


class Command(Record):
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


class Group(Record):
    __slots__ = ("body", "end", "kind", "redirects", "start")

    kind: str
    body: list[Pipeline]
    redirects: list[Redirect]
    start: int
    end: int


class Pipeline(Record):
    __slots__ = ("negated", "sep", "stages")
    _defaults: ClassVar[dict[str, Any]] = {"negated": False, "sep": ""}

    stages: list[Command | Group]
    negated: bool
    sep: str


class Script(Record):
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
    lexer = Lexer(source, 0)
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


class Lexer:
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
        return read_word(self)

    def substitution(self, inner_start: int, what: str) -> int:
        """Lex the `$(`, `<(` or `((` substitution from `inner_start`; the offset of its `)`."""
        sub = Lexer(self.src, inner_start, in_subst=True)
        end = sub.run()
        self.problems.append(what)
        self.problems.extend(sub.problems)
        self.substitutions.append(self.src[inner_start:end])
        self.substitutions.extend(sub.substitutions)
        return end



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
