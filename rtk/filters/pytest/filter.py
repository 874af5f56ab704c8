"""pytest: each failure and error as soon as pytest has printed it, then one summary line.

Kept: for every failure and error (FAILURES / ERRORS blocks, collection errors, setup/teardown
errors, XPASS(strict)) its full test id, traceback locations, failing source lines, every `E`
line (capped, diff lines restating a value above them dropped: ediff.py, restated.py), the
exception, and the tail of its captured output; short-summary lines the user asked for with -r
(SKIPPED/XFAIL/XPASS reasons, FAILED/ERROR lines not already shown); pytest's banners;
INTERNALERROR, usage and conftest errors verbatim; --collect-only -q ids grouped by file
(collect.py); pytest-cov's and pytest-benchmark's tables shortened (plugins.py); other sections
verbatim; then `pytest: 3 failed, 1204 passed in 12.31s` and `12 warnings: DeprecationWarning x9`.
Dropped as noise: the session header, collection lines, progress (dots, -v PASSED lines, xdist
`[gw0]` lines, --setup-show result lines), separators, pytest's rerun hints.
Elided with a marker or behind the recall hint: source context and locals of tracebacks, E lines
past 40 per failure (20 after the tenth), captured output past the last 20 lines per section (10
after the tenth failure), deep traceback middles, INTERNALERROR's pytest and pluggy frames,
output printed by tests during the run (-s) and fixture lines (--setup-show) of passing tests,
PASSES sections; a failure repeating an earlier one's traceback or error is one line naming it
(report.py); warnings are one line per distinct message with its places (tally.py).
Exit 5 gives one line: `no tests ran in 0.01s`, `pytest: no tests collected (3 deselected)`.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, elision_marker, strip_ansi
from rtk.filters.pytest import patterns as p
from rtk.filters.pytest.block import Block, Caps
from rtk.filters.pytest.collect import CollectedIds, wants_collect
from rtk.filters.pytest.counts import RunCounts
from rtk.filters.pytest.ids import IdResolver
from rtk.filters.pytest.internal import InternalError
from rtk.filters.pytest.linemode import LineMode
from rtk.filters.pytest.plugins import PluginTables
from rtk.filters.pytest.printed import VERBOSE_PRINT_RE, Printed, asks_output, leading_results
from rtk.filters.pytest.progress_block import passing_progress
from rtk.filters.pytest.report import Reporter, errors_in_summary
from rtk.filters.pytest.setupshow import SETUP_FIRST, SetupShow
from rtk.filters.pytest.tally import SkipGroups, WarningTally, no_tests_line, split_stats, summary_line

NOTHING: tuple[Line, ...] = ()
Handler = Callable[[str, Stream], Iterable[Line]]
INSIDE_BLOCK = frozenset(" \tE>")  # first characters that never start a header or section
DURATIONS_SHOWN = 30  # lines of a `slowest durations` section
FULL_BLOCKS = 10  # failure blocks with the full caps; later ones get Caps.later(): many failures
DROPPED_SECTIONS = {"PASSES": "PASSES section: output of passing tests",
                    "XPASSES": "XPASSES section: output of unexpectedly passing tests",
                    "XFAILURES": "XFAILURES section: tracebacks of expected failures"}


class PytestFilter(BaseFilter):
    failure_head = staticmethod(p.failure_head)  # for a host's failure window (rtk.filters.failwindow)

    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        keep_all = not self.ctx.recall_enabled
        self._keep_all = keep_all
        showlocals = any(word in ("-l", "--showlocals") for word in self.ctx.argv)
        self._caps = Caps(None, None, None, continuation=1 << 30, line_chars=None, locals=showlocals) if keep_all \
            else Caps(self.ctx.limit("pytest_e_lines", 40), self.ctx.limit("pytest_captured_lines", 20), locals=showlocals)
        self._handler: Handler = self._start
        self._header_seen = False
        self._ids = IdResolver()
        self._counts = RunCounts(self._ids)
        self._block: Block | None = None
        self._lines = LineMode(self._caps)
        self._warnings = WarningTally()
        self._skips = SkipGroups()
        self._stray = 0
        self._printed = Printed(asks_output(self.ctx.argv))
        self._setup = SetupShow()
        self._dropped: Counter[str] = Counter()
        self._drop_what = ""
        self._stats: tuple[str, str] | None = None
        self._passed_through = 0
        self._short_keep = True
        self._reporter = Reporter(self._ids, errors_in_summary(self.ctx.argv))
        self._blocks = 0
        self._durations = 0
        self._internal = InternalError()
        self._plugins = PluginTables(self.ctx.argv, keep_all)
        self._collected = CollectedIds() if wants_collect(self.ctx.argv) and not keep_all else None

    # -- dispatch -------------------------------------------------------------------------

    def feed_block(self, body: bytes, stream: Stream) -> bytes | None:
        """The pipeline's byte path: blocks of passing progress only (progress_block.py), else None."""
        if (self._handler != self._run or self._keep_all or self._printed.total
                or b"\x1b" in body or b"\r" in body or not body.isascii()):
            return None
        counted = passing_progress(body)
        if counted is None:
            return None
        self._counts.take_block(counted)
        return b""

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if "\x1b" in line:
            line = strip_ansi(line)
        return self._handler(line, stream)

    def _special(self, line: str, stream: Stream) -> Iterable[Line] | None:
        """Lines that mean the same in every phase: sections, banners, stats, INTERNALERROR."""
        first = line[:1]
        if first == "=" and (m := p.SECTION_RE.match(line)) is not None:
            return self._enter_section(m.group(1) or "")
        if first == "!" and (m := p.BANNER_RE.match(line)) is not None:
            out = self._close_block(last=True)
            self._handler = self._after
            self.failure_seen = True
            out.append(Line(m.group(1), stream))
            return out
        if first == "I" and line.startswith("INTERNALERROR>"):
            self.failure_seen = True
            if p.CARET_RE.match(line[14:]):
                return NOTHING
            out = self._close_block(last=True) if self._block is not None else []
            out.extend(Line(text, stream) for text in self._internal.add(line.rstrip()))
            self.elided = self.elided or self._internal.elided
            return out
        if (first.isdigit() or first == "n") and (m := p.stats_of(line.rstrip())) is not None:
            out = self._close_block(last=True)
            self._take_stats(m.group(1), m.group(2))
            return out
        return None

    def _enter_section(self, title: str) -> list[Line]:
        out = self._close_block(last=True)
        if (m := p.stats_of(title)) is not None:
            self._take_stats(m.group(1), m.group(2))
        elif title == "test session starts":
            self._header_seen = True
            self._handler = self._start
        elif title in ("FAILURES", "ERRORS"):
            self._reporter.kind = title[0]
            self._handler = self._failures
        elif title.startswith("warnings summary"):
            self._handler = self._warning_section
        elif title == "short test summary info":
            self._reporter.summary_seen = True
            self._handler = self._short_summary
        elif title in DROPPED_SECTIONS:
            self._drop_what = DROPPED_SECTIONS[title]
            self._handler = self._drop_section
        elif p.DURATIONS_RE.match(title) and not self._keep_all:
            out.append(Line(title, Stream.STDOUT))
            self._durations = 0
            self._handler = self._durations_section
        elif title:
            out.append(Line(title, Stream.STDOUT))
            self._handler = self._after
        return out

    def _take_stats(self, counts: str, duration: str) -> None:
        self._stats = (counts, duration)
        self._handler = self._after
        if any(word in counts for word in (" failed", " error")):
            self.failure_seen = True

    # -- before and during the run ---------------------------------------------------------

    def _start(self, line: str, stream: Stream) -> Iterable[Line]:
        if (special := self._special(line, stream)) is not None:
            return special
        if line.startswith("rootdir: "):
            self._warnings.rootdir = line[9:].strip()
        if not line.strip() or line.startswith(p.HEADER_PREFIXES) or p.XDIST_HEADER_RE.match(line):
            return NOTHING
        if self._counts.progress(line):
            self._handler = self._run
            return NOTHING
        if line[:1] in SETUP_FIRST and not self._keep_all and SetupShow.matches(line.rstrip()):
            self._handler = self._run
            return self._run(line, stream)
        if ((m := leading_results(line)) is not None and "." in m[0]  # -s: `...printed`, `t.py::test_a printed`
                or self._printed.asked and VERBOSE_PRINT_RE.match(line) is not None):
            self._handler = self._run
            return self._stray_line(line.rstrip(), stream)
        if self._collected is not None and self._collected.is_nodeid(line.rstrip()):
            return [Line(text, stream) for text in self._collected.add(line.rstrip())]
        if self._header_seen and not line.lstrip().startswith("<"):
            return NOTHING  # plugins' header lines; `<Module x.py>` is the --collect-only tree
        self._passed_through += 1
        return (Line(line.rstrip(), stream),)

    def _run(self, line: str, stream: Stream) -> Iterable[Line]:
        if self._counts.progress(line):
            return self._printed_lines(stream)
        if (special := self._special(line, stream)) is not None:
            self._printed.end()
            return special
        if not line.strip():
            return NOTHING
        if line[:1] == "-" and p.PLUGIN_RULE_RE.match(line.rstrip()) is not None:  # benchmark, coverage
            self._printed.end()
            self._handler = self._after
            return self._after(line, stream)
        if self._keep_all:
            self._ids.unsure = True
            return (Line(line.rstrip(), stream),)
        if (line[:1] in SETUP_FIRST or self._setup.seen) and (taken := self._setup.take(line.rstrip())) is not None:
            word, nodeid, lines = taken  # --setup-show (setupshow.py)
            if word:
                self._counts.word(word, nodeid)
            return [Line(text, stream) for text in lines]
        self._ids.unsure = True
        return self._stray_line(line.rstrip(), stream)

    def _stray_line(self, line: str, stream: Stream) -> Iterable[Line]:
        """A line a test printed (-s): held until that test's result is known (printed.py)."""
        return [Line(text, stream) for text in self._printed.stray(line, self._counts)]

    def _printed_lines(self, stream: Stream) -> Iterable[Line]:
        char, self._counts.first_result = self._counts.first_result, ""
        if not char or not self._printed.total:
            return NOTHING
        return [Line(t, stream) for t in self._printed.result(char)]

    # -- FAILURES / ERRORS ------------------------------------------------------------------

    def _failures(self, line: str, stream: Stream) -> Iterable[Line]:
        block = self._block
        first = line[:1]
        if block is not None and first in INSIDE_BLOCK:  # the hot path: traceback lines
            if (not (block.quiet and first == " " and line[2:3] != "+")
                    or (block.seeking_def and "def " in line)):
                block.add(line)
            elif not block.elided and line.strip():
                block.elided = True  # source context: the recall store has it
            return NOTHING
        if first == "_" and (m := p.HEADER_RE.match(line)) is not None and not p.ENTRY_SEP_RE.match(line):
            out = self._close_block()
            self._blocks += 1
            caps = self._caps if self._blocks <= FULL_BLOCKS else self._caps.later()
            self._block = Block(m.group(1) or m.group(2) or "", caps)
            return out
        if first in "=!I0123456789n" and (special := self._special(line, stream)) is not None:
            return special
        if first == "-" and p.PLUGIN_RULE_RE.match(line) is not None:  # pytest-benchmark, pytest-cov
            out = self._close_block(last=True)
            self._handler = self._after
            return [*out, *self._after(line, stream)]
        if self._block is not None:
            self._block.add(line)
            return NOTHING
        return self._line_mode(line)

    def _close_block(self, last: bool = False) -> list[Line]:
        """End whatever is still pending: a failure block, a --tb=line group, grouped skips,
        a held INTERNALERROR frame; `last`: the section ends, and the run of repeats held with it."""
        block, self._block = self._block, None
        out = [Line(text, Stream.STDOUT) for text in self._lines.close()]
        self.elided = self.elided or self._lines.elided
        if self._collected is not None:
            out.extend(Line(text, Stream.STDOUT) for text in self._collected.flush())
        out.extend(Line(text, Stream.STDOUT) for text in self._internal.flush())
        self.elided = self.elided or self._internal.elided
        out.extend(Line(text, Stream.STDOUT) for text in self._skips.flush())
        if block is not None:
            self.failure_seen = True
            self._reporter.rootdir = self._warnings.rootdir
            out.extend(Line(text, Stream.STDOUT) for text in self._reporter.render(block))
            self.elided = self.elided or self._reporter.elided
        if last:
            out.extend(Line(text, Stream.STDOUT) for text in self._reporter.flush())
        return out

    def _line_mode(self, line: str) -> Iterable[Line]:
        """--tb=line (linemode.py): message lines are held, the crash line prints them."""
        if not self._lines.is_crash(line):
            self._lines.detail(line)
            return NOTHING
        self.failure_seen = True
        self._ids.crash_lines_shown = True
        out = self._lines.crash(line.rstrip())
        self.elided = self.elided or self._lines.elided
        return [Line(text, Stream.STDOUT) for text in out]

    # -- summary sections ---------------------------------------------------------------------

    def _warning_section(self, line: str, stream: Stream) -> Iterable[Line]:
        if line[:1] in "=!I" and (special := self._special(line, stream)) is not None:
            return special
        self._warnings.add(line.rstrip())
        if self._keep_all and line.strip():
            return (Line(line.rstrip(), stream),)
        if line.strip() and not line.startswith("-- Docs: "):
            self.elided = True
        return NOTHING

    def _short_summary(self, line: str, stream: Stream) -> Iterable[Line]:
        if line[:1] in "=!I0123456789n" and (special := self._special(line, stream)) is not None:
            return special
        m = p.SHORT_RE.match(line.rstrip())
        if m is None:  # a message's further lines (-vv, CI): they follow their FAILED line's fate
            return (Line(line.rstrip(), stream),) if line.strip() and self._short_keep else NOTHING
        word, params, rest = m.group(1), m.group(2) or "", m.group(3)
        self._short_keep = word not in ("PASSED", "FAILED", "ERROR")
        if word == "PASSED":
            self.elided = True  # -rA: the summary line says how many; the recall store names them
            return NOTHING
        if word in ("FAILED", "ERROR"):
            self.failure_seen = True
            self._reporter.named(rest.partition(" - ")[0] + params)
            text = self._ids.summary_line(line[:line.index(word)] + word, params, rest)
            self._short_keep = text is not None and text.endswith(rest)
            return (Line(text, stream),) if text is not None else NOTHING
        return [Line(text, stream) for text in self._skips.add(line.rstrip())]

    def _durations_section(self, line: str, stream: Stream) -> Iterable[Line]:
        """--durations=0 (with -vv, every one): the slowest come first, the rest are counted."""
        if line[:1] in "=!I0123456789n" and (special := self._special(line, stream)) is not None:
            return special
        if not line.strip():
            return NOTHING
        self._durations += 1
        if self._durations <= DURATIONS_SHOWN or not line[:1].isdigit():
            return (Line(line.rstrip(), stream),)
        self._dropped["durations, faster than those listed"] += 1
        return NOTHING

    def _drop_section(self, line: str, stream: Stream) -> Iterable[Line]:
        if line[:1] in "=!I0123456789n" and (special := self._special(line, stream)) is not None:
            return special
        if self._keep_all:
            return (Line(line.rstrip(), stream),)
        if line.strip():
            self._dropped[self._drop_what] += 1
        return NOTHING

    def _after(self, line: str, stream: Stream) -> Iterable[Line]:
        if (special := self._special(line, stream)) is not None:
            return special
        if not line.strip():
            return NOTHING
        self._passed_through += 1
        if line[:1] == "_" and (m := p.HEADER_RE.match(line.rstrip())) is not None:  # `___ coverage: ... ___`
            return (Line(m.group(1) or m.group(2) or "", stream),)
        text = line.rstrip()
        rule = text.strip("- ") if text.startswith("----------") and text.endswith("----------") else None
        if (started := self._plugins.start(text, rule, self.failure_seen)) is not None:
            self._handler = self._plugin_table
            return [Line(t, stream) for t in started]
        if rule is not None:  # another plugin's rule: its title
            return (Line(rule, stream),) if rule else NOTHING
        return (Line(text, stream),)

    def _plugin_table(self, line: str, stream: Stream) -> Iterable[Line]:
        """pytest-cov's and pytest-benchmark's tables (plugins.py), until a line not theirs."""
        if line[:1] in "=!I0123456789n" and (special := self._special(line, stream)) is not None:
            return [*(Line(t, stream) for t in self._plugins.flush()), *special]
        lines = self._plugins.add(line)
        self.elided = self.elided or self._plugins.elided
        if lines is None:
            self._handler = self._after
            return [*(Line(t, stream) for t in self._plugins.flush()), *self._after(line, stream)]
        if self._plugins.done:
            self._handler = self._after
        return [Line(t, stream) for t in lines]

    # -- the end ----------------------------------------------------------------------------

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._close_block(last=True) + [Line(text, Stream.STDOUT) for text in self._reporter.leftovers()]
        if exit_code == 5:
            self.failure_seen = True  # the one line says why pytest exited 5
            return [*out, Line(no_tests_line(self._stats), Stream.STDOUT)]
        out.extend(Line(text, Stream.STDOUT) for text in self._ids.unreported())
        out.extend(Line(text, Stream.STDOUT) for text in self._markers())
        summary = summary_line(self._stats, self._counts.all_chars())
        if summary:
            out.append(Line(summary, Stream.STDOUT))
        warnings = self._warnings.line(split_stats(self._stats[0])[1] if self._stats else None)
        if warnings:
            out.append(Line(warnings, Stream.STDOUT))
            messages, cut = self._warnings.message_lines()
            out.extend(Line(text, Stream.STDOUT) for text in messages)
            self.elided = self.elided or cut
        if exit_code in (2, 3, 4) and self._passed_through:
            self.failure_seen = True
        return out

    def _markers(self) -> list[str]:
        out = []
        self._printed.end()
        self._stray += self._printed.dropped
        if setup := self._setup.end():
            self._dropped["fixture setup and teardown of passing tests (--setup-show)"] += setup
        self.elided = self.elided or self._printed.cut
        if self._stray:
            self.elided = True
            out.append(elision_marker(self._stray, "lines", "printed by tests during the run"))
        for what, count in self._dropped.items():
            self.elided = True
            out.append(elision_marker(count, "lines", what))
        return out

    def progress(self) -> Mapping[str, int]:
        return self._counts.live()


def create(ctx: FilterContext) -> PytestFilter:
    return PytestFilter(ctx)

