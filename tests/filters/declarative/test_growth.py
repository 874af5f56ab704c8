"""growth.py: the bound under which a block takes the variant without window tests (issue 22).

The variant is exact only if the bound is: no rule may carry a text past LINE_CAP for a line the
bound admits. So the bound of one rule is held against `re.sub` itself on generated regexes,
replacements and texts; `ends_at_line_end` (a match that is the whole line) against every match
`re` finds; and the byte path, variant included, against the line path on generated filters
whose lines sit on either side of the bound.
"""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from rtk.filters.base import Stream
from rtk.filters.declarative.engine import DeclarativeFilter, lines_shorter_than
from rtk.filters.declarative.fast import anchored
from rtk.filters.declarative.growth import ends_at_line_end, rule_growth, short_line_bound
from rtk.filters.declarative.pattern import LINE_CAP, compile_pattern, replacement_parts, replacement_template
from tests.filters.declarative.helpers import load
from tests.filters.declarative.test_fast_path import builtin, compiles, printed_bytes, regexes

SLOW = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
REPLACEMENTS = st.sampled_from(["", "x", "$1", "<$0>", "$1$1", "$2-$1", "${1}ab$3", "xyzxyz", "$$"])
TEXTS = st.text(alphabet="ab :-A1|.\\\t", max_size=40)


@SLOW
@given(pattern=regexes(), replacement=REPLACEMENTS, text=TEXTS)
@example(pattern="^1*?", replacement="<$0>", text="1")  # an anchored rule matching twice: empty, then "1"
def test_a_rules_bound_holds_for_what_sub_makes(pattern: str, replacement: str, text: str) -> None:
    assume(compiles(pattern))
    compiled = compile_pattern(pattern, "test")
    parts = replacement_parts(replacement, compiled)
    one_match = anchored(pattern)
    found = rule_growth(compiled, parts, one_match)
    assume(found is not None)
    mult, add = found  # type: ignore[misc]
    assert len(compiled.sub(replacement_template(parts), text)) <= mult * len(text) + add


@SLOW
@given(pattern=regexes(), text=TEXTS)
def test_a_match_said_to_reach_the_end_reaches_it(pattern: str, text: str) -> None:
    assume(compiles(pattern))
    compiled = compile_pattern(pattern, "test")
    assume(ends_at_line_end(compiled))
    for found in compiled.finditer(text):
        assert found.end() == len(text)


def test_shapes_that_give_no_bound() -> None:
    lookahead = re.compile(r"a(?=(b+))")
    assert rule_growth(lookahead, replacement_parts("$1", lookahead), False) is None  # the group outgrows the match
    empty = re.compile(r"x*")
    assert rule_growth(empty, replacement_parts("y", empty), False) is None  # inserted at every position
    newline = re.compile(r"^a")
    assert short_line_bound([(newline, "\n", ("\n",))], [True]) is None  # the lines would hold a newline
    assert not ends_at_line_end(re.compile(r"^a$|^b"))


def test_the_slow_built_in_filters_take_the_variant_for_their_lines() -> None:
    for name in ("ps", "psql", "markdownlint", "yamllint", "shellcheck"):
        rules = builtin()[name].rules.replace
        bound = short_line_bound(rules, [anchored(pattern.pattern) for pattern, _, _ in rules])
        assert bound is not None and bound >= 1000, name


HEAD = 'schema_version = 1\n[filters.t]\nmatch_command = "^t\\\\b"\n'


# Each example runs up to three generated regexes over lines of up to 4,099 characters, and
# some are quadratic or worse there (`A+?\w?-{1,3}\\$` on 3,073 `A`s: 1 s). One such example,
# saved in a checkout's .hypothesis database, ran past pytest-timeout's 300 s on every later run;
# fewer examples make drawing one rarer (a fresh database: 100 examples in ~3 s).
LONG_LINES = settings(SLOW, max_examples=100)


