"""tsc (the TypeScript compiler), run directly or through npx/pnpm/yarn/bunx or a `typecheck` script.

Keeps: every diagnostic with its file, line AND column, code and whole message (the indented
message chain and `--pretty`'s related locations included), grouped under one line per file and
printed as soon as the errors move on to another file (tsc sorts them by file); diagnostics
without a file (`error TS5023: ...`);
`--build` messages other than progress (`Building project '...'` is kept when that project has
diagnostics, before the first of them); one summary per compile, `tsc: 7 errors in 3 files
(TS2322 x3, ...)` or `tsc: no errors`, printed when a `--watch` cycle ends or at exit. From a `--watch` cycle's second compile on, a
diagnostic the compile before printed too is named only (`unchanged since the last compile:
src/a.ts:3:5 TS2322, ...`): its text is in the cycle above.
Drops (noise): `--pretty` code frames, blank separators, tsc's own `Found N errors` line and the
per-file table after it, watch/build timestamps and progress lines, the package manager's script
banner and failure footer when the output turned out to be tsc's, a continuation line
that repeats the line above it word for word. A message repeated verbatim is
printed once and referred to afterwards (see tsc_report). When tsc finds no project it prints its
help: the first section is kept, the rest elided with a marker. Anything else, e.g. what another
tool in the same script printed, passes through unchanged (ANSI removed).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, elision_marker
from rtk.filters.tsc import lines as tl
from rtk.filters.tsc.report import Diagnostic, Report, identity

HELP_FLAGS = frozenset({"--help", "-h", "-?", "--all"})
_NOTHING: tuple[Line, ...] = ()


class TscFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._report = Report()
        self._diag: Diagnostic | None = None
        self._pending: list[Line] = []
        self._banner_open = False
        self._banner_cmd: str | None = None
        self._seen_tsc = False
        self._passed_through = False
        self._watching = False
        self._in_table = False
        self._in_build_list = False
        self._help: str | None = None  # None, "keep" (first section) or "drop" (the rest)
        self._help_dropped = 0
        self._help_sections: list[str] = []
        self._errors = 0
        self._building = ""  # the `--build --verbose` project being built, until its first diagnostic
        # `--watch`: the diagnostics of the last compile and of this one; this one's already printed before
        self._last_compile: set[tuple[str, ...]] = set()
        self._this_compile: set[tuple[str, ...]] = set()
        self._unchanged: list[str] = []

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = tl.clean(line)
        if self._help is not None:
            return self._feed_help(text, stream)
        if (head := tl.header(text)) is not None:
            out = self._close_diag()
            out.extend(self._report.next_file(head.file))
            if self._building:
                out.append(Line(self._building, stream))
                self._building = ""
            self._mark_tsc()
            self._diag = Diagnostic(head, stream)
            return out
        if self._diag is not None:
            if self._absorb(line, text):
                return _NOTHING
            out = self._close_diag()
            out.extend(self._other(text, stream))
            return out
        return self._other(text, stream)

    def _absorb(self, raw: str, text: str) -> bool:
        """Whether the line belongs to the diagnostic being read (and is kept in it or dropped)."""
        diag = self._diag
        assert diag is not None
        if not text:
            diag.framed = True
            return True
        if not diag.framed:
            if text.startswith(" "):
                previous = diag.chain[-1] if diag.chain else diag.head.message
                if text.strip() != previous.strip():  # tsc sometimes repeats the line above
                    diag.chain.append(text)
                return True
            return False
        if diag.head.file is not None and tl.is_frame(raw, text):
            return True
        if diag.head.file is not None and (related := tl.related_location(text)) is not None:
            loc, message = related
            diag.related.append((loc, [message] if message else []))
            return True
        if text.startswith("    ") and diag.related:
            diag.add_related_message(text)
            return True
        return False

    def _close_diag(self) -> list[Line]:
        diag, self._diag = self._diag, None
        if diag is None:
            return []
        if diag.head.category == "error":
            self._errors += 1
            self.failure_seen = True
        if self._watching:
            key = identity(diag)
            self._this_compile.add(key)
            if key in self._last_compile:
                self._report.count(diag)
                self._unchanged.append(f"{diag.head.file or ''}:{diag.head.pos} {diag.head.code}".lstrip(":"))
                return []
        return self._report.add(diag)

    def _mark_tsc(self) -> None:
        """The output is tsc's: held blanks and the script banner were noise."""
        self._seen_tsc = True
        self._pending.clear()
        self._banner_open = False

    def _other(self, text: str, stream: Stream) -> list[Line]:
        if not text:
            if not (self._in_table or self._in_build_list):
                self._pending.append(Line(text, stream))
            return []
        if (count := tl.summary_count(text)) is not None:
            self._mark_tsc()
            self._report.reported = count
            self._in_table = True
            return self._report.flush()
        if (message := tl.status_message(text)) is not None and (self._seen_tsc or tl.is_known_status(message)):
            self._mark_tsc()
            return self._status(message, stream)
        return self._not_diagnostic(text, stream)

    def _not_diagnostic(self, text: str, stream: Stream) -> list[Line]:
        if self._in_table and tl.is_table_line(text):
            return []
        if self._in_build_list and tl.is_build_list_item(text):
            return []
        self._in_table = self._in_build_list = False
        if tl.is_banner_head(text):
            return self._hold_banner(text, stream, None)
        if self._banner_open and (cmd := tl.banner_command(text)) is not None:
            return self._hold_banner(text, stream, cmd)
        self._banner_open = False
        if self._seen_tsc and (tl.is_pm_footer(text) or tl.is_spinner(text)):
            return []
        if tl.is_help_title(text) and not self._seen_tsc:
            self._help = "keep"
        return self._pass_through(text, stream)

    def _hold_banner(self, text: str, stream: Stream, command: str | None) -> list[Line]:
        """A package manager's `> pkg@1.0 typecheck` banner: noise if tsc's output follows."""
        self._banner_open = True
        self._banner_cmd = command or self._banner_cmd
        self._pending.append(Line(text, stream))
        return []

    def _pass_through(self, text: str, stream: Stream) -> list[Line]:
        self._passed_through = True
        out = self._report.flush()
        out.extend(self._pending)
        self._pending = []
        out.append(Line(text, stream))
        return out

    def _status(self, message: str, stream: Stream) -> list[Line]:
        """A timestamped `--watch` / `--build` status line."""
        if (count := tl.summary_count(message)) is not None:
            self._watching = "Watching" in message or self._watching
            self._report.reported = count
            # tsc's own closing words, verbatim but for the clock: `Found 2 errors. Watching for file changes.`
            tail = f"; {message.strip()}" if "Watching" in message else ""
            return self._end_cycle(tail, stream)
        if tl.is_cycle_start(message):
            self._watching = True
            return self._end_cycle("", stream) if not self._report.empty else []
        if message.startswith("Building project "):
            self._building = message  # said only if the project has diagnostics: whose they are
            return self._report.new_section()
        if tl.is_build_progress(message):
            self._in_build_list = message.startswith("Projects in this build")
            return []
        return [*self._report.flush(), Line(message, stream)]

    def _end_cycle(self, tail: str, stream: Stream) -> list[Line]:
        """One `--watch` compile is over: the diagnostics the last one printed are named, not repeated."""
        report, self._report = self._report, Report()
        unchanged, self._unchanged = self._unchanged, []
        self._last_compile, self._this_compile = self._this_compile, set()
        same = [Line(f"unchanged since the last compile: {', '.join(unchanged)}", stream)] if unchanged else []
        return [*report.flush(), *same, Line(report.summary(tail), stream)]

    def _feed_help(self, text: str, stream: Stream) -> Iterable[Line]:
        """tsc printed its help: keep its first section (usage), elide the option reference."""
        if set(self.ctx.argv) & HELP_FLAGS:
            return (Line(text, stream),)
        if self._help == "keep" and text.isupper() and text != "COMMON COMMANDS":
            self._help = "drop"
        if self._help == "drop":
            if text.isupper():
                self._help_sections.append(text)
            self._help_dropped += bool(text)
            return _NOTHING
        return (Line(text, stream),) if text else _NOTHING

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._close_diag()
        if self._help is not None:
            return out + self._finish_help(exit_code)
        if not self._seen_tsc:
            return out + self._finish_unrecognised(exit_code)
        self._pending.clear()
        out.extend(self._report.flush())
        if not self._watching or not self._report.empty:
            out.append(Line(self._report.summary()))
        elif exit_code != 0:
            out.append(Line(f"tsc: watch stopped (exit {exit_code})"))
            self.failure_seen = True
        return out

    def _finish_unrecognised(self, exit_code: int) -> list[Line]:
        script_is_tsc = self._banner_cmd is None or tl.runs_only_tsc(self._banner_cmd)
        if exit_code == 0 and not self._passed_through and script_is_tsc:
            return [Line("tsc: no errors")]
        out, self._pending = self._pending, []
        return out

    def _finish_help(self, exit_code: int) -> list[Line]:
        out: list[Line] = []
        if self._help_dropped:
            self.elided = True
            out.append(Line(elision_marker(
                self._help_dropped, "lines of tsc's help text", ", ".join(self._help_sections))))
        if exit_code != 0:
            self.failure_seen = True
            out.append(Line("tsc: no tsconfig.json found and no input files given, so tsc printed "
                            f"its help instead of compiling (exit {exit_code})"))
        return out

    def progress(self) -> Mapping[str, int]:
        return {"errors": self._errors}


def create(ctx: FilterContext) -> TscFilter:
    return TscFilter(ctx)
