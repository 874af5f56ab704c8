"""Turn a filter's `match` words and `match_command` regex into matcher data for the index.

Runs when the index is rebuilt, never on the hook path (the package `__init__` turns the data
into matchers). A `match_command` keeps its exact regex semantics; what is derived here is only
the literal prefixes its first word must start with, which lets the hook path skip the regex (and
the `re` import) for every other command.
"""
from __future__ import annotations

from .pattern import PatternError, compile_pattern
from .schema import SpecError, check_strings

MatcherData = tuple[object, ...]

_META = set(".^$*+?{}[]()|\\")
_QUANTIFIERS = set("*+?{")


def word_pattern(text: str, rewrite: bool, where: str) -> MatcherData:
    """`docker build|buildx *` -> ("w", program, positions, open_end, rewrite)."""
    words = text.split()
    open_end = bool(words) and words[-1] == "*"
    words = words[:-1] if open_end else words
    if not words or "*" in words or any(not alt for w in words for alt in w.split("|")):
        raise SpecError(f"{where}.match: {text!r}: needs a command word first, and '*' only at the end")
    alternatives = [tuple(sorted(set(w.split("|")))) for w in words]
    return ("w", alternatives[0], tuple(alternatives[1:]), open_end, rewrite)


def matchers_for(table: dict[str, object], where: str) -> list[MatcherData]:
    rewrite = bool(table.get("rewrite", True))
    found = [word_pattern(text, rewrite, where)
             for text in check_strings(table.get("match", []), f"{where}.match")]
    regex = table.get("match_command")
    if isinstance(regex, str):
        found.append(_command_regex(regex, rewrite, where))
    if not found:
        raise SpecError(f"{where}: needs match (words) or match_command (regex)")
    return found


def _command_regex(regex: str, rewrite: bool, where: str) -> MatcherData:
    branches = top_level_branches(regex)
    if not all(_strip_flags(b).startswith("^") for b in branches):
        raise SpecError(f"{where}.match_command: {regex!r} has a branch not anchored with '^' "
                        "(it would match mid-command)")
    try:
        compile_pattern(regex, f"{where}.match_command")
    except PatternError as exc:
        raise SpecError(str(exc)) from None
    prefixes: set[str] = set()
    for branch in branches:
        found = None if branch.startswith("(?") and not branch.startswith("(?:") \
            else branch_prefixes(branch[1:])
        if found is None:
            return ("r", regex, None, rewrite)
        prefixes |= found
    return ("r", regex, tuple(sorted(prefixes)), rewrite)


def _strip_flags(branch: str) -> str:
    if branch.startswith("(?") and not branch.startswith("(?:"):
        end = branch.find(")")
        return branch[end + 1:] if end > 0 else branch
    return branch


def top_level_branches(pattern: str) -> list[str]:
    branches, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        elif char == "(" and not in_class:
            depth += 1
        elif char == ")" and not in_class:
            depth = max(0, depth - 1)
        elif char == "|" and not in_class and depth == 0:
            branches.append(pattern[start:i])
            start = i + 1
        i += 1
    branches.append(pattern[start:])
    return branches


def branch_prefixes(body: str) -> set[str] | None:
    """The literal texts a match of `body` must start with, or None when there is none."""
    if body.startswith(("(?:", "(")):
        inner_start = 3 if body.startswith("(?:") else 1
        close = _group_end(body, 0)
        if close < 0 or (close + 1 < len(body) and body[close + 1] in _QUANTIFIERS):
            return None
        found: set[str] = set()
        for alternative in top_level_branches(body[inner_start:close]):
            prefix = _literal(alternative)
            if not prefix:
                return None
            found.add(prefix)
        return found
    prefix = _literal(body)
    return {prefix} if prefix else None


def _literal(body: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        char = body[i]
        if char == "\\" and i + 1 < len(body) and body[i + 1] in _META | {"-", "/", " "}:
            out.append(body[i + 1])
            i += 2
        elif char in _META:
            break
        else:
            out.append(char)
            i += 1
        if i < len(body) and body[i] in _QUANTIFIERS:
            out.pop()
            break
    return "".join(out)


def _group_end(body: str, start: int) -> int:
    depth, i = 0, start
    while i < len(body):
        if body[i] == "\\":
            i += 2
            continue
        if body[i] == "(":
            depth += 1
        elif body[i] == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1
