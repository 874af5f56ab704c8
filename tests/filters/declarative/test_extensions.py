"""Our extensions to the format: word matchers, on_failure, collapse, group, sections, summary."""
from __future__ import annotations

import re

import pytest

from rtk.filters import declarative
from rtk.filters.base import FilterContext, Stream
from rtk.filters.declarative import engine as engine_module
from rtk.filters.declarative.engine import DeclarativeFilter
from rtk.filters.declarative.matchers import word_pattern
from tests.filters.declarative.helpers import HEAD, load, one, run


@pytest.mark.parametrize("pattern, argv, expected", [
    ("make", ["make"], True),
    ("make", ["make", "all"], False),
    ("make *", ["make", "-j4", "all"], True),
    ("make *", ["/usr/bin/make"], True),
    ("docker build|buildx *", ["docker", "--debug", "buildx", "."], True),
    ("docker build|buildx *", ["docker", "run", "x"], False),
    ("apt-get install", ["apt-get", "-y", "install"], True),
    ("apt-get install", ["apt-get", "install", "x"], False),
])
def test_word_patterns(pattern: str, argv: list[str], expected: bool) -> None:
    assert declarative.matcher(word_pattern(pattern, True, "t")).matches(argv) is expected


def test_match_words_and_rewrite_false_reach_the_index_data() -> None:
    found = load('[filters.ed]\nmatch = ["vim *"]\nrewrite = false\n')
    spec = found.filters[0]
    assert spec.matchers == (("w", ("vim",), (), True, False),) and not spec.rewrite


def test_match_command_keeps_regex_semantics_with_a_literal_prefilter() -> None:
    spec = load('[filters.m]\nmatch_command = "^make\\\\b"\n').filters[0]
    shape = declarative.matcher(spec.matchers[0])
    assert shape.prefixes == ("make",)
    assert shape.matches(["make", "-j"]) and shape.matches(["make-doc"]) and not shape.matches(["cmake"])


def test_an_unanchored_match_command_is_refused_like_upstream() -> None:
    found = load('[filters.m]\nmatch_command = "make"\n')
    assert not found.filters and "not anchored" in found.errors[0]


def test_on_failure_rules_replace_the_fields_they_name_when_the_exit_is_non_zero() -> None:
    spec = one('max_lines = 2\non_failure = { max_lines = 10 }\n')
    lines = [f"line {i}" for i in range(5)]
    assert run(spec, lines, 0)[0] == ["line 0", "line 1", "... 3 more lines"]
    out, engine = run(spec, lines, 2)
    assert out == lines and engine.failure_seen


def test_an_empty_on_failure_says_the_filter_explains_failures() -> None:
    spec = one('strip_lines_matching = ["^ok"]\non_failure = {}\n')
    out, engine = run(spec, ["ok a", "bad b"], 1)
    assert out == ["bad b"] and engine.failure_seen and spec.failure is None


def test_collapse_with_normalize() -> None:
    spec = one('collapse = { normalize = ["\\\\d+"] }\n')
    out, engine = run(spec, ["retry 1 of 9", "retry 2 of 9", "retry 3 of 9", "done", "done"])
    assert out == ["retry 1 of 9 [x3]", "done [x2]"] and engine.elided


def test_collapse_of_identical_lines_loses_nothing() -> None:
    out, engine = run(one("collapse = {}\n"), ["same", "same", "other"])
    assert out == ["same [x2]", "other"] and not engine.elided


def test_group_prints_each_key_once_keeps_order_and_elides_the_middle() -> None:
    spec = one('group = { pattern = "^(?P<key>[^:]+):(?P<item>.*)$", max_items = 2 }\n')
    lines = ["checking", "a.md:1 x", "b.md:2 y", "a.md:3 z", "a.md:4 w", "3 files"]
    out, engine = run(spec, lines)
    assert out == ["checking", "a.md (3)", "  1 x", "  ... 1 more line", "  4 w", "b.md", "  2 y", "3 files"]
    assert engine.elided


def test_group_needs_a_key_group() -> None:
    found = load(HEAD + 'group = { pattern = "^(.*)$" }\n')
    assert "(?P<key>" in found.errors[0]


def test_sections_choose_rules_per_section() -> None:
    spec = one('strip_lines_matching = ["^noise"]\nsections = ['
               '{ start = "^FAILURES", end = "^=+ short", keep = true },'
               '{ start = "^WARNINGS", end = "^=+", keep = false },'
               '{ start = "^LOG", max_lines = 1 }]\n')
    lines = ["noise a", "FAILURES", "noise kept", "detail", "== short summary", "noise b",
             "WARNINGS", "w1", "w2", "=====", "end", "LOG", "l1", "l2", "l3"]
    out, engine = run(spec, lines)
    # a section's start line is its first line; its end line goes back to the outer rules
    assert out == ["FAILURES", "noise kept", "detail", "== short summary", "=====", "end", "LOG",
                   "... 3 more lines"]
    assert engine.elided  # the LOG section's cut is content; the WARNINGS section is noise


def test_summary_with_counters_counts_stripped_lines_too() -> None:
    spec = one('strip_lines_matching = ["^Collecting", "^Downloading"]\n'
               'counters = { collected = "^Collecting", mb = { pattern = "\\\\((\\\\d+) MB\\\\)", sum = "1" } }\n'
               'summary = "pip: {collected} packages, {mb} MB"\n')
    out, _ = run(spec, ["Collecting a", "Downloading a (3 MB)", "Collecting b", "Downloading b (4 MB)", "done"])
    assert out == ["done", "pip: 2 packages, 7 MB"]


