"""The engine's fast path: the rules' answers with the work that cannot change them skipped.

The per-line cost is what bounds the engine's throughput, so everything here is decided once,
when a filter is loaded: which members of a pattern list share one regex, which are tried only
on lines holding a literal text every match of theirs must contain (`required_literal`, sound by
construction), which replace rules can be done with one anchored match or `str.rstrip` instead
of `re.sub`. Each shortcut is an identity, never a heuristic about the output: the reference path
(`RulePipeline(rules, reference=True)`, the plain regexes in order) gives the same lines, and a
property test holds the two together on every built-in filter.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from operator import itemgetter

from .matchers import branch_prefixes, top_level_branches
from .pattern import LINE_CAP, AnyOf, Replacement, ReplacementParts, required_literal
from .rules import ReplaceRule

Test = Callable[[str], object]
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

    None for anchored patterns whose first test fails fast on most lines (`^Reading`,
    `^\\s*$`): there the regex is cheaper than the `in` scan."""
    if anchored(pattern) and not _BROAD_START.match(pattern):
        return ""
    return required_literal(pattern)


def one_test(pattern: re.Pattern[str]) -> Test:
    """`pattern.search`, skipped on lines without its required literal."""
    literal, search = gate(pattern.pattern), pattern.search
    if not literal:
        return search
    return lambda probe: literal in probe and search(probe)


def any_test(patterns: AnyOf) -> Test:
    """True (a match) exactly where `patterns.search` finds one. The anchored members share one
    union regex (each fails at the line's start, inside one C call); an unanchored member in a
    union would be tried at every position with every branch, so each is searched alone behind
    its literal, and those without one share a second union."""
    members = patterns.members
    if len(members) == 1:
        return one_test(members[0])
    if any(_GROUP_REFERENCE.search(m.pattern) for m in members):
        return patterns.search
    cheap: list[re.Pattern[str]] = []
    gated: dict[str, list[re.Pattern[str]]] = {}
    rest: list[re.Pattern[str]] = []
    for member in members:
        literal = "" if anchored(member.pattern) else required_literal(member.pattern)
        if literal:
            gated.setdefault(literal, []).append(member)
        else:
            (cheap if anchored(member.pattern) else rest).append(member)
    first = AnyOf(cheap).search if cheap else None
    last = AnyOf(rest).search if rest else None
    checks = tuple((literal, AnyOf(group).search) for literal, group in gated.items())
    return _either(first, checks, last)


def _either(first: Test | None, checks: tuple[tuple[str, Test], ...], last: Test | None) -> Test:
    """`first(p) or (l0 in p and c0(p)) or ... or last(p)` as one function, so a line costs
    one call however many groups there are. Its source is built from generated names only
    (the literals and regexes are values in its namespace, never text in the code)."""
    if not checks and (first is None or last is None):
        return first or last  # type: ignore[return-value]
    namespace: dict[str, object] = {"first": first, "last": last}
    terms = ["first(p)"] if first is not None else []
    for i, (literal, search) in enumerate(checks):
        namespace[f"l{i}"], namespace[f"c{i}"] = literal, search
        terms.append(f"(l{i} in p and c{i}(p))")
    if last is not None:
        terms.append("last(p)")
    return eval("lambda p: " + " or ".join(terms), namespace)  # type: ignore[no-any-return]


# -- replace ---------------------------------------------------------------------------------

# the commonest replace rule, trailing whitespace -> "", as `str.rstrip` (chars; None: whitespace)
_TRAILING = {r"\s+$": None, r"\s*$": None, r" +$": " ", r" *$": " ", r"[ \t]+$": " \t", r"[ \t]*$": " \t"}


def replacer(rule: ReplaceRule) -> tuple[str, str, Apply]:
    """(text a line must start with, text it must contain, the rewrite) for one replace rule;
    the rewrite equals `pattern.sub(template, line[:LINE_CAP]) + line[LINE_CAP:]`."""
    pattern, template, parts = rule
    text = pattern.pattern
    literal = required_literal(text)
    prefix = anchored_prefix(text)
    if template == "" and text in _TRAILING:
        return prefix, literal, _rstrip(pattern, _TRAILING[text])
    if anchored(text):
        return prefix, literal, _anchored_sub(pattern, template, parts)
    return prefix, literal, _sub(pattern, template)


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


def _rstrip(pattern: re.Pattern[str], chars: str | None) -> Apply:
    general = _sub(pattern, "")

    def apply(text: str) -> str:
        if len(text) > LINE_CAP or text.endswith("\n"):  # `$` also matches before a final newline
            return general(text)
        return text.rstrip(chars)

    return apply


def _anchored_sub(pattern: re.Pattern[str], template: Replacement, parts: ReplacementParts) -> Apply:
    """An anchored pattern matches at most once, at 0: the match, expanded, then the line's rest.
    (An empty match at 0 lets `sub` try again there, so that case takes `sub` itself.)"""
    general, search, expand = _sub(pattern, template), pattern.search, _expander(parts)

    def apply(text: str) -> str:
        found = search(text if len(text) <= LINE_CAP else text[:LINE_CAP])
        if found is None:
            return text
        end = found.end()
        if end == 0:
            return general(text)
        return expand(found) + text[end:]

    return apply


def _expander(parts: ReplacementParts) -> Callable[[re.Match[str]], str]:
    """The replacement for one match: `%`-formatting of the groups it names, in C."""
    numbers = [part for part in parts if part.__class__ is int]
    if 0 in numbers or not numbers:
        literal = "".join(part for part in parts if part.__class__ is str)  # type: ignore[misc]
        if not numbers:
            return lambda match: literal
        return lambda match: "".join([part if part.__class__ is str else (match.group(part) or "")  # type: ignore[misc]
                                      for part in parts])
    layout = "".join("%s" if part.__class__ is int else part.replace("%", "%%") for part in parts)  # type: ignore[union-attr]
    pick = itemgetter(*[number - 1 for number in numbers])  # type: ignore[operator]
    if len(numbers) == 1:
        return lambda match: layout % (pick(match.groups("")),)
    return lambda match: layout % pick(match.groups(""))
