"""How long the replace rules can make a line: the bound under which a block needs no window checks.

Every regex of a filter sees at most the first LINE_CAP characters of a line, so the generated
code tests each text's length before each rule (and a replace rule can lengthen the text the
next one sees). When every line of a block is short enough that no rule can carry any text past
the window, one `max(map(len, lines))` per block answers all those tests at once and the block
takes a variant without them (fastfeed.py). The bound is derived from the regexes' parse trees,
never guessed: `len(after) <= mult * len(before) + add` for each rule, chained over the rules.

A rule has a linear bound when the groups its replacement names are not inside a lookaround
(there a group can hold text beyond the match), and, for a rule that may match many times, every
match takes at least one character (an empty match inserts the replacement at every position).
The parser is `re`'s own (`re._parser`, as in 3.11-3.13); if it is missing or refuses, no rule
has a bound and every block keeps its checks.
"""
from __future__ import annotations

import re

from .pattern import LINE_CAP, ReplacementParts
from .rules import ReplaceRule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

_LOOKAROUND = ("ASSERT", "ASSERT_NOT")
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def short_line_bound(rules: Sequence[ReplaceRule], anchored: Iterable[bool]) -> int | None:
    """The longest line (in characters) for which no text any rule sees passes LINE_CAP, or None
    when the rules give no such bound (or a replacement writes a newline: the block path's lines
    hold none, which the checkless variant relies on)."""
    mult, add = 1.0, 0.0
    for (pattern, _, parts), one_match in zip(rules, anchored, strict=True):
        if any(part.__class__ is str and "\n" in part for part in parts):  # type: ignore[operator]
            return None
        found = rule_growth(pattern, parts, one_match)
        if found is None:
            return None
        mult, add = found[0] * mult, found[0] * add + found[1]
    bound = int((LINE_CAP - add) / mult)
    return bound if bound > 0 else None


def rule_growth(pattern: re.Pattern[str], parts: ReplacementParts, one_match: bool) -> tuple[float, float] | None:
    """(mult, add): `pattern.sub(parts)` turns a text of n characters into at most mult*n + add.
    `one_match`: the pattern can match only at the text's start (at most once)."""
    tree = _parse(pattern)
    if tree is None:
        return None
    literal = sum(len(part) for part in parts if part.__class__ is str)  # type: ignore[arg-type]
    refs = [part for part in parts if part.__class__ is int]
    groups = _group_facts(tree)
    if any(groups.get(ref, (False, frozenset()))[0] for ref in refs if ref):
        return None  # a group inside a lookaround can hold more than the match
    # the named groups' total length: at most the match's when each is named once and none holds another
    disjoint = len(set(refs)) == len(refs) and (0 not in refs or len(refs) == 1) and \
        not any(other in groups.get(ref, (False, frozenset()))[1] for ref in refs for other in refs if ref)
    copies = 1 if disjoint or not refs else len(refs)
    shortest = tree.getwidth()[0]
    if one_match:
        # `^1*?` matches twice at the start: empty, then (re.sub since 3.7) the non-empty one
        return 1.0 + max(0, copies - 1), float(literal if shortest else 2 * literal)
    if not literal and copies <= 1:
        return 1.0, 0.0  # each match gives way to at most its own characters
    if shortest < 1:
        return None
    return 1.0 + literal / shortest + max(0, copies - 1), 0.0


def ends_at_line_end(pattern: re.Pattern[str]) -> bool:
    """Every match ends at the end of the text (`$` last on every way through), for a text
    without a newline (`$` also matches before a final one)."""
    tree = _parse(pattern)
    return tree is not None and _ends_with_end(list(tree))


def _ends_with_end(items: list[Any]) -> bool:
    """The sequence's last step is `$`, or a group or alternation each of whose ways ends so."""
    if not items:
        return False
    op, av = items[-1]
    name = str(op)
    if name == "AT":
        return str(av) == "AT_END"
    if name == "SUBPATTERN":
        return _ends_with_end(list(av[3]))
    if name == "BRANCH":
        return all(_ends_with_end(list(branch)) for branch in av[1])
    return False


def _parse(pattern: re.Pattern[str]) -> Any:
    try:
        from re import _parser  # type: ignore[attr-defined]

        return _parser.parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001 - another interpreter's parser: no bound, the checks stay
        return None


def _group_facts(tree: object) -> dict[int, tuple[bool, frozenset[int]]]:
    """group -> (inside a lookaround, the groups inside it)."""
    facts: dict[int, tuple[bool, frozenset[int]]] = {}

    def walk(items: object, in_look: bool) -> set[int]:
        inner: set[int] = set()
        for op, av in items:  # type: ignore[attr-defined]
            name = str(op)
            if name == "SUBPATTERN":
                group, _, _, sub = av
                below = walk(sub, in_look)
                if group:
                    facts[group] = (in_look, frozenset(below))
                    inner.add(group)
                inner |= below
            elif name in _LOOKAROUND:
                inner |= walk(av[1], True)
            elif name == "BRANCH":
                for branch in av[1]:
                    inner |= walk(branch, in_look)
            elif name in _REPEATS:
                inner |= walk(av[2], in_look)
            elif name == "ATOMIC_GROUP":
                inner |= walk(av, in_look)
            elif name == "GROUPREF_EXISTS":
                for branch in av[1:]:
                    if branch is not None:
                        inner |= walk(branch, in_look)
        return inner

    walk(tree, False)
    return facts
