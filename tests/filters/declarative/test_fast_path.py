"""The fast path (fast.py, fastfeed.py) prints exactly what the plain rules print.

Every built-in filter, and every filter the Rust rtk ships (read from its binary when it is
installed), runs on generated lines through both `DeclarativeFilter(spec)` and
`DeclarativeFilter(spec, reference=True)`: the lines, their streams, `elided` and the counters
must agree. The lines are the filter's own fixture and inline-test lines, mutated, mixed with
text made of the characters its patterns name, and now and then one past the 4,096-character
regex window. A second property holds the literal gates sound: a string generated from a
pattern that the pattern matches always contains the literal the fast path tests for.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rtk.filters.base import FilterContext, Stream
from rtk.filters.declarative import all_files, engine
from rtk.filters.declarative.catalog import load_all
from rtk.filters.declarative.definition import FilterDef
from rtk.filters.declarative.engine import DeclarativeFilter
from rtk.filters.declarative.fast import anchored_prefix
from rtk.filters.declarative.pattern import LINE_CAP, PatternError, compile_pattern, required_literal
from rtk.filters.declarative.rules import Rules
from tests.conftest import RUST_RTK_HINT
from tests.filters.declarative.helpers import load, one, rust_builtin_text

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


@cache
def builtin() -> dict[str, FilterDef]:
    return {spec.name: spec for spec in load_all([f for f in all_files(None) if f[0] == "built-in"]).filters}


@cache
def upstream() -> dict[str, FilterDef]:
    text = rust_builtin_text()
    return {spec.name: spec for spec in load(text, "built-in").filters} if text else {}


def seed_lines(spec: FilterDef) -> list[str]:
    lines = [line for test in spec.tests for line in test.input.split("\n")]
    for raw in sorted((FIXTURES / spec.name).glob("*/raw.txt"))[:4]:
        lines += raw.read_text(encoding="utf-8", errors="replace").split("\n")[:400]
    return [line.removesuffix("\r") for line in lines] or [""]


def pattern_texts(rules: Rules) -> list[str]:
    found = [p.pattern for p, _, _ in rules.replace] + [c.pattern.pattern for c in rules.counters.values()]
    for rule_list in (rules.strip, rules.keep_only):
        found += [m.pattern for m in rule_list.members] if rule_list is not None else []
    found += [s.start.pattern for s in rules.sections] + [s.end.pattern for s in rules.sections if s.end]
    return found + ([rules.group.pattern.pattern] if rules.group else [])


def alphabet(spec: FilterDef) -> str:
    chars = {c for text in pattern_texts(spec.rules) for c in text if c.isprintable()}
    return "".join(sorted(chars | set(" :|[]().-_/0123456789aZ\t\x1b"))) or "a"


def line_strategy(spec: FilterDef) -> st.SearchStrategy[str]:
    seeds = seed_lines(spec)
    chars = alphabet(spec)
    seed = st.sampled_from(seeds)
    noise = st.text(alphabet=chars, max_size=40)

    @st.composite
    def mutated(draw: st.DrawFn) -> str:
        line = draw(seed)
        for _ in range(draw(st.integers(0, 3))):
            at = draw(st.integers(0, len(line)))
            cut = draw(st.integers(0, 3))
            line = line[:at] + draw(noise) + line[at + cut:]
        return line

    long_line = st.builds(lambda a, b: a + " " * (LINE_CAP - len(a) - 1) + b, seed, seed)
    return st.one_of(seed, mutated(), noise, long_line.filter(lambda text: len(text) >= LINE_CAP))


def outputs(spec: FilterDef, lines: list[tuple[str, Stream]], code: int, *, reference: bool,
            recall: bool, fast_after: int = 0) -> tuple[list[tuple[str, Stream]], bool, dict[str, int]]:
    """What the filter prints; the fast path takes over after `fast_after` lines."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "FAST_AFTER", fast_after)
        filt = DeclarativeFilter(spec, FilterContext(("t",), recall), reference=reference)
        feed = filt.feed  # kept from before the hand-over, as a caller may
        out = [(line.text, line.stream) for text, stream in lines for line in feed(text, stream)]
        progress = dict(filt.progress())
        out += [(line.text, line.stream) for line in filt.finish(code)]
    return out, filt.elided, progress


