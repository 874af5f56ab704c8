"""The rewritten regexes of five built-in filters answer exactly as the ones they replace.

ps, psql, yamllint, markdownlint and shellcheck had their regexes rewritten for speed (issue 22):
possessive runs (`\\S++`) where what follows can never take the same characters, a lazy tail as
one scan (`.*?(\\[.*\\])?$`), a lazy message as a greedy one ending in a non-space. Each rewrite
must be an identity, not an approximation, so the original of every rewritten pattern is kept
here as the reference and both are asked the same questions: `search` and `match` (span and every
group), and for replace rules the `sub` output with the rule's own replacement. The lines are
the filters' fixture lines, the same lines after the rules before them (what the regex really
sees), random mutations of those, and random text over the characters the patterns care about.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk.filters.declarative.pattern import (
    LINE_CAP,
    compile_pattern,
    replacement_parts,
    replacement_template,
    translate,
)

ROOT = Path(__file__).resolve().parents[3]
BUILTIN = ROOT / "rtk" / "filters" / "declarative" / "builtin"
FIXTURES = ROOT / "fixtures"

# where a pattern sits in its filter's table -> the pattern as it was before the rewrite
ORIGINAL: dict[str, dict[tuple[object, ...], str]] = {
    "ps": {
        ("strip_lines_matching", 0): r"^\S+ \d+ [\d.]+ [\d.]+ 0 \S+ \[[^\]]+\]$",
        ("strip_lines_matching", 1): r"^\S+ \d+ 2 \[[^\]]+\]$",
        ("strip_lines_matching", 2): r"^\S+ 2 0 \[kthreadd\]$",
        ("replace", 0, "pattern"): r"^USER\s+PID\s+%CPU\s+%MEM\s+VSZ\s+RSS\s+TTY\s+STAT\s+START\s+TIME\s+COMMAND$",
        ("replace", 1, "pattern"): r"^(\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+\d+\s+(\d+)\s+\S+\s+(\S+)\s+\S+\s+[\d:]+\s(.*)$",
        ("replace", 2, "pattern"): r"^UID\s+PID\s+PPID\s+C\s+STIME\s+TTY\s+TIME\s+CMD$",
        ("replace", 3, "pattern"): r"^(\S+)\s+(\d+)\s+(\d+)\s+\d+\s+\S+\s+\S+\s+[\d:-]+\s(.*)$",
    },
    "psql": {
        ("strip_lines_matching", 0): r"^-{3,}[-+]*$",
        ("replace", 0, "pattern"): r"^-\[ RECORD (\d+) \]-*\+?-*$",
        ("replace", 1, "pattern"): r" {2,}\|",
        ("replace", 2, "pattern"): r"\| {2,}",
        ("replace", 3, "pattern"): r"\s+$",
        ("replace", 4, "pattern"): r"^ +(\S.* \|( .*)?)$",
        ("replace", 5, "pattern"): r"^ +((?:Table|View|Index|Sequence|List of|Materialized view|Foreign table"
                                   r"|Partitioned table|Partitioned index|Composite type|Access privileges|Schema"
                                   r"|Default access privileges) .*|QUERY PLAN)$",
    },
    "yamllint": {
        ("strip_lines_matching", 0): r"^\s*$",
        ("replace", 0, "pattern"): r"^\s+(\d+:\d+)\s+(warning|error)\s+(.*?)\s+\(([\w-]+)\)$",
        ("replace", 1, "pattern"): r"^\./",
        ("replace", 2, "pattern"): r"^([^:\s][^:]*):(\d+):(\d+): \[",
        ("group", "pattern"): r"^(?P<key>[^:\s][^:]*):(?P<item>L\d+:\d+ \[(?:warning|error)\] .*)$",
        ("headings", "pattern"): r"^\S",
    },
    "markdownlint": {
        ("strip_lines_matching", 0): r"^\s*$",
        ("replace", 0, "pattern"): r"^(\S.*?):(\d+(?::\d+)?):? (?:error |warning )?(MD\d+)/([\w-]+)\S* .*?(\[.*\])?$",
        ("replace", 1, "pattern"): r" $",
        ("group", "pattern"): r"^(?P<key>\S.*? MD\d+/[\w-]+):(?P<item>L\d+(?::\d+)?.*)$",
    },
    "shellcheck": {
        ("replace", 0, "pattern"): r"^In (.+) line (\d+):$",
        ("replace", 1, "pattern"): r"^\s*\^-*\^?\s+(SC\d+ \()",
        ("replace", 2, "pattern"): r"^([^:]+):(\d+):(\d+): (error|warning|note|info|style): ",
        ("strip_lines_matching", 0): r"^$",
        ("sections", 0, "start"): r":L\d+:$",
        ("sections", 0, "end"): r"^$",
        ("sections", 0, "keep_lines_matching", 0): r":L\d+:$",
        ("sections", 0, "keep_lines_matching", 1): r"^  SC\d+ \(",
        ("sections", 1, "start"): r"^Did you mean:\s*$",
        ("sections", 1, "end"): r"^$",
        ("sections", 2, "start"): r"^For more information:\s*$",
        ("sections", 2, "end"): r"^$",
        ("carry", "pattern"): r":L\d+:$",
        ("carry", "to"): r"^  SC\d+ \(",
        ("group", "pattern"): r"^(?P<key>[^:]+):(?P<item>L\d+(?::\d+ (?:error|warning|note|info|style):|:) .*)$",
    },
}
FILTERS = sorted(ORIGINAL)

# what the patterns look at: separators, brackets, digits, whitespace of every kind, newlines
ALPHABET = " \t\n\r\x0b\u00a0\u2003:[]()|-+./^?%_Lx0129aeMDSCWRTUIPnilgorswy\u00e9"
PIECES = ["  ", " |", "|  ", ":L1:", "  SC2086 (", " MD013/line-length ", "[", "]", " (rule)", "error ",
          "warning ", "  12:5  ", "./", "-[ RECORD 1 ]", "---", "+", "0 ", " 2 ", "[kthreadd]", "In a line 3:"]


def _table(name: str) -> dict[str, object]:
    with open(BUILTIN / f"{name}.toml", "rb") as handle:
        return tomllib.load(handle)["filters"][name]  # type: ignore[no-any-return]


def _at(table: object, where: tuple[object, ...]) -> object:
    for key in where:
        table = table[key]  # type: ignore[index]
    return table


def _pairs(name: str) -> list[tuple[tuple[object, ...], re.Pattern[str], re.Pattern[str]]]:
    """(location, original, rewritten) for every pattern of the filter, both compiled as the
    engine compiles them."""
    table = _table(name)
    return [(where, re.compile(translate(old)), compile_pattern(str(_at(table, where)), str(where)))
            for where, old in ORIGINAL[name].items()]


def _replacement(name: str, where: tuple[object, ...], compiled: re.Pattern[str]) -> object:
    rule = _at(_table(name), where[:2])
    return replacement_template(replacement_parts(str(rule["replacement"]), compiled))  # type: ignore[index]


def _fixture_lines(name: str) -> list[str]:
    return [line for raw in sorted((FIXTURES / name).glob("*/raw.txt"))
            for line in raw.read_text(encoding="utf-8", errors="replace").split("\n")]


def _stage_lines(name: str) -> list[str]:
    """The fixture lines and what each replace rule (the original, in order) makes of them."""
    lines = _fixture_lines(name)
    seen = list(lines)
    table = _table(name)
    for index, rule in enumerate(table.get("replace", [])):  # type: ignore[attr-defined]
        old = re.compile(translate(ORIGINAL[name][("replace", index, "pattern")]))
        template = replacement_template(replacement_parts(str(rule["replacement"]), old))
        lines = [old.sub(template, line) for line in lines]  # type: ignore[arg-type]
        seen += lines
    return list(dict.fromkeys(seen))


SEEDS = {name: _stage_lines(name) for name in FILTERS}


def _answers(pattern: re.Pattern[str], text: str, template: object) -> tuple[object, ...]:
    found = pattern.search(text)
    matched = pattern.match(text)
    return ((found.span(), found.groups(), found.groupdict()) if found else None,
            (matched.span(), matched.groups()) if matched else None,
            pattern.sub(template, text) if template is not None else None)  # type: ignore[arg-type]


def _assert_same(name: str, text: str) -> None:
    for where, old, new in _pairs_cache[name]:
        template = _templates[name].get(where)
        assert _answers(new, text, template) == _answers(old, text, template), (name, where, text)


_pairs_cache = {name: _pairs(name) for name in FILTERS}
_templates = {name: {where: _replacement(name, where, old) for where, old, _ in _pairs_cache[name]
                     if where[0] == "replace"} for name in FILTERS}


def test_every_original_is_accounted_for() -> None:
    """The reference table names every pattern of the five files, so none is rewritten unchecked."""
    for name in FILTERS:
        table = _table(name)
        found = [("strip_lines_matching", i) for i in range(len(table.get("strip_lines_matching", [])))]  # type: ignore[arg-type]
        found += [("replace", i, "pattern") for i in range(len(table.get("replace", [])))]  # type: ignore[arg-type]
        for i, section in enumerate(table.get("sections", [])):  # type: ignore[arg-type]
            found += [("sections", i, key) for key in ("start", "end") if key in section]
            found += [("sections", i, "keep_lines_matching", j) for j in range(len(section.get("keep_lines_matching", [])))]
        found += [(key, field) for key in ("group", "headings", "carry") for field in ("pattern", "to")
                  if key in table and field in table[key]]  # type: ignore[operator,index]
        assert sorted(map(str, found)) == sorted(map(str, ORIGINAL[name])), name


@pytest.mark.parametrize("name", FILTERS)
def test_the_engine_accepts_every_rewrite(name: str) -> None:
    """No rewrite trips the nested-quantifier refusal (compile_pattern raises on one)."""
    assert len(_pairs_cache[name]) == len(ORIGINAL[name])


@pytest.mark.parametrize("name", FILTERS)
def test_same_answers_on_fixture_lines(name: str) -> None:
    assert len(SEEDS[name]) > 10
    for line in SEEDS[name]:
        _assert_same(name, line)


@pytest.mark.parametrize("name", FILTERS)
def test_same_answers_past_the_window(name: str) -> None:
    """Lines longer than the engine's window: the engine cuts them, the regexes still agree."""
    for line in SEEDS[name][:40]:
        long = line + " " * (LINE_CAP - len(line) // 2) + line
        _assert_same(name, long)
        _assert_same(name, long[:LINE_CAP])


def _matching(name: str) -> st.SearchStrategy[str]:
    """Lines some original pattern of the filter matches (hypothesis builds them from the regex):
    the shapes a fixture may lack, such as an empty message or a bracket with nothing after it."""
    return st.one_of([st.from_regex(translate(pattern)) for pattern in ORIGINAL[name].values()])


def _mutated(seeds: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A seed line with a few edits at the character level (insert, cut, overwrite) or at the
    word level (drop a run of words, repeat one, change the whitespace between words), so the
    lines come near every boundary of the patterns: an empty message, a missing field, a tab."""
    piece = st.sampled_from(PIECES) | st.text(ALPHABET, max_size=3)
    char_edit = st.tuples(st.just("char"), st.integers(0, 300), st.integers(0, 3), piece)
    word_edit = st.tuples(st.sampled_from(["drop", "repeat", "space"]), st.integers(0, 60), st.integers(1, 16),
                          st.sampled_from(["", " ", "  ", "\t", "\n", " \n", "\u00a0"]))
    return st.builds(_edit, seeds, st.lists(char_edit | word_edit, min_size=1, max_size=4))


def _edit(line: str, edits: list[tuple[str, int, int, str]]) -> str:
    for kind, at, width, piece in edits:
        if kind == "char":
            at %= len(line) + 1
            line = line[:at] + piece + line[at + width:]
            continue
        words = re.findall(r"\s+|\S+", line) or [""]
        at %= len(words)
        if kind == "drop":
            del words[at:at + width]
        elif kind == "repeat":
            words.insert(at, words[at])
        else:
            spaces = [i for i, word in enumerate(words) if word.isspace()] or [at]
            words[spaces[at % len(spaces)]] = piece
        line = "".join(words)
    return line


def _random_lines() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(PIECES) | st.text(ALPHABET, max_size=6), max_size=10).map("".join)


@pytest.mark.parametrize("name", FILTERS)
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_same_answers_on_mutated_and_random_lines(name: str, data: st.DataObject) -> None:
    lines = st.sampled_from(SEEDS[name]) | _matching(name)
    text = data.draw(lines | _mutated(lines) | _random_lines())
    _assert_same(name, text)
