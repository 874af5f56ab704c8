"""The per-line work of a streaming declarative filter, generated for its rules.

The runner calls the filter once per line (or once per block of lines, `feed_block`), so this
code is the engine's throughput. It is written out when the filter starts (fast.py: gated tests,
one-match replaces; faststages.py: the stages as statements): `block(lines)` runs one loop over
a block's lines with only the checks its rules have (no loop over absent stages, no per-rule
tuple unpacking, no flag tests, no call per stage), sections entered and left inline; `feed(line,
stream)` is the same body for one line (a plain `return` when nothing follows the print). Filters
with a counter that sums a group take the plain path (`RulePipeline.feed_prepared`), which is
also what every shortcut here must equal (tests/filters/declarative/test_fast_path.py). The
source holds generated names only; every pattern and literal is a value in its namespace.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from rtk.filters.base import Line, Stream, strip_ansi

from .fast import Names, anchored, any_test_expr, one_test_expr, replace_code
from .faststages import StageCode
from .growth import short_line_bound
from .pattern import LINE_CAP, AnyOf
from .pipeline import RulePipeline
from .rules import Section
from .stages import lines_marker

LineFeed = Callable[[str, Stream], Iterable[Line]]
BlockFeed = Callable[[list[str]], list[str]]
_LOOP = ("continue", "append({})")
_PROBE = re.compile(r"(?<![\w.])probe\b")
_RETURN = ("return ()", "return (new(Line, ({}, stream)),)")


def line_feed(pipeline: RulePipeline, pass_stderr: bool) -> LineFeed:
    """`feed(line, stream)` for `pipeline`: stderr lines as they are when `pass_stderr`. The
    stages' state is read and written in place (no loads and stores around each call)."""
    names = _names(pipeline)
    head = ["def feed(line, stream):"]
    if pass_stderr:
        head.append("    if stream is STDERR: return (new(Line, (line, stream)),)")
    if _returns_once(pipeline):  # the print is the line's last act: leave by `return`
        stages = StageCode(pipeline, names, _RETURN[1], direct=True)
        code = ["text = line"] + _body(pipeline, names, stages, _RETURN[0]) + [_RETURN[0]]
        return _build(names, "\n".join(head + _indent(stages.attributes(code), 1)), "feed")  # type: ignore[return-value]
    stages = StageCode(pipeline, names, _LOOP[1], direct=True)
    code = ["kept_texts = []", "append = kept_texts.append", "for text in (line,):"]
    code += _indent(_body(pipeline, names, stages, _LOOP[0]), 1)
    code += ["if not kept_texts: return ()", "if len(kept_texts) == 1: return (new(Line, (kept_texts[0], stream)),)",
             "return [new(Line, (kept, stream)) for kept in kept_texts]"]
    return _build(names, "\n".join(head + _indent(stages.attributes(code), 1)), "feed")  # type: ignore[return-value]


def block_feed(pipeline: RulePipeline, *, short: bool = False) -> BlockFeed:
    """`block(lines) -> texts`: `feed` over a list of lines (one stream's), the kept texts.
    The lines hold no escape code (`feed_block` strips them first, or takes the line path).
    `short`: for lines within `short_line_bound` only (no window tests)."""
    names = _names(pipeline)
    stages = StageCode(pipeline, names, _LOOP[1])
    loop = ["for text in lines:"] + _indent(_body(pipeline, names, stages, _LOOP[0], plain=True, short=short), 1)
    code = ["kept_texts = []", "append = kept_texts.append"] + _guarded(stages, loop) + ["return kept_texts"]
    return _build(names, "\n".join(["def block(lines):"] + _indent(code, 1)), "block")  # type: ignore[return-value]


def short_block_feed(pipeline: RulePipeline) -> tuple[BlockFeed, int] | None:
    """`block_feed` without the window tests, and the longest line it may be given (growth.py:
    LINE_CAP without replace rules), or None when the replace rules give no such bound."""
    rules = pipeline.rules.replace
    bound = short_line_bound(rules, [anchored(pattern.pattern) for pattern, _, _ in rules])
    return (block_feed(pipeline, short=True), bound) if bound is not None else None


def _returns_once(pipeline: RulePipeline) -> bool:
    """Nothing runs after a line's one print: no stage but the window, no section that can
    close with a marker (only a line cap hides lines)."""
    capped = any(section.max_lines is not None for section in pipeline.rules.sections)
    return not capped and pipeline.stages in ((), (pipeline.window,))


def _guarded(stages: StageCode, code: list[str]) -> list[str]:
    """`code` between the loads and the stores of the stages' local state."""
    if not stages.loads:
        return code
    return stages.loads + ["try:"] + _indent(code, 1) + ["finally:"] + _indent(stages.stores, 1)


def _names(pipeline: RulePipeline) -> Names:
    return Names(Line=Line, new=tuple.__new__, STDERR=Stream.STDERR, CAP=LINE_CAP, NEWLINE="\n",
                 strip_ansi=strip_ansi, pipeline=pipeline, general=pipeline.feed_prepared,
                 counts=pipeline.counts, lines_marker=lines_marker)


def _build(names: Names, source: str, name: str) -> Callable[..., object]:
    return names.function(source, name)


def _indent(code: list[str], depth: int) -> list[str]:
    return ["    " * depth + line for line in code]