def check_same(spec: FilterDef, data: st.DataObject) -> None:
    lines = data.draw(st.lists(st.tuples(line_strategy(spec), st.sampled_from((Stream.STDOUT, Stream.STDERR))), max_size=40))
    code = data.draw(st.sampled_from((0, 1)))
    recall = data.draw(st.booleans())
    fast = outputs(spec, lines, code, reference=False, recall=recall, fast_after=data.draw(st.integers(0, 6)))
    assert fast == outputs(spec, lines, code, reference=True, recall=recall)


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.filter_too_much])


@pytest.mark.parametrize("name", sorted(builtin()))
@SETTINGS
@given(data=st.data())
def test_fast_path_equals_the_plain_rules_on_builtin_filters(name: str, data: st.DataObject) -> None:
    check_same(builtin()[name], data)


@pytest.mark.skipif(not upstream(), reason=RUST_RTK_HINT)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(data=st.data())
def test_fast_path_equals_the_plain_rules_on_the_rust_rtk_filters(data: st.DataObject) -> None:
    specs = upstream()
    check_same(specs[data.draw(st.sampled_from(sorted(specs)))], data)


def every_pattern() -> list[str]:
    specs = [*builtin().values(), *upstream().values()]
    rule_sets = [r for spec in specs for r in (spec.rules, spec.failure) if r is not None]
    return sorted({text for rules in rule_sets for text in pattern_texts(rules)})


@pytest.mark.parametrize("pattern", every_pattern())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.filter_too_much])
@given(data=st.data())
def test_every_match_holds_the_literals_the_gates_test_for(pattern: str, data: st.DataObject) -> None:
    compiled = re.compile(pattern)
    try:
        strategy = st.from_regex(compiled)
    except Exception:  # noqa: BLE001 - a construct hypothesis cannot generate from
        pytest.skip(f"hypothesis cannot generate strings for {pattern!r}")
    text = data.draw(strategy)
    assume("\n" not in text and compiled.search(text) is not None)
    assert required_literal(pattern) in text
    assert text.startswith(anchored_prefix(pattern))


EDGES = one('replace = [{ pattern = "^(\\\\w+)=(\\\\d+)?", replacement = "$2:$1%" },'
            ' { pattern = "^(|a)", replacement = "-" }, { pattern = " $", replacement = "" },'
            ' { pattern = "\\\\s+$", replacement = "" }, { pattern = "x{2,}?y", replacement = "<$0>" }]\n'
            'strip_lines_matching = [": Passed$", "^\\\\S+::", "a\\\\\\\\|b", "\\\\x41Z"]\n'
            'counters = { eq = "=", cap = "xxy$" }\nsummary = "{eq} {cap}"\n')
EDGE_LINES = ["ab", "a \n", "q \n", "k=1 ", "k= ", "=", "AZ", "1bZ", "t::x", " t::x", "ok: Passed", "x" * 4094 + "xy",
              "x" * 4100 + "xxy", "c: Passed" + " " * 4100, "a\\", "b", "a|b", " " * 5000]


@pytest.mark.parametrize("line", EDGE_LINES)
def test_the_edges_of_each_shortcut_give_the_plain_answer(line: str) -> None:
    lines = [(line, Stream.STDOUT), ("next", Stream.STDOUT)]
    assert outputs(EDGES, lines, 0, reference=False, recall=True) == \
        outputs(EDGES, lines, 0, reference=True, recall=True)


@pytest.mark.skipif(not upstream(), reason=RUST_RTK_HINT)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_held_output_past_the_hold_cap_streams_the_same_on_both_paths(data: st.DataObject) -> None:
    """A filter that holds (match_output, on_failure) commits past HOLD_LINES and streams the
    held lines through the line function: that hand-over too must print what the plain path does."""
    holding = {name: spec for name, spec in upstream().items() if spec.rules.holds or spec.failure is not None}
    spec = holding[data.draw(st.sampled_from(sorted(holding)))]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "HOLD_LINES", 3)
        check_same(spec, data)


