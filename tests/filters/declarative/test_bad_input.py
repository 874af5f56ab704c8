"""Broken filter files: the broken file or filter is skipped with one `rtk:` line, the rest works."""
from __future__ import annotations

import pytest

from rtk.filters.declarative import pattern
from rtk.filters.declarative.pattern import LINE_CAP, PatternError, compile_pattern
from tests.filters.declarative.helpers import HEAD, load, one, run

GOOD = '[filters.good]\nmatch_command = "^good"\nstrip_lines_matching = ["^x"]\n'


def test_a_toml_syntax_error_skips_the_file_with_one_line() -> None:
    found = load('[filters.t\nmatch_command = "^t"\n')
    assert found.filters == [] and len(found.errors) == 1
    assert found.errors[0].startswith("rtk: test.toml: not valid TOML")


@pytest.mark.parametrize("bad, says", [
    ('strip_line_matching = ["^x"]', "unknown field 'strip_line_matching'"),
    ('max_lines = "ten"', "max_lines: expected an integer, got a string"),
    ('max_lines = -1', "must not be negative"),
    ('strip_lines_matching = ["(unclosed"]', "does not compile"),
    ('strip_lines_matching = ["(a+)+$"]', "nests quantifiers"),
    ('replace = [{ pattern = "x" }]', "missing field 'replacement'"),
    ('match_output = [{ pattern = "x", message = "y", when = "z" }]', "unknown field 'when'"),
    ('sections = [{ end = "x" }]', "missing field 'start'"),
    ('on_failure = { match_command = "^x" }', "unknown field 'match_command'"),
])
def test_a_bad_field_skips_that_filter_only(bad: str, says: str) -> None:
    found = load(f'[filters.bad]\nmatch_command = "^bad"\n{bad}\n' + GOOD)
    assert [spec.name for spec in found.filters] == ["good"]
    assert len(found.errors) == 1 and says in found.errors[0] and "filter 'bad' skipped" in found.errors[0]


def test_a_filter_without_any_matcher_is_refused() -> None:
    found = load('[filters.t]\nstrip_ansi = true\n')
    assert "needs match (words) or match_command (regex)" in found.errors[0]


def test_rust_regex_spellings_are_translated() -> None:
    assert compile_pattern("(?<name>a)\\z", "t").search("xa").group("name") == "a"
    assert compile_pattern("^[[:digit:]]+$", "t").search("123")
    assert compile_pattern("^(?i)warn", "t").search("WARNING")


def test_regexes_never_see_more_than_the_line_cap() -> None:
    spec = one('strip_lines_matching = ["x$"]\nreplace = [{ pattern = "a", replacement = "b" }]\n')
    long_line = "a" * (LINE_CAP + 10) + "x"
    out, _ = run(spec, [long_line])
    assert out == ["b" * LINE_CAP + "a" * 10 + "x"]  # the tail was never matched nor replaced


def test_the_nested_quantifier_guard_spares_ordinary_patterns() -> None:
    for ok in ("^(ab)+$", r"^\s*(\d{2})+", r"^(foo|bar)\s+\w+", r"(a{2})+",
               r"^mvn(?:\s+\S+)*\s+test\b", r"(\S+\s+)*x"):  # runs of disjoint classes: one way each
        compile_pattern(ok, "t")
    for bad in ("(a+)+", r"(\w*x)*", "(a|b+){2,}", r"(a{1,3})+", r"(\w+\s*)*", r"(\s*\S*)*"):
        with pytest.raises(PatternError):
            compile_pattern(bad, "t")
    assert pattern.translate("(?i)x") == "(?i)x"


def test_an_inline_test_for_an_unknown_filter_is_reported() -> None:
    found = load(HEAD + '[[tests.other]]\ninput = "a"\nexpected = "a"\n')
    assert found.orphans == ["test.toml: [[tests.other]] names no filter"]


def test_memory_stays_bounded_whatever_the_file_asks() -> None:
    spec = one('tail_lines = 1000000000\ncollapse = { min_count = 1000000000 }\n'
               'group = { pattern = "^(?P<key>k)", max_items = 1000000000, max_groups = 1000000000 }\n')
    rules = spec.rules
    assert rules.tail == rules.collapse_min == rules.group.max_items == rules.group.max_groups == 10_000  # type: ignore[union-attr]


def test_grouped_lines_past_the_budget_pass_through(monkeypatch: pytest.MonkeyPatch) -> None:
    from rtk.filters.declarative.stages import Grouper

    monkeypatch.setattr(Grouper, "BUDGET", 100)
    spec = one('group = { pattern = "^(?P<key>[a-z]+):(?P<item>.*)$", max_items = 1000 }\n')
    out, _ = run(spec, [f"a:{i} {'x' * 20}" for i in range(10)])
    assert sum(line.startswith("a:") for line in out) >= 7  # held ones grouped, the rest as they came
    assert len([line for line in out if "xxx" in line]) == 10
