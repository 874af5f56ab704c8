"""Regexes from filter files: the Rust rtk's dialect read by Python's `re`, guarded against hangs.

Filter files are written for the Rust `regex` crate. Most of its syntax is Python's too; the few
spellings that differ (`(?<name>`, `\\z`, POSIX classes) are rewritten before compiling. A project
filter is untrusted input, so two guards keep a hostile pattern from hanging a command: patterns
with a quantified group that itself holds a quantifier (`(a+)+`, the shape of catastrophic
backtracking) are refused, and no regex ever sees more than `LINE_CAP` characters of a line.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

LINE_CAP = 4096
_POSIX = {
    "alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
    "space": r"\s", "xdigit": "0-9A-Fa-f", "word": r"\w", "punct": r"!-/:-@\[-`{-~",
    "blank": r" \t", "cntrl": r"\x00-\x1f\x7f", "print": r" -~", "graph": r"!-~",
}
_POSIX_RE = re.compile(r"\[:(\^?)(" + "|".join(_POSIX) + r"):\]")
_NAMED_RE = re.compile(r"\(\?<(?![=!])")
_Z_RE = re.compile(r"(?<!\\)((?:\\\\)*)\\z")
_FLAGS_RE = re.compile(r"\(\?([imsx]+)\)")
_DISJOINT_PAIRS = (r"\\s", r"\\S"), (r"\\d", r"\\D"), (r"\\w", r"\\W"), (r"\\s", r"\\w"), (r"\[ \\t\]", r"\\S"), (" ", r"\\S")
_DISJOINT_RUNS = re.compile(r"\((?:\?:)?(?:" + "|".join(f"{a}[+*]{b}|{b}[+*]{a}" for a, b in _DISJOINT_PAIRS)
                            + r")\+\)")
_FLAG_GROUP_RE = re.compile(r"\(\?[aiLmsux-]")  # inline flags change what a literal means
_BOUNDS_RE = re.compile(r"\{(\d*)(,)?(\d*)\}")
_BRACES = re.compile(r"\{(?=[\d,])(\d*)(?:,\d*)?\}")  # what `re` reads as a count (`{}`, `{x}` are text)
_REPL_RE = re.compile(r"\$(?:\$|\{([^}]*)\}|([0-9A-Za-z_]+))")


class PatternError(ValueError):
    """A pattern that does not compile or could hang; the message names it."""


def _posix(match: re.Match[str]) -> str:
    if match.group(1):
        raise PatternError(f"negated POSIX class [:^{match.group(2)}:] is not supported")
    return _POSIX[match.group(2)]


def translate(pattern: str) -> str:
    """The Rust-dialect pattern spelled for Python's `re`."""
    text = _scoped_flags(_NAMED_RE.sub("(?P<", pattern))
    text = _Z_RE.sub(r"\1\\Z", text)
    return _POSIX_RE.sub(_posix, text) if "[:" in text else text


def _scoped_flags(pattern: str) -> str:
    """Rust allows `^(?i)foo`; Python wants flags first, so later ones become `(?i:foo)`."""
    found = _FLAGS_RE.search(pattern, 1)
    if not found:
        return pattern
    end = _enclosing_end(pattern, found.end())
    inner = _scoped_flags(pattern[found.end():end])
    return f"{pattern[:found.start()]}(?{found.group(1)}:{inner}){pattern[end:]}"


def _syntax(pattern: str, i: int = 0) -> Iterator[tuple[int, str]]:
    """The characters of `pattern` from `i` that are regex syntax: not escaped, not in a class."""
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
        elif char == "[":
            i = _class_end(pattern, i)
        else:
            yield i, char
            i += 1


def _enclosing_end(pattern: str, i: int) -> int:
    depth = 0
    for j, char in _syntax(pattern, i):
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return j
            depth -= 1
    return len(pattern)


