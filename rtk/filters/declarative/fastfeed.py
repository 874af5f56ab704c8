"""The per-line work of a streaming declarative filter, generated for its rules.

The runner calls the filter once per line (or once per block of lines, `feed_block`), so this
code is the engine's throughput. It is written out when the filter starts (fast.py: gated tests,
one-match replaces): `feed(line, stream)` costs one Python call and only the checks its rules
have (no loop over absent stages, no per-rule tuple unpacking, no flag tests); `block(lines)`
is the same body in a loop, appending kept texts, so a block of lines costs one call. Lines that
open or close a section, and filters with a counter that sums a group, take the plain path
(`RulePipeline.feed_prepared`), which is also what every shortcut here must equal
(tests/filters/declarative/test_fast_path.py). The source holds generated names only; every
pattern and literal is a value in its namespace.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from rtk.filters.base import Line, Stream, strip_ansi

from .fast import Names, any_test_expr, one_test_expr, replace_code
from .pattern import LINE_CAP, AnyOf
from .pipeline import RulePipeline
from .rules import Rules

LineFeed = Callable[[str, Stream], Iterable[Line]]
BlockFeed = Callable[[list[str]], list[str]]


class Exits:
    """How generated code leaves a line: print nothing, print one text, print a list of texts."""

    def __init__(self, drop: str, keep: str, keep_all: str) -> None:
        self.drop, self._keep, self._keep_all = drop, keep, keep_all

    def keep(self, expr: str) -> str:
        return self._keep.format(expr)

    def keep_all(self, expr: str) -> str:
        return self._keep_all.format(expr)


LINE = Exits("return ()", "return (new(Line, ({}, stream)),)", "return [new(Line, (kept, stream)) for kept in {}]")
BLOCK = Exits("continue", "append({}); continue", "extend({}); continue")
TEXTS = Exits("return ()", "return ({},)", "return {}")  # a section's function, called from either


def line_feed(pipeline: RulePipeline, pass_stderr: bool) -> LineFeed:
    """`feed(line, stream)` for `pipeline`: stderr lines as they are when `pass_stderr`."""
    names = _names(pipeline)
    head = ["def feed(line, stream):"]
    if pass_stderr:
        head.append("    if stream is STDERR: return (new(Line, (line, stream)),)")
    source = "\n".join(head + ["    text = line"] + _indent(_body(pipeline, names, LINE), 1))
    return _build(pipeline, names, source, "feed")  # type: ignore[return-value]


def block_feed(pipeline: RulePipeline) -> BlockFeed:
    """`block(lines) -> texts`: `feed` over a list of lines (one stream's), the kept texts."""
    names = _names(pipeline)
    head = ["def block(lines):", "    kept_texts = []", "    append, extend = kept_texts.append, kept_texts.extend",
            "    for text in lines:"]
    source = "\n".join(head + _indent(_body(pipeline, names, BLOCK), 2) + ["    return kept_texts"])
    return _build(pipeline, names, source, "block")  # type: ignore[return-value]


def _names(pipeline: RulePipeline) -> Names:
    return Names(Line=Line, new=tuple.__new__, STDERR=Stream.STDERR, CAP=LINE_CAP, NEWLINE="\n",
                 strip_ansi=strip_ansi, pipeline=pipeline, general=pipeline.feed_prepared,
                 counts=pipeline.counts, in_section={})


def _build(pipeline: RulePipeline, names: Names, source: str, name: str) -> Callable[..., object]:
    sections = pipeline.rules.sections
    source += "\n" + "".join(_section_function(pipeline, i, names) for i in range(len(sections)))
    function = names.function(source, name)
    names.values["in_section"].update(  # type: ignore[attr-defined]
        {id(section): names.values[f"section{i}"] for i, section in enumerate(sections)})
    return function


def _indent(code: list[str], depth: int) -> list[str]:
    return ["    " * depth + line for line in code]


def _body(pipeline: RulePipeline, names: Names, exits: Exits) -> list[str]:
    """One line's work on `text`, from strip_ansi to the kept line's stages."""
    rules = pipeline.rules
    code = ['if "\\x1b" in text: text = strip_ansi(text)'] if rules.strip_ansi else []
    code += [line for rule in rules.replace for line in replace_code(rule, names)]
    code.append("probe = text if len(text) <= CAP else text[:CAP]")
    if any(counter.sum_group is not None for counter in rules.counters.values()):
        return code + [exits.keep_all("general(text)")]  # a counter summing a group: the plain path
    return code + _sections(pipeline, names, exits) + _line_rules(rules, names, exits) + _kept(pipeline, names, exits)


def _sections(pipeline: RulePipeline, names: Names, exits: Exits) -> list[str]:
    """A line in an open section goes to that section's function; one that opens a section
    (or closes one: the plain path decides those) to `feed_prepared`."""
    sections = pipeline.rules.sections
    if not sections:
        return []
    starts = any_test_expr(AnyOf([section.start for section in sections]), "probe", names)
    return ["section = pipeline.section",
            f"if section is not None: {exits.keep_all('in_section[id(section)](text, probe)')}",
            f"if {starts}: {exits.keep_all('general(text)')}"]


def _section_function(pipeline: RulePipeline, index: int, names: Names) -> str:
    """`section{index}(text, probe) -> texts`: `RulePipeline._in_section` for one section, for
    lines that neither end it nor open another (those take the plain path)."""
    rules = pipeline.rules
    section = rules.sections[index]
    leaves = [one_test_expr(section.end, "probe", names)] if section.end is not None else []
    others = [other.start for other in rules.sections if other is not section]
    leaves += [any_test_expr(AnyOf(others), "probe", names)] if others else []
    code = [f"if {' or '.join(leaves)}: {TEXTS.keep_all('general(text)')}"] if leaves else []
    code += _line_rules(replace(rules, strip=section.strip, keep_only=section.keep_only), names, TEXTS)
    if not section.keep:
        code.append("return ()")
    else:
        if section.max_lines is not None:
            code += [f"if pipeline.section_kept >= {names.add(section.max_lines, 'most')}:",
                     "    pipeline.section_hidden += 1", "    return ()"]
        code += ["pipeline.section_kept += 1"] + _kept(pipeline, names, TEXTS)
    return f"\n\ndef section{index}(text, probe):\n" + "".join(f"    {line}\n" for line in code)


def _line_rules(rules: Rules, names: Names, exits: Exits) -> list[str]:
    code = []
    for name, counter in rules.counters.items():
        code.append(f"if {one_test_expr(counter.pattern, 'probe', names)}: counts[{names.add(name, 'name')}] += 1")
    if rules.strip is not None:
        code.append(f"if {any_test_expr(rules.strip, 'probe', names)}: {exits.drop}")
    if rules.keep_only is not None:
        code.append(f"if not {any_test_expr(rules.keep_only, 'probe', names)}: {exits.drop}")
    return code


def _kept(pipeline: RulePipeline, names: Names, exits: Exits) -> list[str]:
    """What a kept line goes through (`RulePipeline.stage_chain` written out): the cut, then a
    head/tail/max window inline when it is the only stage, else each stage's own `feed`."""
    rules = pipeline.rules
    window = pipeline.window
    code = []
    if rules.truncate_at is not None:  # the Rust rtk's cut: N characters, "..." included
        limit, keep = names.add(rules.truncate_at, "limit"), names.add(max(rules.truncate_at - 3, 0), "keep")
        code += [f"if len(text) > {limit}:", f'    text = text[:{keep}] + "..."', "    pipeline.truncated = True"]
    if window is not None and pipeline.stages == (window,):  # Window.feed
        code += [f"{names.add(window, 'window')}.seen = seen = {names.add(window, 'window')}.seen + 1",
                 f"if seen > {names.add(window.streamed, 'streamed')}:"]
        if window.tail is not None:
            code += [f"    if seen > {names.add(window.hold_from, 'hold_from')}: {names.add(window.held.append, 'hold')}(text)"]
        code.append(f"    {exits.drop}")
    elif pipeline.stages:
        return code + _chain(pipeline, names, exits)
    if rules.on_empty is not None:
        code.append("if not pipeline.printed and text.strip(): pipeline.printed = True")
    return code + [exits.keep("text")]


def _chain(pipeline: RulePipeline, names: Names, exits: Exits) -> list[str]:
    first, *rest = [names.add(stage.feed, "stage") for stage in pipeline.stages]
    code = [f"staged = {first}(text)", f"if not staged: {exits.drop}"]
    for stage in rest:
        code += [f"staged = {stage}(staged[0]) if len(staged) == 1 else [kept for line in staged for kept in {stage}(line)]",
                 f"if not staged: {exits.drop}"]
    if pipeline.rules.on_empty is not None:
        code.append("if not pipeline.printed: pipeline.printed = any(kept.strip() for kept in staged)")
    return code + [f"if len(staged) == 1: {exits.keep('staged[0]')}", exits.keep_all("staged")]