def nests_unbounded_repeats(pattern: str) -> bool:
    """A repeat without an upper bound inside another (`(?: *?a*)*`): exponential backtracking on
    a line of thousands of characters (one such example ran 7 minutes, in CI's 300 s timeout's
    way). Those are the generated regexes this test sets aside; the quadratic ones stay."""
    from re import _parser  # type: ignore[attr-defined]

    def walk(items: object, inside: bool) -> bool:
        for op, av in items:  # type: ignore[attr-defined]
            name = str(op)
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                unbounded = av[1] == _parser.MAXREPEAT
                if (unbounded and inside) or walk(av[2], inside or unbounded):
                    return True
                continue
            if name == "SUBPATTERN":
                inner = [av[3]]
            elif name == "BRANCH":
                inner = list(av[1])
            elif name in ("ASSERT", "ASSERT_NOT"):
                inner = [av[1]]
            else:
                inner = [av] if name == "ATOMIC_GROUP" else []
            if any(walk(sub, inside) for sub in inner):
                return True
        return False

    return walk(_parser.parse(pattern), False)


def test_nested_unbounded_repeats_are_told_apart() -> None:
    assert nests_unbounded_repeats(r"(?:\b[ab]++ {1,3}[ab]+?|b)*?(?:(?: *?a*)*)")
    assert nests_unbounded_repeats(r"(a+)+b") and nests_unbounded_repeats(r"(?:x|(?:y*))*")
    assert not nests_unbounded_repeats(r"A+?\w?-{1,3}\\$") and not nests_unbounded_repeats(r"(ab{2,5})*c+")


@LONG_LINES
@given(patterns=st.lists(regexes(), min_size=1, max_size=3), replacement=REPLACEMENTS,
       short=st.lists(TEXTS, min_size=1, max_size=8), data=st.data())
def test_the_byte_path_prints_what_the_line_path_prints_around_the_bound(
        patterns: list[str], replacement: str, short: list[str], data: st.DataObject) -> None:
    rules = ", ".join(f"{{ pattern = {json.dumps(p)}, replacement = {json.dumps(replacement)} }}" for p in patterns)
    found = load(HEAD + f"replace = [{rules}]\nstrip_lines_matching = [{json.dumps(patterns[0])}]\n")
    assume(not found.errors)
    spec = found.filters[0]
    replace = spec.rules.replace
    assume(not any(nests_unbounded_repeats(pattern.pattern) for pattern, _, _ in replace))
    bound = short_line_bound(replace, [anchored(pattern.pattern) for pattern, _, _ in replace])
    assume(bound is not None)
    assert bound is not None
    width = data.draw(st.sampled_from([bound - 1, bound, bound + 1, LINE_CAP - 2, LINE_CAP + 3]))
    long_line = data.draw(TEXTS)
    long_line = (long_line * (width // max(len(long_line), 1) + 1))[:max(width, 0)]
    lines = short + ([long_line] if data.draw(st.booleans()) else [])
    blocks = [(lines, Stream.STDOUT), (short, Stream.STDOUT)]
    assert printed_bytes(spec, blocks, 0, by_block=True) == printed_bytes(spec, blocks, 0, by_block=False)


def test_a_block_of_short_lines_runs_the_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = builtin()["ps"]
    filt = DeclarativeFilter(spec)
    body = b"root           1  0.0  0.0   4360  3184 ?        S    15:31   0:00 /bin/bash /srv/start.sh\n"
    assert filt.feed_block(body, Stream.STDOUT) == b"root 1 0.0 0.0 3184 S /bin/bash /srv/start.sh\n"
    assert filt._short_block is not None  # which variant ran is the point here
    calls: list[int] = []
    short, bound = filt._short_block

    def counted(lines: list[str]) -> list[str]:
        calls.append(len(lines))
        return short(lines)

    monkeypatch.setattr(filt, "_short_block", (counted, bound))
    filt.feed_block(body * 3, Stream.STDOUT)
    filt.feed_block(body[:-1] + b" " * LINE_CAP + b"\n", Stream.STDOUT)  # past the bound: the general block
    assert calls == [3]


@settings(max_examples=300, deadline=None)
@given(lengths=st.lists(st.integers(0, 90), min_size=1, max_size=30), bound=st.integers(0, 70),
       wide=st.booleans())
def test_lines_shorter_than_never_lets_a_long_line_through(lengths: list[int], bound: int, wide: bool) -> None:
    body = "".join(("é" if wide else "a") * n + "\n" for n in lengths).encode()
    verdict = lines_shorter_than(body, bound)
    if verdict:  # never wrong when it says yes
        assert max(lengths) < bound
    step = bound // 2
    if step and max(len(line.encode()) for line in body.decode().split("\n")) < step:
        assert verdict  # and it says yes whenever every line is well within the bound
