"""The per-line function of a streaming declarative filter: `feed(line, stream)`, generated.

The runner calls it once per line, so its body is the engine's throughput. It is written out
for the filter's rules when the filter starts (fast.py: gated tests, one-match replaces), so a
line costs one Python call and only the checks its rules have: no loop over absent stages, no
per-rule tuple unpacking, no flag tests. Lines that open a section, or come while one is open,
and filters with a counter that sums a group take the plain path (`RulePipeline.feed_prepared`),
which is also what every shortcut here must equal (tests/filters/declarative/test_fast_path.py).
The source holds generated names only; every pattern and literal is a value in its namespace.
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


PLAIN = "return [new(Line, (kept, stream)) for kept in general(text)]"


def line_feed(pipeline: RulePipeline, pass_stderr: bool) -> LineFeed:
    """`feed(line, stream)` for `pipeline`: stderr lines as they are when `pass_stderr`."""
    rules = pipeline.rules
    names = Names(Line=Line, new=tuple.__new__, STDERR=Stream.STDERR, CAP=LINE_CAP, NEWLINE="\n",
                  strip_ansi=strip_ansi, pipeline=pipeline, general=pipeline.feed_prepared,
                  counts=pipeline.counts, in_section={})
    code = ["def feed(line, stream):"]
    if pass_stderr:
        code.append("    if stream is STDERR: return (new(Line, (line, stream)),)")
    code.append("    text = line")
    if rules.strip_ansi:
        code.append('    if "\\x1b" in text: text = strip_ansi(text)')
    code += ["    " + line for rule in rules.replace for line in replace_code(rule, names)]
    code.append("    probe = text if len(text) <= CAP else text[:CAP]")
    if any(counter.sum_group is not None for counter in rules.counters.values()):
        code.append("    " + PLAIN)  # a counter summing a group: the plain path for every line
    else:
        code += ["    " + line for line in _sections(pipeline, names) + _line_rules(rules, names)]
        code += ["    " + line for line in _kept(pipeline, names)]
    source = "\n".join(code) + "\n" + "".join(_section_function(pipeline, i, names) for i in range(len(rules.sections)))
    feed = names.function(source, "feed")
    names.values["in_section"].update(  # type: ignore[attr-defined]
        {id(section): names.values[f"section{i}"] for i, section in enumerate(rules.sections)})
    return feed  # type: ignore[return-value]


def _sections(pipeline: RulePipeline, names: Names) -> list[str]:
    """A line in an open section goes to that section's function; one that opens a section
    (or closes one: the plain path decides those) to `feed_prepared`."""
    sections = pipeline.rules.sections
    if not sections:
        return []
    starts = any_test_expr(AnyOf([section.start for section in sections]), "probe", names)
    return ["section = pipeline.section",
            "if section is not None: return in_section[id(section)](text, probe, stream)",
            f"if {starts}: {PLAIN}"]


def _section_function(pipeline: RulePipeline, index: int, names: Names) -> str:
    """`section{index}(text, probe, stream)`: `RulePipeline._in_section` for one section, for
    lines that neither end it nor open another (those take the plain path)."""
    rules = pipeline.rules
    section = rules.sections[index]
    leaves = [one_test_expr(section.end, "probe", names)] if section.end is not None else []
    others = [other.start for other in rules.sections if other is not section]
    leaves += [any_test_expr(AnyOf(others), "probe", names)] if others else []
    code = [f"if {' or '.join(leaves)}: {PLAIN}"] if leaves else []
    code += _line_rules(replace(rules, strip=section.strip, keep_only=section.keep_only), names)
    if not section.keep:
        code.append("return ()")
    else:
        if section.max_lines is not None:
            code += [f"if pipeline.section_kept >= {names.add(section.max_lines, 'most')}:",
                     "    pipeline.section_hidden += 1", "    return ()"]
        code += ["pipeline.section_kept += 1"] + _kept(pipeline, names)
    return f"\n\ndef section{index}(text, probe, stream):\n" + "".join(f"    {line}\n" for line in code)


def _line_rules(rules: Rules, names: Names) -> list[str]:
    code = []
    for name, counter in rules.counters.items():
        code.append(f"if {one_test_expr(counter.pattern, 'probe', names)}: counts[{names.add(name, 'name')}] += 1")
    if rules.strip is not None:
        code.append(f"if {any_test_expr(rules.strip, 'probe', names)}: return ()")
    if rules.keep_only is not None:
        code.append(f"if not {any_test_expr(rules.keep_only, 'probe', names)}: return ()")
    return code


def _kept(pipeline: RulePipeline, names: Names) -> list[str]:
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
        code.append("    return ()")
    elif pipeline.stages:
        return code + _chain(pipeline, names)
    if rules.on_empty is not None:
        code.append("if not pipeline.printed and text.strip(): pipeline.printed = True")
    return code + ["return (new(Line, (text, stream)),)"]


def _chain(pipeline: RulePipeline, names: Names) -> list[str]:
    first, *rest = [names.add(stage.feed, "stage") for stage in pipeline.stages]
    code = [f"out = {first}(text)", "if not out: return ()"]
    for stage in rest:
        code += [f"out = {stage}(out[0]) if len(out) == 1 else [kept for line in out for kept in {stage}(line)]",
                 "if not out: return ()"]
    if pipeline.rules.on_empty is not None:
        code.append("if not pipeline.printed: pipeline.printed = any(kept.strip() for kept in out)")
    return code + ["if len(out) == 1: return (new(Line, (out[0], stream)),)",
                   "return [new(Line, (kept, stream)) for kept in out]"]
