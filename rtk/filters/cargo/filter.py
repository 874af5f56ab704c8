"""cargo build|check|clippy|test|run|nextest run: diagnostics, failing tests and one summary.

Kept: every rustc/clippy diagnostic (code, message, locations, labels, help and notes; the code
frame shortened to one `line:col` line per label and a suggestion's new code), repeated lints
folded into one line per message with every place (`places.py`; `--message-format short` in
`short.py`), cargo's own errors (`could not compile`, `test failed, to rerun pass ...`), each
failing test's `---- name stdout ----` block with its backtrace cut to the user's frames (a panic
already shown, in this binary or an earlier one, named instead: `panics.py`), the failing test
names, what tests printed (`--nocapture`, `--show-output`), and any line this filter does not
know. `cargo run`: everything after `Running `prog`` is the program's own output and passes
through untouched, but for a panic's backtrace, cut like a test's.
Dropped (noise): status lines (`Compiling`, `Checking`, `Finished`, `Running`, `Doc-tests`, ...),
`running N tests`, `test x ... ok`, `test result:` lines (summed into one summary), the names of
passing tests, blank lines, rustc's `For more information ...` trailers, ANSI codes; a passing
doc-test run's `compile_fail` errors become one line (`doctests.py`).
Each kept line stays on the stream cargo wrote it to; a diagnostic is printed when its block ends.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, elision_marker, strip_ansi
from rtk.filters.cargo import lines as L
from rtk.filters.cargo.diagnostic import MAX_BLOCK_LINES, Diagnostic, Grouper, RepeatedErrors
from rtk.filters.cargo.doctests import DocTestErrors
from rtk.filters.cargo.panics import PanicBlocks
from rtk.filters.cargo.short import SHORT_RE, ShortLines
from rtk.filters.cargo.testrun import BLOCK_NOISE, RESULT_RE, Backtrace, Tally, compact_panic

MAIN, BLOCK, FAILURES, LIST, PROGRAM, SUCCESSES = "main", "block", "failures", "list", "program", "successes"


class CargoFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self.sub = L.subcommand(self.ctx.argv)
        self.quiet_run = self.sub == "run" and L.is_quiet(self.ctx.argv)
        self.mode = MAIN
        self.tally = Tally()
        self.grouper = Grouper(fold_first=self.sub == "test")
        self.panics = PanicBlocks()
        self.doc_errors = DocTestErrors()
        self.short = ShortLines()
        self.repeated = RepeatedErrors()
        self.generated: list[Line] = []
        self.hold = self.sub == "test"
        self.diag: Diagnostic | None = None
        self.diag_stream = Stream.STDERR
        self.backtrace: Backtrace | None = None
        self.names: list[str] = []
        self.test_name = ""
        self.suite_named = False  # a `Running x` line named the test binary now running
        self.passing_names = False  # in `successes:`, the list of passing tests after their output
        self.crates = 0
        self.warnings = 0
        self.errors = 0
        self.elapsed = ""
        self.finished = False
        # Without a recall store nothing may be elided: code frames and backtraces stay whole.
        self.full = not self.ctx.recall_enabled
        self.build_stream = Stream.STDERR
        self.test_stream = Stream.STDOUT

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if self.mode == PROGRAM:
            return self._program(line, stream)
        text = strip_ansi(line).rstrip()
        out: list[Line] = []
        if self.diag is not None:
            if self._continues_diagnostic(text):
                self.diag.lines.append(text)
                if len(self.diag.lines) >= MAX_BLOCK_LINES:
                    out.extend(self._end_diagnostic())
                return out
            out.extend(self._end_diagnostic())
        if self.quiet_run and self.mode == MAIN and self._starts_program(text):
            self.mode = PROGRAM
            return [*out, *self._program(line, stream)]
        out.extend(self._route(text, stream))
        return out

    def _starts_program(self, text: str) -> bool:
        """`cargo run -q` prints no `Running` line: the program's output starts with the first
        line that is not cargo's or rustc's (a status, a diagnostic, a per-target count)."""
        return bool(text) and L.status(text) is None and Diagnostic.start(text) is None \
            and not L.GENERATED_RE.match(text) and not L.CARGO_FAILURE_RE.match(text) \
            and SHORT_RE.match(text) is None and not text.startswith(L.CARGO_NOISE)

    def _program(self, line: str, stream: Stream) -> list[Line]:
        """`cargo run`: the program's own output, untouched but for a panic's backtrace, cut to
        the user's frames as in a failing test."""
        text = strip_ansi(line).rstrip()
        out: list[Line] = []
        if self.backtrace is not None:
            frames = self.backtrace.feed(text)
            if frames is not None:
                return [Line(frame, stream) for frame in frames]
            out = self._end_backtrace(stream)
            if text in BLOCK_NOISE:
                return out
        if text == "stack backtrace:" and not self.full:
            self.backtrace, self.test_stream = Backtrace(), stream  # finish() ends it there
        return [*out, Line(line, stream)]

    def _continues_diagnostic(self, text: str) -> bool:
        return bool(text) and Diagnostic.start(text) is None and L.status(text) is None \
            and not text.startswith(L.CARGO_NOISE)

    def _route(self, text: str, stream: Stream) -> list[Line]:
        if self.mode == BLOCK:
            return self._in_block(text, stream)
        if self.mode == FAILURES:
            return self._after_failures_header(text, stream)
        if self.mode == LIST:
            return self._in_list(text, stream)
        if self.mode == SUCCESSES:
            return self._in_successes(text, stream)
        return self._main(text, stream)

    def _in_successes(self, text: str, stream: Stream) -> list[Line]:
        """`-- --show-output`: what the passing tests printed, under their `---- name stdout ----`
        headers, kept as the user asked; then the names of the passing tests, dropped (the
        summary counts them)."""
        if text == "successes:":
            self.passing_names = True
            return []
        if text == "failures:" or RESULT_RE.match(text):
            self.mode, self.passing_names = MAIN, False
            return self._main(text, stream)
        if not text or text in BLOCK_NOISE or (self.passing_names and text.startswith("    ")):
            return []
        self.passing_names = False
        return [Line(L.PANIC_THREAD_ID_RE.sub(r"\1 panicked at ", text), stream)]

    def _main(self, text: str, stream: Stream) -> list[Line]:
        if not text:
            return []
        if (word := L.status(text)) is not None:
            return self._status(word[0], word[1], stream)
        return self._test_line(text, stream) if self._is_test_line(text) else self._build_line(text, stream)

    def _status(self, word: str, rest: str, stream: Stream) -> list[Line]:
        if word in L.COMPILED_WORDS:
            self.crates += 1
        elif word == "Finished":
            self.finished = True
            self.build_stream = stream
            match = L.FINISHED_TIME_RE.search(rest)
            self.elapsed = match.group(1) if match else ""
        elif word == "Doc-tests" or (word == "Running" and not L.PROGRAM_RE.match(rest)):
            self.tally.suites += 1
            self.doc_errors.running = word == "Doc-tests"
            self.panics.suite, self.suite_named = L.suite_name(word, rest), True
        elif word == "Running":
            return [*self._flush(stream), *self._running_program(f"Running {rest}", stream)]
        return self._flush(stream) if word in ("Finished", "Running") else []

    def _running_program(self, text: str, stream: Stream) -> list[Line]:
        """`Running `...``: rustc or a build script under -v before `Finished`, then the program
        (its line is kept: it names the binary the output below comes from)."""
        if not self.finished:
            return []
        if self.sub == "run":
            self.mode = PROGRAM
            return [Line(text.strip(), stream)]
        self.tally.suites += 1  # a test binary under `cargo test -v`
        self.panics.suite, self.suite_named = L.suite_name("Running", text[len("Running "):]), True
        return []

    def _is_test_line(self, text: str) -> bool:
        return text in ("failures:", "successes:") or text.startswith(("test ", "---- ")) or L.is_noise(text) \
            or bool(L.NEXTEST_FAIL_RE.match(text))

    def _test_line(self, text: str, stream: Stream) -> list[Line]:
        if text == "failures:":
            self.mode = FAILURES
            return []
        if text == "successes:":
            self.mode = SUCCESSES
            return []
        if L.BLOCK_HEADER_RE.match(text):
            return self._open_block(text, stream)
        if L.RUNNING_TESTS_RE.match(text) and not self.suite_named:  # `cargo -q test`: no `Running`
            self.panics.suite = f"test binary {self.tally.results + 1}"
        if self.tally.add(text):
            self.suite_named = False
            self.test_stream = stream
            self.failure_seen |= self.tally.failed > 0
            held, folded = self.doc_errors.result(text.startswith("test result: ok."))
            self.elided |= folded
            return [Line(note, stream) for note in held + self.panics.notes()]
        if text.endswith(("... FAILED", " --- FAILED")) or L.NEXTEST_FAIL_RE.match(text):
            self.failure_seen = True
        return [] if L.is_noise(text) else [Line(text, stream)]

    def _build_line(self, text: str, stream: Stream) -> list[Line]:
        if L.GENERATED_RE.match(text):  # cargo's own count per target, and its `cargo fix` hint
            self.generated.append(Line(text, stream))
            return self._flush(stream)
        if L.CARGO_FAILURE_RE.match(text):
            self.failure_seen = True
            rerun = L.RERUN_RE.search(text)
            if rerun and self.panics.suite.startswith("test binary "):
                self.panics.rename_suite(f"`{rerun.group(1)}`")
            return [*self._flush(stream), Line(text, stream)]
        if text.startswith(L.CARGO_NOISE) or self.doc_errors.hold_line(text):
            return []
        short = self.short.feed(text)  # `--message-format short`
        if short is not None:
            self.failure_seen |= self.short.errors > 0
            self.elided |= self.short.folded
            return [Line(line, stream) for line in short]
        diag = Diagnostic.start(text)
        if diag is None:
            return [Line(L.PANIC_THREAD_ID_RE.sub(r"\1 panicked at ", text), stream)]
        self._count(diag)
        self.diag, self.diag_stream = diag, stream
        return []

    def _count(self, diag: Diagnostic) -> None:
        if diag.level == "error":
            self.errors += 1
            # a doc-test run's errors may be its `compile_fail` examples: its result will tell
            self.failure_seen |= not self.doc_errors.running

    def _end_diagnostic(self) -> list[Line]:
        diag, self.diag = self.diag, None
        if diag is None:
            return []
        if diag.level == "warning" and not self.grouper.is_repeat(diag):
            self.warnings += 1
        if self.grouper.absorb(diag):
            self.elided = True
            return []
        kept, dropped_code = diag.render(keep_code=self.full)
        self.elided |= dropped_code
        if self.mode != MAIN:  # a doc-test's compile error, inside its failing test's block
            return [Line(text, self.diag_stream) for text in kept]
        if self.doc_errors.running:
            kept = self.doc_errors.hold(diag, kept)
        elif not self.full and self.repeated.absorb(diag, kept):
            self.elided = True
            return []
        return [Line(text, self.diag_stream) for text in kept]

    def _flush(self, stream: Stream) -> list[Line]:
        """Repeated lints (and cargo's per-target counts) so far. A `cargo test` that has not
        failed holds them: if it passes they become one line per lint at the end."""
        if self.hold and not self.failure_seen:
            return []
        generated, self.generated = self.generated, []
        folded = [*self.grouper.flush(), *self.repeated.flush(), *self.short.flush()]
        return [*(Line(text, stream) for text in folded), *generated]

    def _open_block(self, text: str, stream: Stream) -> list[Line]:
        match = L.BLOCK_HEADER_RE.match(text)
        self.test_name = match.group(1) if match else ""
        self.mode = BLOCK
        self.failure_seen = True
        self.panics.open(text, self.test_name)
        return []

    def _in_block(self, text: str, stream: Stream) -> list[Line]:
        out: list[Line] = []
        if self.backtrace is not None:
            frames = self.backtrace.feed(text)
            if frames is not None:
                return self._hold([Line(frame, stream) for frame in frames], stream)
            out.extend(self._end_backtrace(stream))
        if text == "failures:" or L.BLOCK_HEADER_RE.match(text) or RESULT_RE.match(text):
            self.mode = MAIN
            # after the last block: its binary's notes follow the list of failures, else now
            closed = self._close_block(out, stream, notes=RESULT_RE.match(text) is not None)
            return closed + self._main(text, stream)
        if text == "stack backtrace:":
            self.backtrace = Backtrace(keep_all=self.full)
        elif (diag := Diagnostic.start(text)) is not None:  # a doc-test that did not compile
            self.diag, self.diag_stream = diag, stream
            return [Line(t, stream) for t in self.panics.add([line.text for line in out], release=True)]
        if text and text not in BLOCK_NOISE and not text.startswith(L.CARGO_NOISE):
            out.append(Line(compact_panic(text, self.test_name), stream))
        return self._hold(out, stream)

    def _hold(self, lines: list[Line], stream: Stream) -> list[Line]:
        return [Line(text, stream) for text in self.panics.add([line.text for line in lines])]

    def _close_block(self, lines: list[Line], stream: Stream, notes: bool) -> list[Line]:
        texts = self.panics.add([line.text for line in lines]) + self.panics.close()
        if notes:
            texts += self.panics.notes()
        self.elided |= self.panics.elided
        return [Line(text, stream) for text in texts]

    def _end_backtrace(self, stream: Stream) -> list[Line]:
        backtrace, self.backtrace = self.backtrace, None
        if backtrace is None:
            return []
        out = [Line(frame, stream) for frame in backtrace.close_frame()]
        if backtrace.omitted:
            self.elided = True
            outside = "std, core, dependencies" if self.mode == PROGRAM else "std, core, test harness"
            out.append(Line("   " + elision_marker(backtrace.omitted, "backtrace frames", outside), stream))
        return out

    def _after_failures_header(self, text: str, stream: Stream) -> list[Line]:
        if not text:
            return []
        if text.startswith("    "):
            self.mode = LIST
            return self._in_list(text, stream)
        self.mode = MAIN
        return self._main(text, stream)

    def _in_list(self, text: str, stream: Stream) -> list[Line]:
        if text.startswith("    "):
            self.names.append(text.strip())
            return []
        self.mode = MAIN
        return self._end_list(stream) + self._main(text, stream)

    def _end_list(self, stream: Stream) -> list[Line]:
        names, self.names = self.names, []
        mirror = self.panics.mirrored_suite(names) if names else None
        if mirror is not None:
            return [Line(f"failures: the same {len(names)} tests as in {mirror}, with the same panics", stream)]
        listed = [Line("failures: " + ", ".join(names), stream)] if names else []
        return listed + [Line(note, stream) for note in self.panics.notes(names)]

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._end_diagnostic()
        out.extend(Line(text, self.build_stream) for text in self.doc_errors.result(passed=False)[0])
        out.extend(self._close_block(self._end_backtrace(self.test_stream), self.test_stream, notes=True))
        out.extend(self._end_list(self.test_stream))
        if self.hold and not self.failure_seen and exit_code == 0:
            out.extend(Line(text, self.build_stream) for text in [*self.grouper.per_lint(), *self.short.flush()])
            self.elided |= bool(self.generated)
        else:
            self.hold = False
            out.extend(self._flush(self.build_stream))
        if self.mode == PROGRAM:
            self.failure_seen |= exit_code != 0
        elif self.tally.results:
            out.append(Line(self.tally.summary(self.warnings + self.short.warnings), self.test_stream))
        elif exit_code == 0 and self.sub != "nextest":
            out.append(Line(self._build_summary(), self.build_stream))
        return out

    def _build_summary(self) -> str:
        warnings = self.warnings + self.short.warnings
        parts = [f"{self.crates} crate" + ("" if self.crates == 1 else "s"),
                 f"{warnings} warning" + ("" if warnings == 1 else "s")]
        if self.elapsed:
            parts.append(self.elapsed)
        return f"cargo {self.sub or 'build'}: ok ({', '.join(parts)})"

    def progress(self) -> Mapping[str, int]:
        return {"crates": self.crates, "warnings": self.warnings + self.short.warnings,
                "errors": self.errors + self.short.errors,
                "passed": self.tally.passed, "failed": self.tally.failed}


def create(ctx: FilterContext) -> CargoFilter:
    return CargoFilter(ctx)