def test_summary_naming_an_unknown_counter_is_refused() -> None:
    found = load(HEAD + 'summary = "{nope} done"\n')
    assert "no counter named nope" in found.errors[0]


FRAMES = ('strip_lines_matching = ["^\\\\s*$", "^ +\\\\| "]\n'
          'counters = { frames = { pattern = "^ +\\\\| ", elides = true } }\n')


def test_an_eliding_counter_marks_the_run_only_when_it_counts_a_line() -> None:
    spec = one(FRAMES)
    out, engine = run(spec, ["a.c:1: error: x", "   | int x;", ""])
    assert out == ["a.c:1: error: x"] and engine.elided  # the code frame is content: recall keeps it
    out, engine = run(spec, ["a.c:1: error: x", ""])
    assert out == ["a.c:1: error: x"] and not engine.elided  # a blank line is noise: no hint


@pytest.mark.parametrize("lines", [["a.c:1: error: x", "   | int x;"], ["a.c:1: error: x"] + ["   | y"] * 300])
def test_the_fast_path_counts_eliding_lines_as_the_plain_one_does(lines: list[str]) -> None:
    out, engine = run(spec := one(FRAMES), lines)
    reference = DeclarativeFilter(spec, FilterContext(("t",), True), reference=True)
    expected = [line.text for raw in lines for line in reference.feed(raw, Stream.STDOUT)]
    expected += [line.text for line in reference.finish(0)]
    assert out == expected == ["a.c:1: error: x"] and engine.elided and reference.elided


def test_with_recall_off_the_lines_an_eliding_counter_names_are_kept() -> None:
    spec = one(FRAMES + 'replace = [{ pattern = "int", replacement = "" }]\n')
    out, engine = run(spec, ["a.c:1: error: x", "   | int x;", ""], recall=False)
    assert out == ["a.c:1: error: x", "   | int x;", ""] and not engine.elided


def test_elides_must_be_a_boolean() -> None:
    found = load(HEAD + 'counters = { frames = { pattern = "x", elides = "yes" } }\n')
    assert found.errors and "elides" in found.errors[0]


def test_with_recall_off_nothing_is_elided() -> None:
    spec = one('max_lines = 1\ntruncate_lines_at = 5\nstrip_lines_matching = ["^x"]\n')
    out, engine = run(spec, ["x noise", "a long line", "b"], recall=False)
    assert out == ["a long line", "b"] and not engine.elided


def test_headings_are_repeated_under_long_runs() -> None:
    spec = one('headings = { pattern = "^\\\\S", every = 2 }\n')
    out, engine = run(spec, ["a.yml", "  1", "  2", "  3", "b.yml", "  4"])
    assert out == ["a.yml", "  1", "  2", "a.yml (continued)", "  3", "b.yml", "  4"]
    assert not engine.elided


def test_carry_puts_a_heading_in_front_of_the_lines_under_it() -> None:
    spec = one('carry = { pattern = ":L\\\\d+:$", to = "^  SC" }\n')
    out, _ = run(spec, ["a.sh:L3:", "  SC1 x", "  SC2 y", "b.sh:L9:", "note", "c.sh:L1:"])
    assert out == ["a.sh:L3: SC1 x", "a.sh:L3: SC2 y", "b.sh:L9:", "note", "c.sh:L1:"]  # nothing lost


GROUP_SHAPES = [  # the key and item found by number in each of the shapes a pattern can take
    "^(?P<key>[^:]+):(?P<item>.*)$",
    "^(?P<item>[^:]+):(?P<key>.*)$",
    "^(\\w)?(?P<key>[^:]+):(?:(x)|(?P<item>.*))$",
    "^(?P<key>[^:]+):(?P<item>.*)(!)?$",
    "^(?P<key>[^:]+):.*$",
]


@pytest.mark.parametrize("pattern", GROUP_SHAPES)
@pytest.mark.parametrize("path", ["plain", "line", "block"])
def test_group_takes_key_and_item_by_name_on_every_path(pattern: str, path: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = one(f'group = {{ pattern = "{pattern.replace(chr(92), chr(92) * 2)}" }}\n')
    lines = ["start", "a.md:1 x", "b.md:2 y", "a.md:3 z", "a.md:4 w", "a.md:", "end"]
    regex = re.compile(pattern)
    expected_groups: dict[str, list[str]] = {}
    for line in lines:
        found = regex.search(line)
        if found:
            item = found.group("item") if "item" in regex.groupindex else line
            expected_groups.setdefault(found.group("key"), []).append(item or "")
    monkeypatch.setattr(engine_module, "FAST_AFTER", 0 if path != "plain" else 10_000)
    filt = DeclarativeFilter(spec, FilterContext(("t",), True))
    if path == "block":
        body = filt.feed_block("".join(line + "\n" for line in lines).encode(), Stream.STDOUT)
        assert body is not None
        out = body.decode().splitlines()
    else:
        out = [line.text for raw in lines for line in filt.feed(raw, Stream.STDOUT)]
    out += [line.text for line in filt.finish(0)]
    expected = ["start"]
    for key, items in expected_groups.items():
        expected += [key if len(items) == 1 else f"{key} ({len(items)})"] + [f"  {item}" for item in items]
    assert out == expected + ["end"]
