"""The per-line function of a streaming declarative filter: `feed(line, stream)` in one closure.

The runner calls it once per line, so its body is the engine's throughput: one call per line
(the filter's `feed` is this closure itself), the rule work chosen once (fast.py: gated tests,
one-match replaces), the stages that exist and no others. Lines that open a section, or come
while one is open, and counters that sum a group go to the plain path (`feed_prepared`), which
is also what every shortcut here must equal (tests/filters/declarative/test_fast_path.py).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from rtk.filters.base import Line, Stream, strip_ansi

from .fast import any_test, gate, replacer
from .pattern import LINE_CAP, AnyOf
from .pipeline import RulePipeline

LineFeed = Callable[[str, Stream], Iterable[Line]]
_STDERR = Stream.STDERR
_new = tuple.__new__  # what Line(text, stream) builds, without the extra call


def line_feed(pipeline: RulePipeline, pass_stderr: bool) -> LineFeed:
    """`feed(line, stream)` for `pipeline`: stderr lines as they are when `pass_stderr`."""
    rules = pipeline.rules
    ansi = rules.strip_ansi
    replacers = tuple(replacer(rule) for rule in rules.replace)
    counters = tuple((gate(c.pattern.pattern), c.pattern.search, name)
                     for name, c in rules.counters.items() if c.sum_group is None)
    everything_general = len(counters) != len(rules.counters)  # a summing counter: the plain path
    sections = bool(rules.sections)
    starts = any_test(AnyOf([section.start for section in rules.sections])) if sections else None
    strip = any_test(rules.strip) if rules.strip is not None else None
    keep = any_test(rules.keep_only) if rules.keep_only is not None else None
    stage = _stage_function(pipeline)
    general, counts = pipeline.feed_prepared, pipeline.counts
    tracks_printed = rules.on_empty is not None

    def feed(line: str, stream: Stream) -> Iterable[Line]:
        if stream is _STDERR and pass_stderr:
            return (_new(Line, (line, stream)),)
        text = line
        if ansi and "\x1b" in text:
            text = strip_ansi(text)
        for prefix, literal, apply in replacers:
            if literal in text and text.startswith(prefix):
                text = apply(text)
        probe = text if len(text) <= LINE_CAP else text[:LINE_CAP]
        if everything_general or sections and (pipeline.section is not None or starts(probe)):  # type: ignore[misc]
            return [_new(Line, (kept, stream)) for kept in general(text)]
        for literal, search, name in counters:
            if literal in probe and search(probe) is not None:
                counts[name] += 1
        if strip is not None and strip(probe):
            return ()
        if keep is not None and not keep(probe):
            return ()
        if stage is None:
            if tracks_printed and not pipeline.printed and text.strip():
                pipeline.printed = True
            return (_new(Line, (text, stream)),)
        out = stage(text)
        if not out:
            return ()
        return (_new(Line, (out[0], stream)),) if len(out) == 1 else [_new(Line, (kept, stream)) for kept in out]

    return feed


def _stage_function(pipeline: RulePipeline) -> Callable[[str], list[str] | tuple[str, ...]] | None:
    """What a kept line goes through: nothing (None), one stage's own `feed`, or the chain."""
    rules = pipeline.rules
    if pipeline.plain and rules.truncate_at is None:
        return None
    if len(pipeline.stages) == 1 and rules.truncate_at is None and rules.on_empty is None:
        return pipeline.stages[0].feed  # type: ignore[no-any-return]
    return pipeline.stage_chain  # with the cut and the printed flag
