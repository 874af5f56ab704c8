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
_FLAG_GROUP_RE = re.compile(r"\(\?[a-zA-Z]")
_BOUNDS_RE = re.compile(r"\{(\d*)(,)?(\d*)\}")
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


def required_literal(pattern: str) -> str:
    """The longest text every match of `pattern` contains ("" when none is evident): a line
    without it cannot match, so a costly regex (`\\s{2,}\\|` scanning a line of spaces) is
    skipped with one `in` test. Only top-level literals count; groups, classes, alternations
    and anything optional end a run."""
    if _FLAG_GROUP_RE.search(pattern) or "|" in _top_level(pattern):
        return ""
    runs, run, i = [], [], 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            literal, width = (pattern[i + 1], 2) if pattern[i + 1] in _ESCAPED_LITERALS else (None, 2)
        elif char in "([":
            literal, width = None, (_enclosing_end(pattern, i + 1) + 1 - i if char == "(" else _class_end(pattern, i) - i)
        elif char in ".^$":
            literal, width = None, 1
        else:
            literal, width = char, 1
        i += width
        optional = i < len(pattern) and (pattern[i] in "?*" or pattern.startswith("{0", i))
        if literal is None or optional or (i < len(pattern) and pattern[i] in "+{"):
            if literal is not None and not optional:
                run.append(literal)  # `a+` still needs one `a`
            runs.append("".join(run))
            run = []
            while i < len(pattern) and pattern[i] in "?*+":
                i += 1
            if i < len(pattern) and pattern[i] == "{":
                i = pattern.find("}", i) + 1 or len(pattern)
        else:
            run.append(literal)
    runs.append("".join(run))
    return max(runs, key=lambda text: (len(text), not text.isspace()))


def _top_level(pattern: str) -> str:
    """`pattern` with its groups and classes removed: what is left is its top level."""
    out, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i:i + 2])
            i += 2
        elif char == "(":
            i = _enclosing_end(pattern, i + 1) + 1
        elif char == "[":
            i = _class_end(pattern, i)
        else:
            out.append(char)
            i += 1
    return "".join(out).replace("\\|", "")


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


def compile_any(patterns: list[str], what: str) -> re.Pattern[str] | None:
    """One regex matching where any of `patterns` matches (searched, like the Rust RegexSet)."""
    if not patterns:
        return None
    compiled = [compile_pattern(p, what) for p in patterns]
    if len(compiled) == 1:
        return compiled[0]
    try:
        return re.compile("|".join(f"(?:{c.pattern})" for c in compiled))
    except re.error:  # inline flags or repeated group names: fall back to trying each
        return _AnyOf(compiled)  # type: ignore[return-value]


class _AnyOf:
    """Duck-types the one `re.Pattern` method the engine uses on a line filter."""

    def __init__(self, patterns: list[re.Pattern[str]]) -> None:
        self.patterns = patterns
        self.pattern = " | ".join(p.pattern for p in patterns)

    def search(self, text: str) -> re.Match[str] | None:
        for pattern in self.patterns:
            found = pattern.search(text)
            if found:
                return found
        return None


Replacement = str | Callable[[re.Match[str]], str]


def replacement_template(replacement: str, compiled: re.Pattern[str]) -> Replacement:
    """A Rust replacement (`$1`, `${name}`, `$$`) for `compiled.sub`: the literal text itself when
    it names no group, else a function that joins literal parts and groups (about a third faster
    than a `\\g<1>` template, whose expansion runs in Python on 3.11). A missing group is empty,
    as in Rust."""
    parts: list[str | int] = []
    last = 0
    for found in _REPL_RE.finditer(replacement):
        parts.append(replacement[last:found.start()])
        parts.append(_group_ref(found, compiled))
        last = found.end()
    parts.append(replacement[last:])
    if all(isinstance(part, str) for part in parts):
        return "".join(parts).replace("\\", "\\\\")  # type: ignore[arg-type]
    frozen = tuple(parts)

    def expand(match: re.Match[str]) -> str:
        group = match.group
        return "".join([part if part.__class__ is str else (group(part) or "") for part in frozen])  # type: ignore[misc]

    return expand


def _group_ref(found: re.Match[str], compiled: re.Pattern[str]) -> str | int:
    if found.group(0) == "$$":
        return "$"
    name = found.group(1) if found.group(1) is not None else found.group(2)
    if name.isdigit():
        return int(name) if int(name) <= compiled.groups else ""  # $0 is the whole match
    index = compiled.groupindex.get(name)
    return index if index is not None else ""
