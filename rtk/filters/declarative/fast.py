"""The engine's fast path: the rules' answers with the work that cannot change them skipped.

The per-line cost is what bounds the engine's throughput, so everything here is decided once,
when a filter is loaded: which members of a pattern list share one regex, which are tried only
on lines holding a literal text every match of theirs must contain (`required_literal`, sound by
construction), which replace rules can be done with one anchored match or `str.rstrip` instead
of `re.sub`. Each shortcut is an identity, never a heuristic about the output: the plain path
(`DeclarativeFilter(spec, reference=True)`, each regex as written, in order) gives the same
lines, and property tests hold the two together on every built-in filter and the Rust rtk's.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from operator import itemgetter

from .growth import ends_at_line_end
from .matchers import branch_prefixes, top_level_branches
from .pattern import LINE_CAP, AnyOf, Replacement, ReplacementParts, required_literal
from .rules import ReplaceRule

Apply = Callable[[str], str]

# `\1`, `(?P=name)`, `(?(1)...)` name groups by number or name: in a union their meaning moves
_GROUP_REFERENCE = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")
_MULTILINE = re.compile(r"\(\?[a-zA-Z]*m")
# `^\S`, `^.`, `^[^:]`, `^[\w.-]`: a first test nearly every line passes, so the regex goes on
# (`^\S+::`, `^\S.*?: error`) into a scan of the line; a narrower first test fails fast
_BROAD_START = re.compile(r"\^(?:\\[SwWD]|\.|\[\^|\[(?:\\.|[^\]\\])*\\[wSWD])")


def anchored(pattern: str) -> bool:
    """Every match starts at the line's first character (all top-level branches open with `^`)."""
    return not _MULTILINE.search(pattern) and all(b.startswith("^") for b in top_level_branches(pattern))


def gate(pattern: str) -> str:
    """The literal a line must contain to be worth trying `pattern` on ("": always try it).

    Empty for anchored patterns whose first test fails fast on most lines (`^Reading`,
    `^\\s*$`): there the regex is cheaper than the `in` scan."""
    if anchored(pattern) and not _BROAD_START.match(pattern):
        return ""
    return required_literal(pattern)


class Names:
    """The namespace of a generated function: each value gets a fresh name, the source refers to
    values only by those names (no pattern or literal text is ever part of the code)."""

    def __init__(self, **fixed: object) -> None:
        self.values: dict[str, object] = dict(fixed)

    def add(self, value: object, hint: str = "v") -> str:
        name = f"{hint}{len(self.values)}"
        self.values[name] = value
        return name

    def function(self, source: str, name: str) -> Callable[..., object]:
        exec(compile(source, f"<rtk declarative {name}>", "exec"), self.values)  # noqa: S102 - names only, see above
        return self.values[name]  # type: ignore[return-value]


def finder(pattern: re.Pattern[str]) -> Callable[[str], re.Match[str] | None]:
    """`pattern.search`, or its `match` (the same answer, without the search loop's set-up)
    when every match starts at the line's first character."""
    return pattern.match if anchored(pattern.pattern) else pattern.search


def _union_finder(patterns: AnyOf) -> Callable[[str], re.Match[str] | None]:
    if len(patterns.members) == 1:
        return finder(patterns.members[0])
    compiled = getattr(patterns.search, "__self__", None)
    if isinstance(compiled, re.Pattern) and all(anchored(m.pattern) for m in patterns.members):
        return _factored(patterns.members) or compiled.match
    return patterns.search


def _factored(members: tuple[re.Pattern[str], ...]) -> Callable[[str], re.Match[str] | None] | None:
    """`^(?:A|B|C)` for the union of `^A`, `^B`, `^C` (single branches): the same matches,
    branch for branch and group for group, but the engine tests `^` once and skips at once
    each branch whose first character is a literal the line does not start with (in the
    union as written, `^` comes first in every branch and hides that literal). None when a
    member is not of that shape, or the flags differ."""
    if len({m.flags for m in members}) != 1 or \
            not all(anchored(m.pattern) and len(top_level_branches(m.pattern)) == 1 for m in members):
        return None
    try:
        return re.compile("^(?:" + "|".join(f"(?:{m.pattern[1:]})" for m in members) + ")", members[0].flags).match
    except re.error:  # pragma: no cover - the union compiled, so its factored form does
        return None


def simple_test(pattern: str, var: str, names: Names) -> str | None:
    """A `str` expression true exactly where `re.search(pattern, var)` matches, for the shapes
    that need no regex: `^$` (empty, or only the newline `$` may stand before), `^\\s*$` (only
    whitespace: `str.strip` and `\\s` share Python's whitespace), `^\\S`, `^TEXT`, `TEXT`."""
    if pattern == "^$":
        return f"(not {var} or {var} == NEWLINE)"
    if pattern == r"^\s*$":
        return f"(not {var}.strip())"
    if pattern == r"^\S":
        return f"{var}[:1].strip()"
    if pattern.startswith("^") and _plain_text(pattern[1:]) is not None:
        return f"{var}.startswith({names.add(_plain_text(pattern[1:]), 'prefix')})"
    if _plain_text(pattern) is not None:
        return f"({names.add(_plain_text(pattern), 'literal')} in {var})"
    return None


