"""One rule set applied to a stream of lines: the Rust rtk's eight stages plus our extensions.

Order, as upstream: strip_ansi, replace, (match_output, decided by the caller on the held
output), strip/keep, truncate, head/tail, max_lines, on_empty. Ours slot in where they make
sense: counters see every line after replace (so stripped lines can still be counted), sections
choose the line rules, collapse and group run before the head/tail/max window, and the summary
line comes last.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from rtk.filters.base import strip_ansi

from .pattern import LINE_CAP
from .rules import Rules, Section
from .stages import CarryPrefix, Collapse, Grouper, HeadingRepeater, Window, lines_marker


class RulePipeline:
    """Streams lines through one `Rules`; `elided` says whether content (not noise) was left out."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.counts = dict.fromkeys(rules.counters, 0)
        self.section: Section | None = None
        self.section_kept = 0
        self.section_hidden = 0
        self.truncated = False
        self.printed = False
        self.collapse = Collapse(rules.collapse, rules.collapse_min) if rules.collapse is not None else None
        self.group = Grouper(rules.group) if rules.group is not None else None
        self.headings = HeadingRepeater(rules.headings) if rules.headings is not None else None
        self.carry = CarryPrefix(rules.carry) if rules.carry is not None else None
        window = (rules.head, rules.tail, rules.max_lines)
        self.window = Window(*window) if window != (None, None, None) else None
        self._chain = (self.carry, self.collapse, self.group, self.headings, self.window)
        self.plain = all(stage is None for stage in self._chain)
        starts = [section.start.pattern for section in rules.sections]
        self.any_start = re.compile("|".join(f"(?:{p})" for p in starts)).search if starts else None
        self.feed = self._fast_feed()  # type: ignore[method-assign,assignment]

    @property
    def elided(self) -> bool:
        return self.truncated or any(stage is not None and stage.elided
                                     for stage in self._chain)

    def prepare(self, text: str) -> str:
        """strip_ansi and replace: what match_output and the counters see."""
        rules = self.rules
        if rules.strip_ansi and "\x1b" in text:
            text = strip_ansi(text)
        return self._replace(text)

    def _replace(self, text: str) -> str:
        for pattern, template, prefix, literal in self.rules.replace:
            if prefix and not text.startswith(prefix) or literal and literal not in text:
                continue
            if len(text) > LINE_CAP:
                text = pattern.sub(template, text[:LINE_CAP]) + text[LINE_CAP:]
            else:
                text = pattern.sub(template, text)
        return text

    def feed(self, text: str) -> list[str] | tuple[str, ...]:
        """Feed one raw line (as the child printed it); replaced per instance by `_fast_feed`."""
        return self.feed_prepared(self.prepare(text))

    def _fast_feed(self) -> Callable[[str], list[str] | tuple[str, ...]]:
        """`feed` as one closure: the per-line cost is what bounds the engine's throughput, so
        the common stages are inlined here. Counters are counted inline; a line that opens a
        section (or any line while one is open) takes the general path, `feed_prepared`."""
        rules = self.rules
        ansi, replace = rules.strip_ansi, rules.replace
        counters = [(name, c.pattern.search) for name, c in rules.counters.items() if c.sum_group is None]
        slow_counters = len(counters) != len(rules.counters)
        counts = self.counts
        any_start = self.any_start
        general = self.feed_prepared
        strip = rules.strip.search if rules.strip is not None else None
        keep = rules.keep_only.search if rules.keep_only is not None else None
        limit = rules.truncate_at
        stages = self._stages
        if self.carry is None and self.collapse is None and self.group is None and self.headings is None \
                and self.window is not None and limit is None:
            stages = self.window.feed  # type: ignore[assignment]
        plain = self.plain and limit is None
        prepare = self._replace

        def feed(text: str) -> list[str] | tuple[str, ...]:
            if ansi and "\x1b" in text:
                text = strip_ansi(text)
            if replace:
                text = prepare(text)
            probe = text if len(text) <= LINE_CAP else text[:LINE_CAP]
            if slow_counters or self.section is not None or any_start is not None and any_start(probe):
                return general(text)
            for name, search in counters:
                if search(probe) is not None:
                    counts[name] += 1
            if strip is not None and strip(probe) is not None:
                return ()
            if keep is not None and keep(probe) is None:
                return ()
            if plain:
                if not self.printed and text.strip():
                    self.printed = True
                return (text,)
            out = stages(text)
            if out and not self.printed:
                self.printed = any(line.strip() for line in out)
            return out

        return feed

    def feed_prepared(self, text: str) -> list[str]:
        probe = text if len(text) <= LINE_CAP else text[:LINE_CAP]
        if self.counts:
            self._count(probe)
        if self.rules.sections:
            closing = [kept for marker in self._sections(probe) for kept in self._stages(marker)]
            if self.section is not None:
                return closing + self._in_section(text, probe)
            if closing:
                return closing + self._kept(text, probe)
        return self._kept(text, probe)

    def _kept(self, text: str, probe: str) -> list[str]:
        rules = self.rules
        if rules.strip is not None and rules.strip.search(probe) is not None:
            return []
        if rules.keep_only is not None and rules.keep_only.search(probe) is None:
            return []
        return self._stages(text)

    def _stages(self, text: str) -> list[str]:
        limit = self.rules.truncate_at
        if limit is not None and len(text) > limit:
            text = text[:max(limit - 3, 0)] + "..."  # the Rust rtk's cut: N characters, "..." included
            self.truncated = True
        if self.plain:
            self.printed = self.printed or bool(text.strip())
            return [text]
        out = [text]
        for stage in self._chain:
            if stage is not None:
                out = [kept for line in out for kept in stage.feed(line)]
        self.printed = self.printed or any(line.strip() for line in out)
        return out

    def _count(self, probe: str) -> None:
        for name, counter in self.rules.counters.items():
            found = counter.pattern.search(probe)
            if found is None:
                continue
            if counter.sum_group is None:
                self.counts[name] += 1
            else:
                value = found.group(int(counter.sum_group) if counter.sum_group.isdigit() else counter.sum_group)
                self.counts[name] += int(value) if value and value.isdigit() else 0

    def _sections(self, probe: str) -> list[str]:
        """Enter or leave a section on this line; returns the closing marker of one left."""
        closing: list[str] = []
        current = self.section
        if current is not None and current.end is not None and current.end.search(probe):
            return self._close()
        for section in self.rules.sections:
            if section is not current and section.start.search(probe):
                closing = self._close() if current is not None else []
                self.section, self.section_kept, self.section_hidden = section, 0, 0
                break
        return closing

    def _close(self) -> list[str]:
        hidden = self.section_hidden
        self.section = None
        if hidden:
            self.truncated = True
            return [lines_marker(hidden)]
        return []

    def _in_section(self, text: str, probe: str) -> list[str]:
        section = self.section
        assert section is not None
        if not section.keep:
            return []
        if section.strip is not None and section.strip.search(probe):
            return []
        if section.keep_only is not None and not section.keep_only.search(probe):
            return []
        if section.max_lines is not None and self.section_kept >= section.max_lines:
            self.section_hidden += 1
            return []
        self.section_kept += 1
        return self._stages(text)

    def finish(self) -> list[str]:
        out = self._close() if self.section is not None else []
        for stage in self._chain:
            if stage is None:
                continue
            out = [kept for line in out for kept in stage.feed(line)] + stage.finish()
        self.printed = self.printed or any(line.strip() for line in out)
        if not self.printed and self.rules.on_empty is not None:
            out.append(self.rules.on_empty)
        if self.rules.summary is not None:
            out.append(self.rules.summary.format_map(self.counts))
        return out
