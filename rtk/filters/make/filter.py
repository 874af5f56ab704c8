"""Build output read line by line: diagnostics kept, command lines and progress counted.

The link steps are kept (issue 33: make's final link command is a fact): a compiler or linker
command that names an output (`-o X`) without compiling (`-c`), `libtool: link:`, kbuild's
`LD`/`CCLD` lines and CMake's or ninja's `Linking C executable X`: what was built, from what.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi

DIAG = re.compile(r"^(?P<loc>[^\s:][^:]*:\d+(?::\d+)?): (?:fatal )?(?P<kind>warning|error|note)\b")
CONTEXT = re.compile(r"^(?:[^\s:][^:]*: (?:In (?:function|member function|constructor|destructor)|At top level)"
                     r"|In file included from |\s+from \S+:\d+[:,]|compilation terminated|cc1: )")
FRAME = re.compile(r"^\s*(?:\d+\s*)?\|")
COMMAND = re.compile(r"^(?:\S*/)?(?:[\w.+-]*-)?(?:gcc|g\+\+|cc|c\+\+|clang(?:\+\+)?|ld|ar|ranlib|"
                     r"strip|libtool|nasm|as|install|ln|rm|cp|mkdir|touch|sed)(?:-[\d.]+)?\s")
KBUILD = re.compile(r"^\s+(?:CC|CXX|LD|AR|AS|GEN|CCLD|CXXLD|HOSTCC|LINK)\s+\S|^libtool: (?:compile|link): ")
PROGRESS = re.compile(r"^(?:\[\s*\d+%\] (?:Building|Linking|Built target|Generating)|\[\d+/\d+\] |"
                      r"Scanning dependencies|Consolidate compiler generated)")
DIRECTORY = re.compile(r"^(?:\S*make(?:\[\d+\])?: (?:Entering|Leaving) directory|ninja: Entering directory)")
LINKER = re.compile(r"^(?:\S*/)?(?:[\w.+-]*-)?(?:gcc|g\+\+|cc|c\+\+|clang(?:\+\+)?|ld)(?:-[\d.]+)?\s")
LINK_STEP = re.compile(r"^(?:libtool: link: |\s+(?:LD|CCLD|CXXLD|LINK)\s+\S|(?:\[\s*\d+%\] |\[\d+/\d+\] )Linking )")
# the linker's own error lines (`/usr/bin/ld: cannot find cJSON.o`, `undefined reference to`)
LINK_ERROR = re.compile(r"^(?:\S*/)?ld(?:\.\w+)?: .*(?:cannot find|undefined reference|multiple definition)")
FAILURE = re.compile(r"^(?:\S*make(?:\[\d+\])?: \*\*\*|FAILED: |ninja: build stopped|error: Recipe)")


def is_link(text: str) -> bool:
    """`gcc -o lua lua.o liblua.a -lm`, `cc -shared -o libx.so a.o`: a command that links."""
    return LINKER.match(text) is not None and " -o " in text and " -c " not in text and " -E " not in text


class MakeFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._commands = self._progress = self._warnings = self._errors = 0
        self._after_failed = False  # ninja prints the failing command after `FAILED:`
        self._stream = Stream.STDOUT

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        self._stream = stream
        kept = self._keep(text)
        return (Line(text, stream),) if kept else ()

    def _keep(self, text: str) -> bool:
        after_failed, self._after_failed = self._after_failed, False
        if (diag := DIAG.match(text)) is not None:
            self._count(diag["kind"])
            return True
        if LINK_ERROR.match(text):
            self._count("error")
            return True
        if FAILURE.match(text):
            self.failure_seen = True
            self._after_failed = text.startswith("FAILED: ")
            return True
        if not text or DIRECTORY.match(text):
            return False
        if FRAME.match(text):
            self.elided = True
            return False
        if LINK_STEP.match(text) or is_link(text):
            return True
        if PROGRESS.match(text):
            self._progress += 1
            return False
        if after_failed or COMMAND.match(text) or KBUILD.match(text):
            self._commands += 1
            return False
        return True

    def _count(self, kind: str) -> None:
        if kind == "warning":
            self._warnings += 1
        elif kind == "error":
            self._errors += 1
            self.failure_seen = True

    def progress(self) -> Mapping[str, int]:
        return {"commands": self._commands, "warnings": self._warnings, "errors": self._errors}

    def finish(self, exit_code: int) -> Iterable[Line]:
        parts = [f"{self._commands} command lines" if self._commands else "",
                 f"{self._progress} progress lines" if self._progress else ""]
        dropped = ", ".join(p for p in parts if p)
        counts = f"{self._errors} errors, {self._warnings} warnings"
        return (Line(f"build: {counts}" + (f" ({dropped} not shown)" if dropped else ""), self._stream),)