def one_test_expr(pattern: re.Pattern[str], var: str, names: Names) -> str:
    """`pattern.search(var)` as a truth value: a `str` test when one says the same, else the
    regex behind its required literal when it has one."""
    simple = simple_test(pattern.pattern, var, names)
    if simple is not None:
        return simple
    literal, search = gate(pattern.pattern), names.add(finder(pattern), "search")
    prefix = anchored_prefix(pattern.pattern)
    if prefix:  # `startswith` fails faster than the regex's call
        return f"({var}.startswith({names.add(prefix, 'prefix')}) and {search}({var}))"
    if not literal:
        return f"{search}({var})"
    return f"({names.add(literal, 'literal')} in {var} and {search}({var}))"


# `.*X`, `.+?X`: an anchored member that scans the rest of the line for what follows (`^\s+-\s+.*\bdeleting`),
# backtracking through it on every line the start fits; behind its literal (when it has one this
# long) it runs only on the lines holding that text
_SCAN = re.compile(r"(?<!\\)\.[*+]\??(?![)$]*$)")
SCAN_GATE_CHARS = 3


def any_test_expr(patterns: AnyOf, var: str, names: Names) -> str:
    """An expression true (a match) exactly where `patterns.search(var)` finds one. The
    anchored members share one union regex (each fails at the line's start, inside one C call:
    cheaper than a `str` test per member); an unanchored member in a union would be tried at
    every position with every branch, so each is searched alone behind its literal (plain text:
    the `in` test alone), and those without one share a second union."""
    members = patterns.members
    if len(members) == 1:
        return one_test_expr(members[0], var, names)
    if any(_GROUP_REFERENCE.search(m.pattern) for m in members):
        return f"{names.add(patterns.search, 'search')}({var})"
    terms: list[str] = []
    cheap: list[re.Pattern[str]] = []
    gated: dict[str, list[re.Pattern[str]]] = {}
    rest: list[re.Pattern[str]] = []
    for member in members:
        scans = anchored(member.pattern) and _SCAN.search(member.pattern) is not None
        literal = required_literal(member.pattern) if scans or not anchored(member.pattern) else ""
        if scans and literal in anchored_prefix(member.pattern):  # `^mise\s+...*✓`: every line it is
            literal = ""  # tried on holds "mise" already; a second call would cost more than the scan
        simple = None if anchored(member.pattern) else simple_test(member.pattern, var, names)
        if simple is not None:  # plain text: its `in` test is all its gate would do
            terms.append(simple)
        elif literal and (len(literal) >= SCAN_GATE_CHARS or not scans):
            gated.setdefault(literal, []).append(member)
        else:
            (cheap if anchored(member.pattern) else rest).append(member)
    if len(cheap) == len(members):
        return _prefixed(cheap, f"{names.add(_union_finder(patterns), 'search')}({var})", var, names)  # compiled
    terms += [_prefixed(cheap, f"{names.add(_union_finder(AnyOf(cheap)), 'search')}({var})", var, names)] if cheap else []
    terms += [f"({names.add(literal, 'literal')} in {var} and {names.add(_union_finder(AnyOf(group)), 'search')}({var}))"
              for literal, group in gated.items()]
    if rest:
        terms.append(f"{names.add(AnyOf(rest).search, 'search')}({var})")
    return "(" + " or ".join(terms) + ")"


def _prefixed(members: list[re.Pattern[str]], test: str, var: str, names: Names) -> str:
    """`test` (anchored members' union) behind one `startswith` of their prefixes, when each has one."""
    prefixes = tuple(anchored_prefix(member.pattern) for member in members)
    if not all(prefixes):
        return test
    return f"({var}.startswith({names.add(prefixes, 'prefixes')}) and {test})"


# -- replace ---------------------------------------------------------------------------------

# the commonest replace rule, trailing whitespace -> "", as `str.rstrip` (chars; None: whitespace)
_TRAILING = {r"\s+$": None, r"\s*$": None, r" +$": " ", r" *$": " ", r"[ \t]+$": " \t", r"[ \t]*$": " \t"}