def _nested_quantifier(pattern: str) -> bool:
    """True for a quantified group that holds a quantifier: `(a+)+`, `(\\w*x)*`, `(a|b+){2,}`.

    Spared: a group of two runs of disjoint classes, `(?:\\s+\\S+)*` (a word list, as upstream's
    mvn-test filter writes it): each character has one way to match, so it cannot backtrack."""
    stack: list[tuple[int, bool]] = []
    for i, char in _syntax(pattern):
        if char == "(":
            stack.append((i, False))
        elif char == ")" and stack:
            start, inner = stack.pop()
            repeated = _repeats(pattern, i + 1)
            if inner and repeated and not _DISJOINT_RUNS.match(pattern, start, i + 1):
                return True
            if stack:
                stack[-1] = (stack[-1][0], stack[-1][1] or inner or repeated)
        elif char in "*+{" and stack and _repeats(pattern, i):
            stack[-1] = (stack[-1][0], True)
    return False


def _repeats(pattern: str, i: int) -> bool:
    """Whether the quantifier at `i` varies its count (`*`, `+`, `?` excluded, `{n,}`, `{n,m}`)."""
    if i >= len(pattern):
        return False
    if pattern[i] in "*+":
        return True
    bounds = _BOUNDS_RE.match(pattern, i)
    if not bounds or bounds.group(2) is None:
        return False
    upper = bounds.group(3)
    return not upper or int(upper) > int(bounds.group(1) or 0)


def _class_end(pattern: str, i: int) -> int:
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1


_ESCAPED_LITERALS = set(".^$*+?{}[]()|\\/-# \"'`~!@%&=:;,<>")
_NUMBERED_ESCAPE = {"x": 2, "u": 4, "U": 8}  # `\x1b`: the hex digits are part of the escape


def required_literal(pattern: str) -> str:
    """The longest text every match of `pattern` contains ("" when none is evident): a line
    without it cannot match, so a costly regex (`\\s{2,}\\|` scanning a line of spaces) is
    skipped with one `in` test. Only top-level literals count; groups, classes, alternations
    and anything optional end a run. Sound by construction (tests/filters/declarative check it
    on strings generated from each built-in pattern): when unsure, a run ends."""
    if _FLAG_GROUP_RE.search(pattern) or "|" in _top_level(pattern):
        return ""
    runs: list[str] = []
    run: list[str] = []
    i = 0
    while i < len(pattern):
        literal, width = _atom(pattern, i)
        i += width
        braces = _BRACES.match(pattern, i) if pattern.startswith("{", i) else None  # else `{` is a literal
        quantified = braces is not None or pattern.startswith(("?", "*", "+"), i)
        if literal is None or quantified:
            repeated = _least_count(pattern, i) * literal if literal is not None else ""
            runs.append("".join(run) + repeated)  # `a+` still needs one `a`, `a{3,}` three
            run = [repeated]  # and what follows the repetition comes right after those
            i = braces.end() if braces is not None else i
            while i < len(pattern) and pattern[i] in "?*+":  # `a*?`, `a{2,}+`: lazy, possessive
                i += 1
        else:
            run.append(literal)
    runs.append("".join(run))
    return max(runs, key=lambda text: (len(text), not text.isspace()))


def _least_count(pattern: str, i: int) -> int:
    """The fewest times the quantifier at `i` (`?`, `*`, `+`, `{n,m}`) repeats its atom."""
    if pattern.startswith("+", i):
        return 1
    braces = _BRACES.match(pattern, i)
    return int(braces.group(1)) if braces is not None and braces.group(1) else 0


def _atom(pattern: str, i: int) -> tuple[str | None, int]:
    """The literal character the atom at `i` stands for (None: a class, group, anchor or other
    escape) and the atom's width in the pattern."""
    char = pattern[i]
    if char == "\\" and i + 1 < len(pattern):
        escaped = pattern[i + 1]
        if escaped in _ESCAPED_LITERALS:
            return escaped, 2
        if escaped in _NUMBERED_ESCAPE:
            return None, 2 + _NUMBERED_ESCAPE[escaped]
        if escaped == "N" and pattern.startswith("{", i + 2):
            return None, (pattern.find("}", i) + 1 or len(pattern)) - i
        width = 2
        while escaped.isdigit() and i + width < len(pattern) and pattern[i + width].isdigit():
            width += 1  # octal `\\012` or group `\\12`: every digit belongs to it
        return None, width
    if char == "(":
        return None, _enclosing_end(pattern, i + 1) + 1 - i
    if char == "[":
        return None, _class_end(pattern, i) - i
    return (None, 1) if char in ".^$\\" else (char, 1)


