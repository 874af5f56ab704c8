"""The stages and sections written out as code (faststages.py, fastfeed.py) print what the
plain pipeline prints.

Generated filters combine every stateful stage (carry, collapse, group, headings, head/tail/max)
and sections (open, end, switch to another, `keep = false`, a line cap whose marker comes out
when the section closes) with small caps, so group budgets, hold caps and windows overflow on
short inputs; lines are drawn from a small alphabet that those patterns match often. Both the
line feed and the block feed (`feed_block`, taking turns with the line path on the same state)
must give the plain path's output, `elided` flag and counters.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk.filters.base import Stream
from rtk.filters.declarative import stages
from tests.filters.declarative.helpers import HEAD, load
from tests.filters.declarative.test_fast_path import outputs, printed_bytes

WORDS = ["a.sh:L1:", "a.sh:L2:", "b:L3:", "  SC1 (x): m", "a.sh:L1: e", "b:L9: f", "", " ", "In x", "end",
         "## h", "#x", "done", "n 1", "n 2", "n 3", "c:d", "c: d", "START", "STOP", "other", "--", "x" * 30,
         "esc \x1b[1m",  # an escape code: its block takes the line path, on the same state
         "c:" + "w" * 4100 + "2", "## " + "h" * 4100]  # past the regexes' 4,096-character window
RUNS = [["START", "n 1", "x y", "n 2", "c:d", "STOP"], ["## h", "a", "b: 1", "c", "d", "e"],
        ["a.sh:L1:", "  SC1 (x): m", "  SC2 (y): n", ""], ["In x", "code", "", "done"], ["b:L3:", "b:L3:", "end"]]
LINE = st.one_of(st.sampled_from(WORDS), st.text(alphabet="ab:L1 #S()-", max_size=10))
LINES = st.lists(st.one_of(LINE.map(lambda line: [line]), st.sampled_from(RUNS)), max_size=20).map(
    lambda pieces: [line for piece in pieces for line in piece])

OPTIONAL = {
    "carry": 'carry = { pattern = ":L\\\\d+:$", to = "^  SC\\\\d+ \\\\(" }\n',
    "collapse": 'collapse = { normalize = ["\\\\d+"], min_count = 2 }\n',
    "group": 'group = { pattern = "^(?P<key>[^:]+):(?P<item>.*)$", max_items = 3, max_groups = 2, repeat_key_every = 2 }\n',
    "group_keyonly": 'group = { pattern = "^(?P<key>\\\\w+):", max_items = 2, max_groups = 3 }\n',
    "headings": 'headings = { pattern = "^#", every = 2 }\n',
    "window": "head_lines = 4\ntail_lines = 3\nmax_lines = 6\n",
    "tail": "tail_lines = 2\n",
    "truncate": "truncate_lines_at = 8\n",
    "strip": 'strip_lines_matching = ["^$", "^\\\\s*$", "^--"]\n',
    "keep": 'keep_lines_matching = ["^\\\\S", "SC", "^$"]\n',
    "on_empty": 'on_empty = "nothing"\n',
    "counter": 'counters = { n = "^n \\\\d" }\nsummary = "{n} n"\n',
}
SECTIONS = [
    '{ name = "cap", start = "^START$", end = "^STOP$", max_lines = 2, keep_lines_matching = ["\\\\S"] }',
    '{ name = "drop", start = "^In ", end = "^$", keep = false }',
    '{ name = "open", start = "^##", strip_lines_matching = ["done"] }',
    '{ name = "finding", start = ":L\\\\d+:$", end = "^end$", keep_lines_matching = [":L\\\\d+:$", "^  SC"] }',
]


@st.composite
def filters(draw: st.DrawFn) -> str:
    names = draw(st.lists(st.sampled_from(sorted(OPTIONAL)), unique=True, max_size=6))
    if "group" in names and "group_keyonly" in names:
        names.remove("group_keyonly")
    if "window" in names and "tail" in names:
        names.remove("tail")
    if "strip" in names and "keep" in names:  # exclusive, as upstream
        names.remove("keep")
    fields = "".join(OPTIONAL[name] for name in names)
    chosen = draw(st.lists(st.sampled_from(SECTIONS), unique=True, max_size=3))
    if chosen:
        fields += f"sections = [{', '.join(chosen)}]\n"
    return fields


def spec_of(fields: str) -> object:
    found = load(HEAD + fields)
    assert not found.errors, (fields, found.errors)
    return found.filters[0]


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(fields=filters(), lines=LINES, code=st.sampled_from((0, 1)), recall=st.booleans(),
       fast_after=st.integers(0, 5))
def test_generated_stages_give_the_plain_output_line_by_line(fields: str, lines: list[str], code: int,
                                                             recall: bool, fast_after: int) -> None:
    spec = spec_of(fields)
    fed = [(line, Stream.STDOUT) for line in lines]
    fast = outputs(spec, fed, code, reference=False, recall=recall, fast_after=fast_after)  # type: ignore[arg-type]
    assert fast == outputs(spec, fed, code, reference=True, recall=recall)  # type: ignore[arg-type]


@SETTINGS
@given(fields=filters(), blocks=st.lists(st.tuples(LINES.filter(bool), st.sampled_from((Stream.STDOUT, Stream.STDERR))),
                                          max_size=5), code=st.sampled_from((0, 1)))
def test_generated_stages_give_the_line_path_output_block_by_block(fields: str, blocks: list[tuple[list[str], Stream]],
                                                                   code: int) -> None:
    spec = spec_of(fields)
    assert printed_bytes(spec, blocks, code, by_block=True) == printed_bytes(spec, blocks, code, by_block=False)  # type: ignore[arg-type]


@pytest.mark.parametrize("every", [0, 1, 2, 3, -2])
def test_the_key_repeat_lands_where_the_item_count_says(every: int) -> None:
    items = [f"  i{n}" for n in range(7)]
    expected = []
    for i, item in enumerate(items):
        if i and every and i % every == 0:
            expected.append("k (continued)")
        expected.append(item)
    assert stages._with_key_every(items, "k", abs(every)) == expected


def test_the_generated_filters_load() -> None:
    """Each optional field and section on its own is a valid filter (the strategy's pieces)."""
    for fields in [*OPTIONAL.values(), *(f"sections = [{s}]\n" for s in SECTIONS)]:
        assert not load(HEAD + fields).errors


def test_the_reference_never_takes_the_generated_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain path is what the property tests compare against: it must stay plain (it once
    switched to the generated feed at once, so the tests compared that feed with itself)."""
    from rtk.filters.base import FilterContext
    from rtk.filters.declarative import engine

    def refuse(*args: object) -> None:
        raise AssertionError("the reference generated code")

    monkeypatch.setattr(engine, "line_feed", refuse)
    monkeypatch.setattr(engine, "block_feed", refuse)
    monkeypatch.setattr(engine, "FAST_AFTER", 0)
    filt = engine.DeclarativeFilter(spec_of(OPTIONAL["headings"]), FilterContext(("t",), True), reference=True)
    printed = [line.text for n in range(300) for line in filt.feed(f"#{n}" if n % 7 == 0 else "x", Stream.STDOUT)]
    assert filt.feed_block(b"x\n", Stream.STDOUT) is None
    assert printed.count("x") == 300 - 43


LONG = ["c:" + "w" * 4100 + "2", "a.sh:L1:", "  SC1 (x): " + "m" * 4100, "## " + "h" * 4100 + ":L2:", "b: 1", "c:x"]


@pytest.mark.parametrize("name", sorted(OPTIONAL))
def test_each_stage_looks_at_the_window_of_a_long_line_as_the_plain_one(name: str) -> None:
    """Past 4,096 characters a stage's regex sees the window only: on both paths, every stage."""
    spec = spec_of(OPTIONAL[name] + OPTIONAL["carry"] * (name != "carry"))
    lines = [(line, Stream.STDOUT) for line in LONG * 3]
    assert outputs(spec, lines, 1, reference=False, recall=True) == outputs(spec, lines, 1, reference=True, recall=True)  # type: ignore[arg-type]
    blocks = [(LONG, Stream.STDOUT), (LONG[::-1], Stream.STDOUT)]
    assert printed_bytes(spec, blocks, 1, by_block=True) == printed_bytes(spec, blocks, 1, by_block=False)  # type: ignore[arg-type]