def replace_code(rule: ReplaceRule, names: Names, *, short: bool = False) -> list[str]:
    """Statements that rewrite `text` as `pattern.sub(template, text[:CAP]) + text[CAP:]` does.

    Behind the rule's literal and anchored prefix. Trailing whitespace -> "" is `str.rstrip`;
    an anchored pattern matches at most once, at 0, so it is one `search` and the expanded match
    in front of the line's rest (an empty match at 0 lets `sub` try again there: that case, and
    lines past the window, take `sub` itself). `short`: every text is within the window and holds
    no newline (growth.py decides when), so no length or newline test is written, and a match
    that must reach the line's end is the whole replacement."""
    pattern, template, parts = rule
    text = pattern.pattern
    general = names.add(_sub(pattern, template), "general")
    conditions = []  # the prefix first: it looks at the line's first characters only
    prefix, literal = anchored_prefix(text), required_literal(text)
    if prefix:
        conditions.append(f"text.startswith({names.add(prefix, 'prefix')})")
    suffix = _plain_text(text[:-1]) if text.endswith("$") else None
    if literal and literal not in prefix and not (suffix and literal in suffix):
        conditions.append(f"{names.add(literal, 'literal')} in text")  # (not one `startswith` or `endswith` tests)
    plain = all(part.__class__ is str for part in parts)
    head = _plain_text(text[1:]) if text.startswith("^") else None
    if head and plain and len(head) <= LINE_CAP:
        # `^TEXT`: at most one match, the line's first characters (conditions: it starts so)
        body = [f"text = {names.add(''.join(parts), 'replacement')} + text[{len(head)}:]"]  # type: ignore[arg-type]
        return [f"if text.startswith({names.add(head, 'prefix')}):"] + ["    " + line for line in body]
    if template == "" and text in _TRAILING:
        chars = names.add(_TRAILING[text], "chars")
        body = [f"text = text.rstrip({chars})" if short else
                f"text = text.rstrip({chars}) if len(text) <= CAP and text[-1:] != NEWLINE else {general}(text)"]
    elif suffix and plain:
        # `TEXT$`: one match at most, the line's last characters (`$` also matches before a final
        # newline, and past the window the line's end is not the regex's: `sub` for those)
        ending = [f"if text.endswith({names.add(suffix, 'suffix')}):",
                  f"    text = text[:{-len(suffix)}] + {names.add(''.join(parts), 'replacement')}"]  # type: ignore[arg-type]
        body = ending if short else [f"if len(text) > CAP or text[-1:] == NEWLINE: text = {general}(text)",
                                     "el" + ending[0], ending[1]]
    elif anchored(text):
        subject = "text" if short else "text if len(text) <= CAP else text[:CAP]"
        body = [f"found = {names.add(pattern.match, 'match')}({subject})", "if found is not None:"]
        if short and ends_at_line_end(pattern):  # the match is the whole line (an empty one: "")
            body.append(f"    text = {_expansion(parts, pattern.groups, names)}")
        else:
            body += ["    end = found.end()",
                     f"    text = {_expansion(parts, pattern.groups, names)} + text[end:] if end else {general}(text)"]
    elif short:
        body = [f"text = {names.add(pattern.sub, 'sub')}({names.add(template, 'template')}, text)"]
    else:
        body = [f"text = {general}(text)"]
    if not conditions:
        return body
    return [f"if {' and '.join(conditions)}:"] + ["    " + line for line in body]


_SYNTAX = set(".^$*+?{}[]()|\\")
_PLAIN_ESCAPES = set(".^$*+?{}[]()|\\/-# \"'`~!@%&=:;,<>")


def _plain_text(body: str) -> str | None:
    """The text `body` matches when it is plain text (escaped syntax allowed), else None."""
    out, i = [], 0
    while i < len(body):
        if body[i] == "\\":
            if i + 1 >= len(body) or body[i + 1] not in _PLAIN_ESCAPES:
                return None
            out.append(body[i + 1])
            i += 2
        elif body[i] in _SYNTAX:
            return None
        else:
            out.append(body[i])
            i += 1
    return "".join(out)


def _expansion(parts: ReplacementParts, groups: int, names: Names) -> str:
    """The expression for the replacement of `found`: `%`-formatting of the groups it names."""
    numbers = [part for part in parts if part.__class__ is int]
    if not numbers:
        return names.add("".join(parts), "replacement")  # type: ignore[arg-type]
    if 0 in numbers:
        return f"{names.add(_joiner(parts), 'expand')}(found)"
    layout = names.add("".join("%s" if part.__class__ is int else part.replace("%", "%%")  # type: ignore[union-attr]
                               for part in parts), "layout")
    if len(numbers) == 1:
        return f'{layout} % (found.group({numbers[0]}) or "",)'
    if numbers == list(range(1, groups + 1)):  # every group, in order
        return f'{layout} % found.groups("")'
    return f'{layout} % {names.add(itemgetter(*[n - 1 for n in numbers]), "pick")}(found.groups(""))'  # type: ignore[operator]


def _joiner(parts: ReplacementParts) -> Callable[[re.Match[str]], str]:
    return lambda match: "".join([part if part.__class__ is str else (match.group(part) or "")  # type: ignore[misc]
                                  for part in parts])


def anchored_prefix(pattern: str) -> str:
    """The literal text a `^`-anchored single-branch pattern's match starts with ("" if none)."""
    if not anchored(pattern) or len(top_level_branches(pattern)) != 1 or pattern.startswith("^(?"):
        return ""
    found = branch_prefixes(pattern[1:])
    return next(iter(found)) if found and len(found) == 1 else ""


def _sub(pattern: re.Pattern[str], template: Replacement) -> Apply:
    sub = pattern.sub

    def apply(text: str) -> str:
        if len(text) > LINE_CAP:
            return sub(template, text[:LINE_CAP]) + text[LINE_CAP:]
        return sub(template, text)

    return apply
