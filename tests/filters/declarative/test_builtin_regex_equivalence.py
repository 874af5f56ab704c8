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

# the replace rules as they were before the rewrite: (pattern, replacement), in order
ORIGINAL_REPLACE: dict[str, list[tuple[str, str]]] = {
    "ps": [
        (r"^USER\s+PID\s+%CPU\s+%MEM\s+VSZ\s+RSS\s+TTY\s+STAT\s+START\s+TIME\s+COMMAND$", "USER PID %CPU %MEM RSS STAT COMMAND"),
        (r"^(\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+\d+\s+(\d+)\s+\S+\s+(\S+)\s+\S+\s+[\d:]+\s(.*)$", "$1 $2 $3 $4 $5 $6 $7"),
        (r"^UID\s+PID\s+PPID\s+C\s+STIME\s+TTY\s+TIME\s+CMD$", "UID PID PPID CMD"),
        (r"^(\S+)\s+(\d+)\s+(\d+)\s+\d+\s+\S+\s+\S+\s+[\d:-]+\s(.*)$", "$1 $2 $3 $4"),
    ],
    "psql": [
        (r"^-\[ RECORD (\d+) \]-*\+?-*$", "-[ RECORD $1 ]"),
        (r" {2,}\|", " |"),
        (r"\| {2,}", "| "),
        (r"\s+$", ""),
        (r"^ +(\S.* \|( .*)?)$", "$1"),
        ((r"^ +((?:Table|View|Index|Sequence|List of|Materialized view|Foreign table|Partitioned table"
          r"|Partitioned index|Composite type|Access privileges|Schema|Default access privileges) .*|QUERY PLAN)$"), "$1"),
    ],
    "yamllint": [
        (r"^\s+(\d+:\d+)\s+(warning|error)\s+(.*?)\s+\(([\w-]+)\)$", "  L$1 $2 $3 ($4)"),
        (r"^\./", ""),
        (r"^([^:\s][^:]*):(\d+):(\d+): \[", "$1:L$2:$3 ["),
    ],
    "markdownlint": [
        (r"^(\S.*?):(\d+(?::\d+)?):? (?:error |warning )?(MD\d+)/([\w-]+)\S* .*?(\[.*\])?$", "$1 $3/$4:L$2 $5"),
        (r" $", ""),
    ],
    "shellcheck": [
        (r"^In (.+) line (\d+):$", "$1:L$2:"),
        (r"^\s*\^-*\^?\s+(SC\d+ \()", "  $1"),
        (r"^([^:]+):(\d+):(\d+): (error|warning|note|info|style): ", "$1:L$2:$3 $4: "),
    ],
}
# a rewritten replace rule that does the work of several original ones in a row (by index);
# every other rule stands for the original at its own index
MERGED_REPLACE: dict[str, dict[int, tuple[int, ...]]] = {
    # a row's result starts with no space, so the title rule never applied after the row rule
    "psql": {4: (4, 5)},
}
# every other pattern as it was: where it sits in the table -> the pattern (a list: a pattern
# list, where only whether any member matches counts)
ORIGINAL: dict[str, dict[tuple[object, ...], str | list[str]]] = {
    "ps": {
        ("strip_lines_matching",): [r"^\S+ \d+ [\d.]+ [\d.]+ 0 \S+ \[[^\]]+\]$", r"^\S+ \d+ 2 \[[^\]]+\]$",
                                    r"^\S+ 2 0 \[kthreadd\]$"],
    },
    "psql": {
        ("strip_lines_matching",): [r"^-{3,}[-+]*$"],
    },
    "yamllint": {
        ("strip_lines_matching",): [r"^\s*$"],
        ("group", "pattern"): r"^(?P<key>[^:\s][^:]*):(?P<item>L\d+:\d+ \[(?:warning|error)\] .*)$",
        ("headings", "pattern"): r"^\S",
    },
    "markdownlint": {
        ("strip_lines_matching",): [r"^\s*$"],
        ("group", "pattern"): r"^(?P<key>\S.*? MD\d+/[\w-]+):(?P<item>L\d+(?::\d+)?.*)$",
    },
    "shellcheck": {
        ("strip_lines_matching",): [r"^$"],
        ("sections", 0, "start"): r":L\d+:$",
        ("sections", 0, "end"): r"^$",
        ("sections", 0, "keep_lines_matching"): [r":L\d+:$", r"^  SC\d+ \("],
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


Rule = tuple[re.Pattern[str], object]  # a compiled pattern and its `sub` replacement


def _rule(pattern: str, replacement: str, what: str) -> Rule:
    compiled = compile_pattern(pattern, what)  # as the engine compiles it (refusing nested quantifiers)
    return compiled, replacement_template(replacement_parts(replacement, compiled))


def _old_rules(name: str) -> list[Rule]:
    return [_rule(pattern, replacement, f"{name} original") for pattern, replacement in ORIGINAL_REPLACE[name]]


def _new_rules(name: str) -> list[Rule]:
    return [_rule(str(rule["pattern"]), str(rule["replacement"]), f"{name}.replace")  # type: ignore[index]
            for rule in _table(name).get("replace", [])]  # type: ignore[attr-defined]


def _stands_for(name: str) -> list[tuple[int, ...]]:
    """For each rewritten replace rule, the original rules (indices) it does the work of."""
    merged = MERGED_REPLACE.get(name, {})
    return [merged.get(index, (index,)) for index in range(len(_table(name).get("replace", [])))]  # type: ignore[arg-type]


def _patterns(name: str) -> list[tuple[tuple[object, ...], list[re.Pattern[str]], list[re.Pattern[str]]]]:
    """(location, originals, rewritten) for every pattern or pattern list outside the replace
    rules, both compiled as the engine compiles them."""
    table = _table(name)
    found = []
    for where, old in ORIGINAL[name].items():
        new = _at(table, where)
        olds, news = (old, new) if isinstance(old, list) else ([old], [new])
        found.append((where, [compile_pattern(p, str(where)) for p in olds],
                      [compile_pattern(str(p), str(where)) for p in news]))  # type: ignore[union-attr]
    return found


def _fixture_lines(name: str) -> list[str]:
    return [line for raw in sorted((FIXTURES / name).glob("*/raw.txt"))
            for line in raw.read_text(encoding="utf-8", errors="replace").split("\n")]


def _stage_lines(name: str) -> list[str]:
    """The fixture lines and what each replace rule (the original, in order) makes of them."""
    lines = _fixture_lines(name)
    seen = list(lines)
    for pattern, template in _old_rules(name):
        lines = [pattern.sub(template, line) for line in lines]  # type: ignore[arg-type]
        seen += lines
    return list(dict.fromkeys(seen))


SEEDS = {name: _stage_lines(name) for name in FILTERS}


def _answers(pattern: re.Pattern[str], text: str) -> tuple[object, ...]:
    found = pattern.search(text)
    matched = pattern.match(text)
    return ((found.span(), found.groups(), found.groupdict()) if found else None,
            (matched.span(), matched.groups()) if matched else None)


def _chain(rules: list[Rule], text: str) -> str:
    for pattern, template in rules:
        text = pattern.sub(template, text)  # type: ignore[arg-type]
    return text


# filters whose rewrites rely on a line holding no newline (the splitter cuts every line there):
# markdownlint's classes drop `\n` (`[^:]` for `[^:\n]`), which SRE tests ~35% faster
NEWLINE_FREE = frozenset({"markdownlint"})


def _assert_same(name: str, text: str) -> None:
    if name in NEWLINE_FREE:
        text = text.replace("\n", " ")
    old_rules, new_rules = COMPILED[name]["old"], COMPILED[name]["new"]
    for index, (originals, rule) in enumerate(zip(COMPILED[name]["stands_for"], new_rules)):
        if len(originals) == 1:  # one rule for one: the same answers, groups included
            old = old_rules[originals[0]]
            assert _answers(rule[0], text) == _answers(old[0], text), (name, "replace", index, text)
        assert _chain([rule], text) == _chain([old_rules[i] for i in originals], text), (name, "replace", index, text)
    assert _chain(new_rules, text) == _chain(old_rules, text), (name, "replace chain", text)
    for where, olds, news in COMPILED[name]["patterns"]:
        if len(olds) == 1 and len(news) == 1:
            assert _answers(news[0], text) == _answers(olds[0], text), (name, where, text)
        assert any(p.search(text) for p in news) == any(p.search(text) for p in olds), (name, where, text)


COMPILED = {name: {"old": _old_rules(name), "new": _new_rules(name), "stands_for": _stands_for(name),
                   "patterns": _patterns(name)} for name in FILTERS}


def test_every_original_is_accounted_for() -> None:
    """The reference tables name every pattern of the five files, so none is rewritten unchecked."""
    for name in FILTERS:
        table = _table(name)
        found: list[tuple[object, ...]] = [("strip_lines_matching",)] if "strip_lines_matching" in table else []
        for i, section in enumerate(table.get("sections", [])):  # type: ignore[arg-type]
            found += [("sections", i, key) for key in ("start", "end", "keep_lines_matching") if key in section]
        found += [(key, field) for key in ("group", "headings", "carry") for field in ("pattern", "to")
                  if key in table and field in table[key]]  # type: ignore[operator,index]
        assert sorted(map(str, found)) == sorted(map(str, ORIGINAL[name])), name
        used = [index for originals in _stands_for(name) for index in originals]
        assert used == list(range(len(ORIGINAL_REPLACE[name]))), name  # each original once, in order


@pytest.mark.parametrize("name", FILTERS)
def test_the_engine_accepts_every_rewrite(name: str) -> None:
    """No rewrite trips the nested-quantifier refusal (compile_pattern raises on one)."""
    assert len(_new_rules(name)) == len(_stands_for(name))
    assert len(_patterns(name)) == len(ORIGINAL[name])


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
    originals = [pattern for pattern, _ in ORIGINAL_REPLACE[name]]
    for old in ORIGINAL[name].values():
        originals += old if isinstance(old, list) else [old]
    return st.one_of([st.from_regex(translate(pattern)) for pattern in originals])


def _cuts(line: str) -> list[str]:
    """The line cut after and before each word, and without each word in turn."""
    words = re.findall(r"\s+|\S+", line)
    return [text for i in range(len(words) + 1)
            for text in ("".join(words[:i]), "".join(words[i:]), "".join(words[:i] + words[i + 1:]))]


@pytest.mark.parametrize("name", FILTERS)
def test_same_answers_on_every_cut_of_the_fixture_lines(name: str) -> None:
    """Every fixture line cut short at each word, or missing one: where fields end early."""
    for text in dict.fromkeys(cut for line in SEEDS[name] for cut in _cuts(line)):
        _assert_same(name, text)


def _mutated(seeds: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A seed line with a few edits at the character level (insert, cut, overwrite) or at the
    word level (drop a run of words, cut the line after or before one, repeat one, change the
    whitespace between words), so the
    lines come near every boundary of the patterns: an empty message, a missing field, a tab."""
    piece = st.sampled_from(PIECES) | st.text(ALPHABET, max_size=3)
    char_edit = st.tuples(st.just("char"), st.integers(0, 300), st.integers(0, 3), piece)
    word_edit = st.tuples(st.sampled_from(["drop", "repeat", "space", "head", "tail"]), st.integers(0, 60), st.integers(1, 16),
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
        elif kind in ("head", "tail"):  # the line cut short after (or before) a word
            words = words[:at] if kind == "head" else words[at:]
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
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_same_answers_on_mutated_and_random_lines(name: str, data: st.DataObject) -> None:
    lines = st.sampled_from(SEEDS[name]) | _matching(name)
    mutated = _mutated(lines)  # most draws: near a boundary is where a rewrite could differ
    text = data.draw(st.one_of(lines, mutated, mutated, mutated, _random_lines()))
    _assert_same(name, text)
