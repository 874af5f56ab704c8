"""The fields a filter table may hold, their types, and the check that names what is wrong.

Unknown fields are errors, as in the Rust rtk (`deny_unknown_fields`): a typo such as
`strip_line_matching` must not silently turn a filter into a pass-through.
"""
from __future__ import annotations

from collections.abc import Mapping

# Fields of a rule set: the top level of a filter, `on_failure`, and (some of them) a section.
RULE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "strip_ansi": bool,
    "replace": list,
    "match_output": list,
    "strip_lines_matching": list,
    "keep_lines_matching": list,
    "truncate_lines_at": int,
    "head_lines": int,
    "tail_lines": int,
    "max_lines": int,
    "on_empty": str,
    "collapse": dict,
    "group": dict,
    "headings": dict,
    "carry": dict,
    "sections": list,
    "counters": dict,
    "summary": str,
}
FILTER_FIELDS: dict[str, type | tuple[type, ...]] = {
    **RULE_FIELDS,
    "description": str,
    "match_command": str,
    "match": (list, str),
    "rewrite": bool,
    "filter_stderr": bool,
    "pass_through_if_args": list,
    "on_failure": dict,
    "priority": int,
}
SECTION_FIELDS: dict[str, type | tuple[type, ...]] = {
    "name": str, "start": str, "end": str, "keep": bool, "max_lines": int,
    "strip_lines_matching": list, "keep_lines_matching": list,
}
TABLE_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "replace": {"pattern": str, "replacement": str},
    "match_output": {"pattern": str, "message": str, "unless": str},
    "collapse": {"normalize": list, "min_count": int},
    "headings": {"pattern": str, "every": int},
    "carry": {"pattern": str, "to": str},
    "group": {"pattern": str, "max_items": int, "max_groups": int, "repeat_key_every": int},
    "counter": {"pattern": str, "sum": str, "elides": bool},
}
TEST_FIELDS: dict[str, type | tuple[type, ...]] = {"name": str, "input": str, "expected": str,
                                                  "exit_code": int, "command": str}
REQUIRED = {"carry": ("pattern", "to"), "headings": ("pattern",), "replace": ("pattern", "replacement"), "match_output": ("pattern", "message"),
            "group": ("pattern",), "counter": ("pattern",), "test": ("input", "expected")}
_TYPE_NAMES = {bool: "a boolean", int: "an integer", str: "a string", list: "an array",
               dict: "a table"}


class SpecError(ValueError):
    """A field that is unknown, of the wrong type, or out of range; the message names it."""


def check_table(table: object, fields: Mapping[str, type | tuple[type, ...]], where: str,
                required: tuple[str, ...] = ()) -> dict[str, object]:
    if not isinstance(table, dict):
        raise SpecError(f"{where}: expected a table, got {_describe(table)}")
    for key, value in table.items():
        expected = fields.get(key)
        if expected is None:
            raise SpecError(f"{where}: unknown field '{key}'")
        if not _is(value, expected):
            raise SpecError(f"{where}.{key}: expected {_name(expected)}, got {_describe(value)}")
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise SpecError(f"{where}.{key}: must not be negative")
    for key in required:
        if key not in table:
            raise SpecError(f"{where}: missing field '{key}'")
    return table


def check_strings(values: object, where: str) -> list[str]:
    items = values if isinstance(values, list) else [values]
    for item in items:
        if not isinstance(item, str):
            raise SpecError(f"{where}: expected strings, got {_describe(item)}")
    return items  # type: ignore[return-value]


def check_tables(values: list[object], kind: str, where: str) -> list[dict[str, object]]:
    return [check_table(v, TABLE_FIELDS[kind], f"{where}[{i}]", REQUIRED.get(kind, ()))
            for i, v in enumerate(values)]


def _is(value: object, expected: type | tuple[type, ...]) -> bool:
    kinds = expected if isinstance(expected, tuple) else (expected,)
    if isinstance(value, bool):
        return bool in kinds
    return isinstance(value, kinds)


def _name(expected: type | tuple[type, ...]) -> str:
    kinds = expected if isinstance(expected, tuple) else (expected,)
    return " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)


def _describe(value: object) -> str:
    for kind, name in _TYPE_NAMES.items():
        if isinstance(value, kind):
            return name
    return type(value).__name__
