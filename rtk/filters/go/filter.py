"""go's plain output read line by line: tests, packages, panics, diagnostics."""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, elision_marker, strip_ansi
from rtk.filters.go import lines as gl
from rtk.filters.go.diagnostics import Runs
from rtk.filters.go.panics import EmbeddedTrace, Trace
from rtk.filters.go.race import RaceReport

FAILURE_LINES = 50  # output lines kept per failing test; its `x_test.go:N:` lines are always kept
_NOTHING: tuple[Line, ...] = ()


class GoFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._held: dict[str, list[str]] = {}
        self._held_over: dict[str, int] = {}
        self._test: str | None = None  # the test -v output belongs to
        self._trace: Trace | None = None
        self._embedded = EmbeddedTrace()  # testify's `Panic stack:` inside a failure message
        self._race = RaceReport()  # -race's DATA RACE reports (race.py)
        self._runs = Runs()
        self._packages = {"ok": 0, "FAIL": 0, "no tests": 0}
        self._tests = {"passed": 0, "failed": 0, "skipped": 0}
        self._shown = 0  # output lines printed since the last `--- FAIL`
        self._cut = 0  # and the ones left out past FAILURE_LINES
        self._in_failure = False  # the lines read belong to a `--- FAIL` block (no -v)
        self._stream = Stream.STDOUT
        self._whole = False  # the line being read is kept whatever FAILURE_LINES says

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        self._stream = stream
        if (kept := self._race.feed(text)) is not None:
            self.failure_seen = self.failure_seen or text == "WARNING: DATA RACE"
            race = [shown for k in kept for shown in self._line(k, whole=True)]
            return [Line(t, stream) for t in race] if race else _NOTHING
        out = self._trace_line(text) if self._trace is not None else None
        if out is None:
            out = self._embedded.feed(text)
        if out is None:
            out = self._line(text)
        return [Line(t, stream) for t in out] if out else _NOTHING

    def _trace_line(self, text: str) -> list[str] | None:
        assert self._trace is not None
        if (kept := self._trace.feed(text)) is not None:
            return kept
        if gl.GOROUTINE.match(text) or text.startswith(("[signal", "\tpanic: ")) or not text:
            return [text] if text else []
        out = self._trace.end()
        self.elided = self.elided or self._trace.left_out
        self._trace = None
        if text.startswith("exit status"):
            return out + [text]
        return out + (self._line(text) or [])

    def _line(self, text: str, whole: bool = False) -> list[str]:
        """`whole`: a line of a race report (already reduced), never cut by FAILURE_LINES."""
        self._whole = whole
        diag = self._runs.add(text)
        if diag is not None:
            self.failure_seen = True
            return diag
        out = self._runs.flush()
        return out + self._other(text)

    def _other(self, text: str) -> list[str]:
        if gl.EVENT.match(text) or gl.RESULT.match(text) or gl.PANIC.match(text) or self._package_line(text):
            return self._cut_marker() + self._event(text)
        return self._event(text)

    @staticmethod
    def _package_line(text: str) -> bool:
        return bool(gl.PKG_OK.match(text) or gl.PKG_FAIL.match(text) or gl.PKG_NO_TESTS.match(text))

    def _event(self, text: str) -> list[str]:
        if (event := gl.EVENT.match(text)) is not None:
            self._test = event["test"]
            return []
        if (result := gl.RESULT.match(text)) is not None:
            return self._result(text, result["kind"], result["test"])
        if (pkg := self._package(text)) is not None:
            return pkg
        if text in gl.LONE or not text or gl.DOWNLOADING.match(text):
            return []
        if gl.BENCHMARK.match(text):
            return [text]
        if gl.PANIC.match(text):
            self._trace = Trace()
            self.failure_seen = True
            return self._release(self._test) + [text]
        if gl.SECTION.match(text):
            self.failure_seen = True
            return [text]
        if self._test is not None:
            self._hold(self._test, text)
            return []
        return [text] if self._show(text) else []

    def _show(self, text: str) -> bool:
        if not self._in_failure or self._shown < FAILURE_LINES or self._whole or gl.TEST_LOCATION.match(text):
            self._shown += 1
            return True
        self._cut += 1
        self.elided = True
        return False

    def _cut_marker(self) -> list[str]:
        cut, self._cut, self._shown, self._in_failure = self._cut, 0, 0, False
        return [elision_marker(cut, "output lines of this test")] if cut else []

    def _result(self, text: str, kind: str, test: str) -> list[str]:
        if kind == "FAIL":
            self._tests["failed"] += 1
            self.failure_seen = True
            self._test = None
            self._in_failure = True
            return [text] + self._release(test)
        self._tests["passed" if kind == "PASS" else "skipped"] += 1
        self._held.pop(test, None)
        self._held_over.pop(test, None)
        self._test = None
        return []

    def _package(self, text: str) -> list[str] | None:
        if gl.PKG_OK.match(text) is not None:
            self._packages["ok"] += 1
            return [*self._end_package(), text]  # `ok  pkg 0.01s`: which package passed, how long it took
        if gl.PKG_NO_TESTS.match(text):
            self._packages["no tests"] += 1
            return []
        if gl.PKG_FAIL.match(text):
            self._packages["FAIL"] += 1
            self.failure_seen = True
            return self._end_package(keep_held=True) + [text]
        return None

    def _end_package(self, keep_held: bool = False) -> list[str]:
        out = [t for test in list(self._held) for t in self._release(test)] if keep_held else []
        self._held.clear()
        self._held_over.clear()
        self._test = None
        return out

    def _hold(self, test: str, text: str) -> None:
        held = self._held.setdefault(test, [])
        if len(held) < FAILURE_LINES or self._whole or gl.TEST_LOCATION.match(text):
            held.append(text)
        else:
            self._held_over[test] = self._held_over.get(test, 0) + 1

    def _release(self, test: str | None) -> list[str]:
        if test is None:
            return []
        out = self._held.pop(test, [])
        if over := self._held_over.pop(test, 0):
            self.elided = True
            out.append(elision_marker(over, "output lines of this test"))
        return out

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = [shown for k in self._race.end() for shown in self._line(k)]
        out += (self._trace.end() if self._trace else []) + self._runs.flush() + self._cut_marker()
        self.elided = (self.elided or self._race.left_out or self._embedded.left_out
                       or (self._trace is not None and self._trace.left_out))
        out += [t for test in list(self._held) for t in self._release(test)] if exit_code else []
        if summary := self._summary():
            out.append(summary)
        return [Line(t, self._stream) for t in out]

    def progress(self) -> Mapping[str, int]:
        counts = {"ok": self._packages["ok"], "FAIL": self._packages["FAIL"]}
        counts.update((k, n) for k, n in self._tests.items() if n)
        return counts

    def _summary(self) -> str:
        """The counts over the packages; nothing when the `ok` lines printed already say it all."""
        pk, tests = self._packages, self._tests
        if not any(pk.values()) or not (pk["FAIL"] or pk["no tests"] or any(tests.values())):
            return ""
        parts = [f"{pk['ok']} ok", f"{pk['FAIL']} FAIL"]
        if pk["no tests"]:
            parts.append(f"{pk['no tests']} without tests")
        counted = ", ".join(f"{n:,} {k}" for k, n in tests.items() if n)
        return f"go test: {sum(pk.values())} packages: {', '.join(parts)}" + (f" (tests: {counted})" if counted else "")
