"""One rule set applied to a stream of lines: the Rust rtk's eight stages plus our extensions.

Order, as upstream: strip_ansi, replace, (match_output, decided by the caller on the held
output), strip/keep, truncate, head/tail, max_lines, on_empty. Ours slot in where they make
sense: counters see every line after replace (so stripped lines can still be counted), sections
choose the line rules, collapse and group run before the head/tail/max window, and the summary
line comes last.
"""
from __future__ import annotations

from rtk.filters.base import strip_ansi

from .pattern import LINE_CAP
from .rules import Rules, Section
from .stages import CarryPrefix, Collapse, Grouper, HeadingRepeater, Window, lines_marker


class RulePipeline:
    """Streams lines through one `Rules`; `elided` says whether content (not noise) was left out.

    This is the plain path, each rule as written (the reference the fast path, fastfeed.py,
    must equal); the fast path calls back into `feed_prepared` for the lines it leaves to it."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.counts = dict.fromkeys(rules.counters, 0)
        self.eliding = tuple(name for name, counter in rules.counters.items() if counter.elides)
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
        self.stages = tuple(stage for stage in self._chain if stage is not None)
        self.plain = not self.stages

    @property
    def elided(self) -> bool:
        return (self.truncated or any(stage.elided for stage in self.stages)
                or any(self.counts[name] for name in self.eliding))

    def prepare(self, text: str) -> str:
        """strip_ansi and replace: what match_output and the counters see."""
        rules = self.rules
        if rules.strip_ansi and "\x1b" in text:
            text = strip_ansi(text)
        for pattern, template, _ in rules.replace:
            if len(text) > LINE_CAP:
                text = pattern.sub(template, text[:LINE_CAP]) + text[LINE_CAP:]  # type: ignore[arg-type]
            else:
                text = pattern.sub(template, text)  # type: ignore[arg-type]
        return text

    def feed(self, text: str) -> list[str]:
        """Feed one raw line (as the child printed it)."""
        return self.feed_prepared(self.prepare(text))

    def feed_prepared(self, text: str) -> list[str]:
        probe = text if len(text) <= LINE_CAP else text[:LINE_CAP]
        if self.counts:
            self._count(probe)
        if self.rules.sections:
            closing = [kept for marker in self._sections(probe) for kept in self.stage_chain(marker)]
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
        return self.stage_chain(text)

    def stage_chain(self, text: str) -> list[str]:
        limit = self.rules.truncate_at
        if limit is not None and len(text) > limit:
            text = text[:max(limit - 3, 0)] + "..."  # the Rust rtk's cut: N characters, "..." included
            self.truncated = True
        if self.plain:
            self.printed = self.printed or bool(text.strip())
            return [text]
        out = [text]
        for stage in self.stages:
            out = stage.feed(out[0]) if len(out) == 1 else [kept for line in out for kept in stage.feed(line)]  # type: ignore[assignment]
            if not out:
                return []
        self.printed = self.printed or any(line.strip() for line in out)
        return list(out)

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
        return self.stage_chain(text)

    def finish(self) -> list[str]:
        out = self._close() if self.section is not None else []
        for stage in self.stages:
            out = [kept for line in out for kept in stage.feed(line)] + stage.finish()
        self.printed = self.printed or any(line.strip() for line in out)
        if not self.printed and self.rules.on_empty is not None:
            out.append(self.rules.on_empty)
        if self.rules.summary is not None:
            out.append(self.rules.summary.format_map(self.counts))
        return out
