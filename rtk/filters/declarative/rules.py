"""A filter table turned into ready-to-run rules: every regex compiled, every field checked.

Compiling is the boundary where a filter file is validated; the engine afterwards trusts what it
gets. One `Rules` holds the line pipeline of one rule set (the filter's own, or `on_failure`'s).
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Any

from .pattern import (
    AnyOf,
    PatternError,
    Replacement,
    ReplacementParts,
    compile_any,
    compile_pattern,
    replacement_parts,
    replacement_template,
)
from .schema import (
    RULE_FIELDS,
    SECTION_FIELDS,
    TABLE_FIELDS,
    SpecError,
    check_strings,
    check_table,
    check_tables,
)

ReplaceRule = tuple[re.Pattern[str], Replacement, ReplacementParts]  # pattern, for `sub`, as parts
MAX_HELD = 10_000  # the most lines one window, run or group may hold back, whatever the file says


@dataclass(frozen=True)
class OutputRule:
    pattern: re.Pattern[str]
    message: str
    unless: re.Pattern[str] | None


@dataclass(frozen=True)
class Section:
    name: str
    start: re.Pattern[str]
    end: re.Pattern[str] | None
    keep: bool
    max_lines: int | None
    strip: AnyOf | None
    keep_only: AnyOf | None


@dataclass(frozen=True)
class Group:
    pattern: re.Pattern[str]
    max_items: int
    max_groups: int
    repeat_key_every: int = 50


@dataclass(frozen=True)
class Headings:
    pattern: re.Pattern[str]
    every: int


@dataclass(frozen=True)
class Carry:
    pattern: re.Pattern[str]
    to: re.Pattern[str]


@dataclass(frozen=True)
class Counter:
    """`elides`: the lines it counts are content the rules leave out (a code frame, a column), so
    a run where it counted one keeps its raw output and prints the recall hint."""

    pattern: re.Pattern[str]
    sum_group: str | None
    elides: bool = False


@dataclass(frozen=True)
class Rules:
    strip_ansi: bool = False
    replace: tuple[ReplaceRule, ...] = ()
    match_output: tuple[OutputRule, ...] = ()
    strip: AnyOf | None = None
    keep_only: AnyOf | None = None
    truncate_at: int | None = None
    head: int | None = None
    tail: int | None = None
    max_lines: int | None = None
    on_empty: str | None = None
    collapse: tuple[re.Pattern[str], ...] | None = None
    collapse_min: int = 2
    group: Group | None = None
    headings: Headings | None = None
    carry: Carry | None = None
    sections: tuple[Section, ...] = ()
    counters: dict[str, Counter] = field(default_factory=dict)
    summary: str | None = None

    @property
    def holds(self) -> bool:
        """Whether the whole output must be seen before anything is printed."""
        return bool(self.match_output)


def compile_rules(table: dict[str, Any], where: str) -> Rules:
    """Rules from the rule fields of `table` (other fields are the caller's business)."""
    try:
        return _compile(table, where)
    except PatternError as exc:
        raise SpecError(str(exc)) from None


def _compile(table: dict[str, Any], where: str) -> Rules:
    get = table.get
    if get("strip_lines_matching") and get("keep_lines_matching"):
        raise SpecError(f"{where}: strip_lines_matching and keep_lines_matching are mutually exclusive")
    counters = _counters(get("counters") or {}, where)
    return Rules(
        strip_ansi=bool(get("strip_ansi", False)),
        replace=_replace(get("replace") or [], where),
        match_output=_match_output(get("match_output") or [], where),
        strip=compile_any(check_strings(get("strip_lines_matching") or [], f"{where}.strip_lines_matching"),
                          f"{where}.strip_lines_matching"),
        keep_only=compile_any(check_strings(get("keep_lines_matching") or [], f"{where}.keep_lines_matching"),
                              f"{where}.keep_lines_matching"),
        truncate_at=_positive(get("truncate_lines_at"), f"{where}.truncate_lines_at"),
        head=get("head_lines"),  # type: ignore[arg-type]
        tail=_capped(get("tail_lines")),
        max_lines=get("max_lines"),  # type: ignore[arg-type]
        on_empty=get("on_empty"),  # type: ignore[arg-type]
        collapse=_collapse(get("collapse"), where),
        collapse_min=min(int((get("collapse") or {}).get("min_count", 2) or 2), MAX_HELD),
        group=_group(get("group"), where),
        headings=_headings(get("headings"), where),
        carry=_carry(get("carry"), where),
        sections=tuple(_section(s, f"{where}.sections[{i}]") for i, s in enumerate(get("sections") or [])),
        counters=counters,
        summary=_summary(get("summary"), counters, where),
    )


def _capped(value: int | None) -> int | None:
    return min(value, MAX_HELD) if value is not None else None


def _positive(value: object, where: str) -> int | None:
    if value is not None and value < 1:  # type: ignore[operator]
        raise SpecError(f"{where}: must be at least 1")
    return value  # type: ignore[return-value]


def _replace(rules: list[object], where: str) -> tuple[ReplaceRule, ...]:
    compiled = []
    for i, rule in enumerate(check_tables(rules, "replace", f"{where}.replace")):
        pattern = compile_pattern(str(rule["pattern"]), f"{where}.replace[{i}].pattern")
        parts = replacement_parts(str(rule["replacement"]), pattern)
        compiled.append((pattern, replacement_template(parts), parts))
    return tuple(compiled)


def _match_output(rules: list[object], where: str) -> tuple[OutputRule, ...]:
    compiled = []
    for i, rule in enumerate(check_tables(rules, "match_output", f"{where}.match_output")):
        at = f"{where}.match_output[{i}]"
        unless = rule.get("unless")
        compiled.append(OutputRule(compile_pattern(rule["pattern"], f"{at}.pattern"),  # type: ignore[arg-type]
                                   rule["message"],  # type: ignore[arg-type]
                                   compile_pattern(unless, f"{at}.unless") if unless else None))  # type: ignore[arg-type]
    return tuple(compiled)


def _collapse(table: object, where: str) -> tuple[re.Pattern[str], ...] | None:
    if table is None:
        return None
    checked = check_table(table, TABLE_FIELDS["collapse"], f"{where}.collapse")
    patterns = check_strings(checked.get("normalize", []), f"{where}.collapse.normalize")
    return tuple(compile_pattern(p, f"{where}.collapse.normalize") for p in patterns)


def _group(table: object, where: str) -> Group | None:
    if table is None:
        return None
    checked = check_table(table, TABLE_FIELDS["group"], f"{where}.group", ("pattern",))
    pattern = compile_pattern(checked["pattern"], f"{where}.group.pattern")  # type: ignore[arg-type]
    if "key" not in pattern.groupindex:
        raise SpecError(f"{where}.group.pattern: needs a named group (?P<key>...)")
    return Group(pattern, min(max(2, int(checked.get("max_items", 20))), MAX_HELD),  # type: ignore[call-overload]
                 min(max(1, int(checked.get("max_groups", 200))), MAX_HELD),  # type: ignore[call-overload]
                 int(checked.get("repeat_key_every", 50)))  # type: ignore[call-overload]


def _headings(table: object, where: str) -> Headings | None:
    if table is None:
        return None
    checked = check_table(table, TABLE_FIELDS["headings"], f"{where}.headings", ("pattern",))
    every = max(1, int(checked.get("every", 50)))  # type: ignore[call-overload]
    return Headings(compile_pattern(str(checked["pattern"]), f"{where}.headings.pattern"), every)


def _carry(table: object, where: str) -> Carry | None:
    if table is None:
        return None
    checked = check_table(table, TABLE_FIELDS["carry"], f"{where}.carry", ("pattern", "to"))
    return Carry(compile_pattern(str(checked["pattern"]), f"{where}.carry.pattern"),
                 compile_pattern(str(checked["to"]), f"{where}.carry.to"))


def _section(table: object, where: str) -> Section:
    checked = check_table(table, SECTION_FIELDS, where, ("start",))
    get = checked.get
    if get("strip_lines_matching") and get("keep_lines_matching"):
        raise SpecError(f"{where}: strip_lines_matching and keep_lines_matching are mutually exclusive")
    return Section(
        name=str(get("name", "")),
        start=compile_pattern(get("start"), f"{where}.start"),  # type: ignore[arg-type]
        end=compile_pattern(get("end"), f"{where}.end") if get("end") else None,  # type: ignore[arg-type]
        keep=bool(get("keep", True)),
        max_lines=get("max_lines"),  # type: ignore[arg-type]
        strip=compile_any(check_strings(get("strip_lines_matching") or [], where), f"{where}.strip_lines_matching"),
        keep_only=compile_any(check_strings(get("keep_lines_matching") or [], where), f"{where}.keep_lines_matching"),
    )


def _counters(table: object, where: str) -> dict[str, Counter]:
    if not isinstance(table, dict):
        raise SpecError(f"{where}.counters: expected a table")
    counters = {}
    for name, spec in table.items():
        at = f"{where}.counters.{name}"
        spec = {"pattern": spec} if isinstance(spec, str) else spec
        checked = check_table(spec, TABLE_FIELDS["counter"], at, ("pattern",))
        pattern = compile_pattern(checked["pattern"], f"{at}.pattern")  # type: ignore[arg-type]
        total = checked.get("sum")
        if total is not None and total not in pattern.groupindex and not str(total).isdigit():
            raise SpecError(f"{at}.sum: the pattern has no group '{total}'")
        counters[name] = Counter(pattern, total, bool(checked.get("elides", False)))  # type: ignore[arg-type]
    return counters


def _summary(text: object, counters: dict[str, Counter], where: str) -> str | None:
    if text is None:
        return None
    text = str(text)
    try:
        names = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError as exc:
        raise SpecError(f"{where}.summary: {exc}") from None
    unknown = sorted(n for n in names if n not in counters)
    if unknown:
        raise SpecError(f"{where}.summary: no counter named {', '.join(unknown)}")
    return text  # type: ignore[return-value]


def check_rule_fields(table: dict[str, object], where: str) -> None:
    """`on_failure` may hold only rule fields."""
    check_table(table, RULE_FIELDS, where)