def printed_bytes(spec: FilterDef, blocks: list[tuple[list[str], Stream]], code: int, *,
                  by_block: bool) -> tuple[dict[Stream, bytes], bool]:
    """What the runner's pipeline writes per stream: each block through `feed_block` when it
    takes it, else (and always when not `by_block`) its lines one by one through `feed`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "FAST_AFTER", 0)
        filt = DeclarativeFilter(spec, FilterContext(("t",), True))
    out = {Stream.STDOUT: b"", Stream.STDERR: b""}
    for lines, stream in blocks:
        body = "".join(line + "\n" for line in lines).encode()
        printed = filt.feed_block(body, stream) if by_block else None
        if printed is not None:
            out[stream] += printed
            continue
        for line in body[:-1].decode().split("\n") if body else []:
            for kept in filt.feed(line, stream):
                out[kept.stream] += (kept.text + "\n").encode()
    for kept in filt.finish(code):
        out[kept.stream] += (kept.text + "\n").encode()
    return out, filt.elided


@pytest.mark.parametrize("name", sorted(builtin()))
@SETTINGS
@given(data=st.data())
def test_the_byte_path_prints_what_the_line_path_prints(name: str, data: st.DataObject) -> None:
    spec = builtin()[name]
    block = st.lists(line_strategy(spec).map(lambda text: text.replace("\r", "")), min_size=1, max_size=12)
    blocks = data.draw(st.lists(st.tuples(block, st.sampled_from((Stream.STDOUT, Stream.STDERR))), max_size=6))
    code = data.draw(st.sampled_from((0, 1)))
    assert printed_bytes(spec, blocks, code, by_block=True) == printed_bytes(spec, blocks, code, by_block=False)


@pytest.mark.skipif(not upstream(), reason=RUST_RTK_HINT)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_byte_path_prints_what_the_line_path_prints_for_the_rust_rtk_filters(data: st.DataObject) -> None:
    specs = upstream()
    spec = specs[data.draw(st.sampled_from(sorted(specs)))]
    block = st.lists(line_strategy(spec).map(lambda text: text.replace("\r", "")), min_size=1, max_size=12)
    blocks = data.draw(st.lists(st.tuples(block, st.sampled_from((Stream.STDOUT, Stream.STDERR))), max_size=6))
    code = data.draw(st.sampled_from((0, 1)))
    assert printed_bytes(spec, blocks, code, by_block=True) == printed_bytes(spec, blocks, code, by_block=False)


ATOMS = st.sampled_from(["a", "b", " ", ":", "-", "A", "1", r"\d", r"\s", r"\S", r"\w", ".", "[ab]", "[^a]", "[a-]",
                         r"\x41", r"\.", r"\|", r"\\", r"\b", "{", "}"])
QUANTIFIERS = st.sampled_from(["", "", "", "*", "+", "?", "{2}", "{1,3}", "{2,}", "{,2}", "*?", "+?", "{2,}?", "++"])


@st.composite
def regexes(draw: st.DrawFn, depth: int = 0) -> str:
    """Small regexes of the shapes filter files use, groups and alternations included."""
    pieces = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.integers(0, 4)) == 0:
            opener = draw(st.sampled_from(["(", "(?:"]))
            atom = opener + "|".join(draw(st.lists(regexes(depth + 1), min_size=1, max_size=2))) + ")"
        else:
            atom = draw(ATOMS)
        pieces.append(atom + draw(QUANTIFIERS))
    body = "".join(pieces)
    if depth == 0 and draw(st.booleans()):
        body += "|" + draw(regexes(1))
    return (draw(st.sampled_from(["", "^"])) if depth == 0 else "") + body + \
        (draw(st.sampled_from(["", "$"])) if depth == 0 else "")


def compiles(pattern: str) -> bool:
    """As the engine takes it: a nested quantifier (which could backtrack for ever) is refused."""
    try:
        compile_pattern(pattern, "test")
    except PatternError:
        return False
    return True


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(pattern=regexes(), data=st.data())
def test_the_gates_are_sound_on_generated_patterns(pattern: str, data: st.DataObject) -> None:
    assume(compiles(pattern))
    text = data.draw(st.from_regex(re.compile(pattern)))
    assume("\n" not in text and re.search(pattern, text) is not None)
    assert required_literal(pattern) in text
    assert text.startswith(anchored_prefix(pattern))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(patterns=st.lists(regexes(), min_size=1, max_size=4), replacement=st.sampled_from(["", "x", "$1", "<$0>", "%$1"]),
       lines=st.lists(st.text(alphabet="ab :-A1|.\\\t", max_size=12), max_size=12))
def test_fast_path_equals_the_plain_rules_on_generated_filters(patterns: list[str], replacement: str,
                                                               lines: list[str]) -> None:
    import json

    strip, *rest = patterns
    fields = (f"strip_lines_matching = [{', '.join(json.dumps(p) for p in patterns[1:] or [strip])}]\n"
              f"replace = [{{ pattern = {json.dumps(strip)}, replacement = {json.dumps(replacement)} }}]\n"
              f"counters = {{ hits = {json.dumps(rest[0] if rest else strip)} }}\nsummary = \"{{hits}}\"\n")
    found = load(HEAD_FOR_GENERATED + fields)
    assume(not found.errors)  # a nested quantifier is refused, as for any file
    spec = found.filters[0]
    fed = [(line, Stream.STDOUT) for line in lines]
    assert outputs(spec, fed, 0, reference=False, recall=True) == outputs(spec, fed, 0, reference=True, recall=True)


HEAD_FOR_GENERATED = 'schema_version = 1\n[filters.t]\nmatch_command = "^t\\\\b"\n'


# -- anchored unions: `^(?:A|B)` for `(?:^A)|(?:^B)`, and members that scan (`^\s+-\s+.*\bdeleting`)
# behind their literal -------------------------------------------------------------------------

SCANNING = st.builds("".join, st.tuples(
    st.just("^"), st.sampled_from(["", r"\s+", r"\s*", "a", r"\S+", r"\s{2,}"]), st.sampled_from(["", "-", r"\+\s+"]),
    st.sampled_from([".*", ".+", ".*?", ".+?"]), st.sampled_from(["", r"\b"]),
    st.text(alphabet="abc", min_size=1, max_size=5), st.sampled_from(["", r"\s+\(", "$", r"(\d+)"])))
ANCHORED = st.one_of(SCANNING, regexes().map(lambda p: p if p.startswith("^") else "^" + p))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(patterns=st.lists(ANCHORED, min_size=2, max_size=6),
       lines=st.lists(st.text(alphabet="abc -+(1\t:", max_size=16), max_size=16))
def test_an_anchored_union_strips_and_keeps_what_its_members_do(patterns: list[str], lines: list[str]) -> None:
    import json

    for rule in ("strip_lines_matching", "keep_lines_matching"):
        found = load(HEAD_FOR_GENERATED + f"{rule} = [{', '.join(json.dumps(p) for p in patterns)}]\n")
        assume(not found.errors)
        spec = found.filters[0]
        fed = [(line, Stream.STDOUT) for line in lines]
        assert outputs(spec, fed, 0, reference=False, recall=True) == outputs(spec, fed, 0, reference=True, recall=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(patterns=st.lists(ANCHORED, min_size=2, max_size=5), line=st.text(alphabet="abc -+(1\t:", max_size=16))
def test_the_factored_union_finds_the_written_unions_match_and_groups(patterns: list[str], line: str) -> None:
    from rtk.filters.declarative.fast import _factored

    assume(all(compiles(p) for p in patterns))
    members = tuple(re.compile(p) for p in patterns)
    try:
        written = re.compile("|".join(f"(?:{p})" for p in patterns))
    except re.error:
        assume(False)
    factored = _factored(members)
    if factored is None:  # a member of another shape (a top-level `|`): the union stays as written
        assert any("|" in p for p in patterns)
        return
    mine, theirs = factored(line), written.match(line)
    assert (mine and (mine.span(), mine.groups())) == (theirs and (theirs.span(), theirs.groups()))


def test_a_scanning_member_is_tried_only_on_lines_holding_its_literal() -> None:
    from rtk.filters.declarative.fast import Names, any_test_expr

    spec = one('strip_lines_matching = ["^\\\\s*$", "^Destroying \\\\(", "^\\\\s+-\\\\s+.*\\\\bdeleting\\\\s+\\\\("]\n')
    names = Names()
    expr = any_test_expr(spec.rules.strip, "probe", names)  # type: ignore[arg-type]
    gates = {name: value for name, value in names.values.items() if name.startswith("literal")}
    assert list(gates.values()) == ["deleting"] and f"{next(iter(gates))} in probe" in expr
    unions = [getattr(v, "__self__", None) for name, v in names.values.items() if name.startswith("search")]
    assert next(u.pattern for u in unions if u is not None) == "^(?:(?:\\s*$)|(?:Destroying \\())"
