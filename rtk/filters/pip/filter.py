"""pip's and uv's output read line by line."""
from __future__ import annotations

import re
from collections.abc import Iterable

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, plural, strip_ansi

NOISE = re.compile(r"^\s*(?:Collecting |Downloading |Downloaded |Using cached |Obtaining |"
                   r"Looking in (?:indexes|links)|Preparing (?:editable )?metadata|Getting requirements|"
                   r"Checking if build backend|Building editable for|"
                   r"Installing build dependencies|Building wheels? for|Created wheel for|"
                   r"Stored in directory|Installing collected packages|Attempting uninstall|"
                   r"Found existing installation|Uninstalling |Building |Built |Prepared |"
                   r"Resolved |Audited |Checked |Using (?:CPython|Python)|Creating virtual|"
                   r"Installed \d+ packages? in|Uninstalled \d+ packages? in|Bytecode compiled|"
                   r"Updated |Resolving dependencies|\[notice\] )")
PROGRESS = re.compile(r"^\s*[━─╸╺\s]*[━─╸╺]+.*(?:eta|/s|kB|MB)|^\s*\|?[█▉▊▋▌▍▎▏ ]+\|")
SATISFIED = re.compile(r"^Requirement already satisfied: ")
UV_CHANGE = re.compile(r"^ (?P<sign>[-+~]) (?P<pkg>\S.*)$")
BUILD_CHATTER = re.compile(r"^\s*(?:copying |creating |running |writing |reading |adding |"
                           r"removing |Copying |byte-compiling |warning: build_py|"
                           r"(?:\S*/)?(?:gcc|cc|g\+\+|clang|x86_64-linux-gnu-gcc)\s)")
BUILD_ERROR = re.compile(r"\b(?:error|Error|ERROR)\b|^\s*\S+:\d+:\d+: (?:warning|note)")
VERSIONS = re.compile(r"^(?P<head>.*\(from versions: )(?P<list>[^)]*)(?P<tail>\).*)$")
KEEP_VERSIONS = (3, 10)


def elide_versions(text: str) -> tuple[str, bool]:
    m = VERSIONS.match(text)
    if m is None:
        return text, False
    versions = m["list"].split(", ")
    first, last = KEEP_VERSIONS
    if len(versions) <= first + last + 1:
        return text, False
    middle = len(versions) - first - last
    kept = versions[:first] + [f"... {middle} more"] + versions[-last:]
    return f"{m['head']}{', '.join(kept)}{m['tail']}", True


class PipFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self._satisfied = 0
        self._changes: dict[str, list[str]] = {}
        self._in_output = False  # inside pip's `[N lines of output]` block of a failed build
        self._stream = Stream.STDOUT

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        self._stream = stream
        kept = self._keep(text)
        return (Line(kept, stream),) if kept is not None else ()

    def _keep(self, text: str) -> str | None:
        if not text.strip() or PROGRESS.match(text):
            return None
        if (change := UV_CHANGE.match(text)) is not None:
            self._changes.setdefault(change["sign"], []).append(change["pkg"])
            return None
        if SATISFIED.match(text):
            self._satisfied += 1
            return None
        if self._in_output or "lines of output]" in text:
            return self._build_line(text)
        if NOISE.match(text):
            return None
        if text.lstrip().startswith(("ERROR", "error", "×", "╰─>")):
            self.failure_seen = True
        kept, elided = elide_versions(text)
        self.elided = self.elided or elided
        return kept

    def _build_line(self, text: str) -> str | None:
        """Inside a failed build's output: compiler errors and warnings, not its chatter."""
        self.failure_seen = True
        if "lines of output]" in text:
            self._in_output = True
            return text
        if "[end of output]" in text:
            self._in_output = False
            return text
        if BUILD_CHATTER.match(text) or not BUILD_ERROR.search(text):
            self.elided = True
            return None
        return text

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = []
        names = {"+": "installed", "-": "removed", "~": "updated"}
        for sign, pkgs in self._changes.items():
            out.append(f"{names[sign]} ({len(pkgs)}): {', '.join(pkgs)}")
        if self._satisfied:
            out.append(f"{plural(self._satisfied, 'requirement')} already satisfied")
        return [Line(t, self._stream) for t in out]