def _body(pipeline: RulePipeline, names: Names, stages: StageCode, drop: str, *, plain: bool = False,
          short: bool = False) -> list[str]:
    """One line's work on `text`, from strip_ansi (unless the lines are `plain`: without
    escape codes) to the kept line's stages (`short`: every text within the window)."""
    rules = pipeline.rules
    code = ['if "\\x1b" in text: text = strip_ansi(text)'] if rules.strip_ansi and not plain else []
    code += [line for rule in rules.replace for line in replace_code(rule, names, short=short)]
    code.append("probe = text" if short else "probe = text if len(text) <= CAP else text[:CAP]")
    if any(counter.sum_group is not None for counter in rules.counters.values()):
        # a counter summing a group: the plain path (at most one line when `out` returns)
        return code + [f"for kept in general(text): {stages.out.format('kept')}", drop]
    for name, counter in rules.counters.items():
        code.append(f"if {one_test_expr(counter.pattern, 'probe', names)}: counts[{names.add(name, 'name')}] += 1")
    chain = stages.chain("text")  # first: it names the stages' state, which _close hands over
    if rules.sections:
        kept = _sections(pipeline, names, stages, drop)
    else:
        kept = _kept(rules.strip, rules.keep_only, names, drop)
    return _without_unread_probe(code + kept + chain)


def _without_unread_probe(code: list[str]) -> list[str]:
    """The line's window is made for the tests that read it; with none (a filter of windows,
    cuts or replaces only) it would cost a length test and a store on every line for nothing."""
    at = next(i for i, line in enumerate(code) if line.startswith("probe = "))
    if any(_PROBE.search(line) for line in code[at + 1:]):
        return code
    return code[:at] + code[at + 1:]


def _kept(strip: AnyOf | None, keep_only: AnyOf | None, names: Names, drop: str) -> list[str]:
    """The strip / keep rules: a line they keep goes on to the stage chain."""
    code = []
    if strip is not None:
        code.append(f"if {any_test_expr(strip, 'probe', names)}: {drop}")
    if keep_only is not None:
        code.append(f"if not {any_test_expr(keep_only, 'probe', names)}: {drop}")
    return code


def _sections(pipeline: RulePipeline, names: Names, stages: StageCode, drop: str) -> list[str]:
    """`RulePipeline.feed_prepared`'s sections: dispatch on the open one (None included); a
    line that ends it is then a line outside, one that opens another is that one's line. Each
    branch drops the line or falls through to the one stage chain written after it."""
    sections = pipeline.rules.sections
    for local, attribute in (("section", "section"), ("section_kept", "section_kept"),
                             ("section_hidden", "section_hidden")):
        stages.state(local, pipeline, attribute)
    outside = _kept(pipeline.rules.strip, pipeline.rules.keep_only, names, drop) or ["pass"]
    code = ["if section is None:"] + _indent(_opening(pipeline, None, names, stages, drop, outside), 1)
    for section in sections:
        code.append(f"elif section is {names.add(section, 'section')}:")
        inside = _inside(section, names, stages, drop)
        branch = _opening(pipeline, section, names, stages, drop, inside)
        if section.end is not None:
            end = one_test_expr(section.end, "probe", names)
            branch = [f"if {end}:"] + _indent(_close(stages) + outside, 1) + ["else:"] + _indent(branch, 1)
        code += _indent(branch, 1)
    return code


def _opening(pipeline: RulePipeline, current: Section | None, names: Names, stages: StageCode, drop: str,
             otherwise: list[str]) -> list[str]:
    """A line that opens a section (the first in order, the open one aside) goes in it."""
    others = [section for section in pipeline.rules.sections if section is not current]
    if not others:
        return otherwise
    code = [f"if {any_test_expr(AnyOf([s.start for s in others]), 'probe', names)}:"]
    code += _indent(_close(stages), 1) if current is not None else []
    for i, section in enumerate(others):  # the union matched: the last one needs no test
        opened = [f"section, section_kept, section_hidden = {names.add(section, 'section')}, 0, 0"]
        opened += _inside(section, names, stages, drop)
        if len(others) == 1:
            code += _indent(opened, 1)
            break
        test = "else" if i == len(others) - 1 else f"{'if' if i == 0 else 'elif'} {one_test_expr(section.start, 'probe', names)}"
        code += [f"    {test}:"] + _indent(opened, 2)
    return code + ["else:"] + _indent(otherwise, 1)


def _close(stages: StageCode) -> list[str]:
    """`RulePipeline._close`: the count of lines a section's cap hid, as a marker line. Rare,
    so the marker takes the plain stage chain (the state handed over and back around it)."""
    if not any(section.max_lines is not None for section in stages.pipeline.rules.sections):
        return ["section = None"]  # no cap: nothing is ever hidden
    marker = f"for kept in pipeline.stage_chain(lines_marker(section_hidden)): {stages.out.format('kept')}"
    return ["section = None", "if section_hidden:", "    pipeline.truncated = True",
            *_indent(stages.stores + [marker] + stages.loads, 1)]


def _inside(section: Section, names: Names, stages: StageCode, drop: str) -> list[str]:
    """`RulePipeline._in_section`: the section's rules and cap (a kept line goes on)."""
    if not section.keep:
        return [drop]
    code = []
    if section.strip is not None:
        code.append(f"if {any_test_expr(section.strip, 'probe', names)}: {drop}")
    if section.keep_only is not None:
        code.append(f"if not {any_test_expr(section.keep_only, 'probe', names)}: {drop}")
    if section.max_lines is not None:
        code += [f"if section_kept >= {names.add(section.max_lines, 'most')}:", "    section_hidden += 1", f"    {drop}"]
    return code + ["section_kept += 1"]