def _top_level(pattern: str) -> str:
    """`pattern` with its groups, classes and escapes removed: what is left is its top level."""
    out, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
        elif char == "(":
            i = _enclosing_end(pattern, i + 1) + 1
        elif char == "[":
            i = _class_end(pattern, i)
        else:
            out.append(char)
            i += 1
    return "".join(out)


def compile_pattern(pattern: str, what: str) -> re.Pattern[str]:
    """Compile one pattern of field `what`; PatternError says which one and why."""
    if not isinstance(pattern, str):
        raise PatternError(f"{what}: expected a regex string, got {type(pattern).__name__}")
    if _nested_quantifier(pattern):
        raise PatternError(f"{what}: regex {pattern!r} nests quantifiers (could hang); refused")
    try:
        return re.compile(translate(pattern))
    except (re.error, PatternError) as exc:
        raise PatternError(f"{what}: regex {pattern!r} does not compile: {exc}") from None


def compile_any(patterns: list[str], what: str) -> AnyOf | None:
    """One test matching where any of `patterns` matches (searched, like the Rust RegexSet)."""
    if not patterns:
        return None
    return AnyOf([compile_pattern(p, what) for p in patterns])


class AnyOf:
    """A list of patterns as one: `search` is the union regex's (or, when the members cannot
    share one regex, each member's in turn); `members` are kept for the fast path (fast.py),
    which tests them in its own groups and order."""

    def __init__(self, members: list[re.Pattern[str]]) -> None:
        self.members = tuple(members)
        self.pattern = " | ".join(p.pattern for p in members)
        self.search: Callable[[str], re.Match[str] | None] = self._each
        if len(members) == 1:
            self.search = members[0].search
            return
        try:
            self.search = re.compile("|".join(f"(?:{c.pattern})" for c in members)).search
        except re.error:  # inline flags or repeated group names: try each
            pass

    def _each(self, text: str) -> re.Match[str] | None:
        for pattern in self.members:
            found = pattern.search(text)
            if found:
                return found
        return None


Replacement = str | Callable[[re.Match[str]], str]


ReplacementParts = tuple[str | int, ...]  # literal texts and group numbers, in order


def replacement_parts(replacement: str, compiled: re.Pattern[str]) -> ReplacementParts:
    """A Rust replacement (`$1`, `${name}`, `$$`) as literal parts and group numbers; a group the
    pattern does not have is an empty literal, as in Rust."""
    parts: list[str | int] = []
    last = 0
    for found in _REPL_RE.finditer(replacement):
        parts.append(replacement[last:found.start()])
        parts.append(_group_ref(found, compiled))
        last = found.end()
    parts.append(replacement[last:])
    return tuple(parts)


def replacement_template(parts: ReplacementParts) -> Replacement:
    """The replacement for `compiled.sub`: the literal text itself when it names no group, else
    a function that joins literal parts and groups (about a third faster than a `\\g<1>`
    template, whose expansion runs in Python on 3.11). A group that did not take part is empty."""
    if all(isinstance(part, str) for part in parts):
        return "".join(parts).replace("\\", "\\\\")  # type: ignore[arg-type]

    def expand(match: re.Match[str]) -> str:
        group = match.group
        return "".join([part if part.__class__ is str else (group(part) or "") for part in parts])  # type: ignore[misc]

    return expand


def _group_ref(found: re.Match[str], compiled: re.Pattern[str]) -> str | int:
    if found.group(0) == "$$":
        return "$"
    name = found.group(1) if found.group(1) is not None else found.group(2)
    if name.isdigit():
        return int(name) if int(name) <= compiled.groups else ""  # $0 is the whole match
    index = compiled.groupindex.get(name)
    return index if index is not None else ""
