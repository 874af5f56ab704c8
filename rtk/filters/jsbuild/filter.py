"""JS builds: next build, vite build, tsup, unbuild, rollup, webpack.

Kept: every warning and error in full (message, location, code frame, import trace), with stack
frames inside node_modules and node:internal dropped and an error line repeated verbatim printed
once; the bundler's own result line (`✓ built in 288ms`, `created dist in 100ms`, `webpack 5.113.0
compiled with 37 errors and 1 warning in 807 ms`, `⚡️ Build success in 23ms`); next's route list;
and the size table reduced to one line with the success lines: `✓ built in 288ms · output: 6
files, 252.50 kB total; largest: ...`.
Dropped (noise): progress and phase lines (`transforming...`, `rendering chunks...`, `CLI Target:
esnext`, `ℹ Building pathe`, `Collecting page data ...`), webpack's module tree, blank runs.
Anything not recognised passes through.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.jsbuild.sizes import SizeTable
from rtk.filters.node.frames import frame_location, is_foreign

_NOISE_PATTERNS = (
    r"^vite v[\d.]+\S* building\b", r"^transforming\.\.\.", r"^✓ \d+ modules transformed\.",
    r"^rendering chunks\.\.\.", r"^computing gzip size\.\.\.", r"^\[plugin builtin:vite-reporter\]\s*$",
    r"^CLI (?:Building entry|Using tsconfig|tsup v|Target|Cleaning output|Running in watch)",
    r"^(?:ESM|CJS|IIFE|DTS|UMD) Build start$", r"^DTS ⚡️ Build success", r"^ℹ ",
    r"^\s*Creating an optimized production build", r"^✓ Running next\.config",
    r"^\s*Running TypeScript", r"^\s*Finished TypeScript", r"^\s*Collecting page data",
    r"^\s*(?:✓ )?Generating static pages", r"^info  - Need to disable some ESLint rules", r"^\s*Finalizing page optimization", r"^\s*Collecting build traces",
    r"^\s*Linting and checking validity of types", r"^✓ (?:Linting|Checking validity|Collecting)",
    r"^(?:orphan|cacheable|runtime) modules ", r"^\s+modules (?:by|with) ", r"^\s+\+ \d+ modules",
    r"^\s*\S+ [\d.]+ (?:KiB|MiB|bytes) \[(?:built|cached|orphan)\]", r"^\s*\S.* \[built\] \[code generated\]",
    r"^assets by (?:status|path|chunk) ", r"^\S.*(?:→|->) \S.*\.\.\.\s*$",
)
NOISE = re.compile("|".join(_NOISE_PATTERNS))
FAILED = re.compile(r"(?:\berror\b|ERROR|✘|✗|\[!\]|Build failed|Failed to)", re.IGNORECASE)
SUCCESS = re.compile(r"^\s*(?:✓ built in |created \S.* in |webpack [\d.]+ compiled successfully|"
                     r"(?:ESM|CJS|IIFE|UMD|DTS) ⚡️ Build success in |✔ Build succeeded for |✓ Compiled successfully)")
MAX_RESULTS = 20
IMPORT_TRACE = re.compile(r"^ @ \S")  # webpack: the importer chain; the first one is kept
REPEATABLE = re.compile(r"^\s*(?:ERROR|Error|error)\b")
_NOTHING: tuple[Line, ...] = ()


class JsBuildFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._sizes = SizeTable()
        self._seen_errors: set[str] = set()
        self._blank = True  # drop blank lines at the start and in runs
        self._traced = False  # the line before was an import-trace line
        self._results: list[str] = []  # the success lines, printed with the sizes at the end

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if not text.strip():
            if self._blank:
                return _NOTHING
            self._blank = True
            return (Line("", stream),)
        if NOISE.search(text) or self._sizes.feed(text):
            return _NOTHING
        loc = frame_location(text)
        if loc is not None and is_foreign(loc):
            return _NOTHING
        if IMPORT_TRACE.match(text):
            if self._traced:
                self.elided = True
                return _NOTHING
            self._traced = True
        else:
            self._traced = False
        if text.startswith("Σ Total"):
            self._sizes.own_total = True
        if REPEATABLE.match(text):
            if text.strip() in self._seen_errors:
                return _NOTHING
            self._seen_errors.add(text.strip())
        out = []
        if FAILED.search(text):
            self.failure_seen = True  # the failure is on screen, no raw tail needed
            out = [Line(held, stream) for held in self._results]  # what succeeded before it, in order
            self._results = []
        elif SUCCESS.search(text) and len(self._results) < MAX_RESULTS:
            self._results.append(text.strip())
            return _NOTHING  # said with the output sizes, on one line, at the end
        self._blank = False
        out.append(Line(text, stream))
        return out

    def finish(self, exit_code: int) -> Iterable[Line]:
        parts = list(self._results)
        for line, cut in (self._sizes.route_report(), self._sizes.report()):
            self.elided = self.elided or cut
            if line:
                parts.append(line)
        return (Line(" · ".join(parts)),) if parts else _NOTHING

    def progress(self) -> Mapping[str, int]:
        return {"files": len(self._sizes.entries)}


def create(ctx: FilterContext) -> JsBuildFilter:
    return JsBuildFilter(ctx)
