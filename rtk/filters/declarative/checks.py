"""What `rtk verify` checks for each filter: its inline tests, determinism, never larger.

Tests compare as the Rust rtk does (trailing newlines trimmed). The Rust rtk words its elision
markers `... (N lines omitted)` / `... (N lines truncated)`; ours is the shared `... N more
lines`, so an expected text written for the Rust rtk is read with its markers in our wording and
an existing user file's tests keep passing unchanged.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rtk.filters.base import FilterContext, Stream

from .definition import FilterDef, InlineTest
from .engine import DeclarativeFilter
from .stages import lines_marker

_OUR_MARKER = re.compile(r"^\s*\.\.\. [\d,]+ more lines?$")
_RUST_MARKER = re.compile(r"^\.\.\. \((\d+) lines (?:omitted|truncated)\)$", re.MULTILINE)


@dataclass(frozen=True)
class Outcome:
    filter: str
    source: str
    test: str
    passed: bool
    detail: str = ""


def split_lines(text: str) -> list[str]:
    """Lines as the runner gives them: split on \\n, a trailing \\r dropped, no final empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def apply(spec: FilterDef, text: str, exit_code: int = 0) -> str:
    engine = DeclarativeFilter(spec, FilterContext())
    out = [line.text for raw in split_lines(text) for line in engine.feed(raw, Stream.STDOUT)]
    out.extend(line.text for line in engine.finish(exit_code))
    return "\n".join(out)


def _ours(expected: str) -> str:
    return _RUST_MARKER.sub(lambda m: lines_marker(int(m.group(1))), expected)


def run_test(spec: FilterDef, test: InlineTest) -> Outcome:
    actual = apply(spec, test.input, test.exit_code).rstrip("\n")
    expected = _ours(test.expected.rstrip("\n"))
    if actual == expected:
        return Outcome(spec.name, spec.source, test.name, True)
    return Outcome(spec.name, spec.source, test.name, False,
                   f"expected {expected!r}, got {actual!r}")


def _content_size(spec: FilterDef, output: str) -> int:
    """Bytes of what the filter kept: its markers, repeated headings, summary, on_empty and
    match_output messages do not count (the pipeline allows a filter those few closing lines)."""
    rule_sets = [r for r in (spec.rules, spec.failure) if r is not None]
    added = {r.summary for r in rule_sets if r.summary} | {r.on_empty for r in rule_sets if r.on_empty}
    added |= {rule.message for r in rule_sets for rule in r.match_output}
    return sum(len(line) + 1 for line in output.split("\n")
               if not _OUR_MARKER.match(line) and not line.endswith(" (continued)")
               and not any(line.startswith(a.split("{")[0]) for a in added))


def check_properties(spec: FilterDef) -> list[Outcome]:
    """Same input twice gives the same bytes; what is kept is never larger than the input."""
    outcomes = []
    for test in spec.tests:
        first, second = apply(spec, test.input, test.exit_code), apply(spec, test.input, test.exit_code)
        if first != second:
            outcomes.append(Outcome(spec.name, spec.source, f"deterministic: {test.name}", False,
                                    "two runs on the same input differ"))
        kept = _content_size(spec, first)
        if kept > len(test.input.rstrip("\n")) + 1:
            outcomes.append(Outcome(spec.name, spec.source, f"never larger: {test.name}", False,
                                    f"{kept} bytes kept for {len(test.input)} in"))
    return outcomes
