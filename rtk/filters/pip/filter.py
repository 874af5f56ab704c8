"""pip's and uv's output read line by line."""
from __future__ import annotations

import re
from collections.abc import Iterable

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, plural, strip_ansi
from rtk.filters.pip.build import BuildLog

NOISE = re.compile(r"^\s*(?:Collecting |Downloading |Downloaded |Using cached |Obtaining |"
                   r"Looking in (?:indexes|links)|Preparing (?:editable )?metadata|Getting requirements|"
                   r"Checking if build backend|Building editable for|"
                   r"Installing (?:build|backend) dependencies|Building wheels? for|Created wheel for|"
                   r"Stored in directory|Installing collected packages|Attempting uninstall|"
                   r"Found existing installation|Uninstalling |Building |Built |Prepared |"
                   r"Using (?:CPython|Python)|Creating virtual|"
                   r"Bytecode compiled|"
                   r"Updated |Resolving dependencies|\[notice\] )")
PROGRESS = re.compile(r"^\s*[━─╸╺\s]*[━─╸╺]+.*(?:eta|/s|kB|MB)|^\s*\|?[█▉▊▋▌▍▎▏ ]+\|")
SATISFIED = re.compile(r"^Requirement already satisfied: ")
UV_CHANGE = re.compile(r"^ (?P<sign>[-+~]) (?P<pkg>\S.*)$")
UV_BUILD_START = re.compile(r"^\s*(?:cause:|[├╰]─▶) Call to `[^`]+` failed")  # uv: the backend's output follows
VERSIONS = re.compile(r"^(?P<head>.*\(from versions: )(?P<list>[^)]*)(?P<tail>\).*)$")
KEEP_VERSIONS = (3, 10)
# uv's count lines are its result (`Resolved 13 packages`, `Installed 44 packages`, `Audited 32 packages`):
# kept, as pip's `Successfully installed`; `Prepared N packages` (the downloads) is not


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
        self._build: BuildLog | None = None  # inside a failed build's output (pip's block, uv's cause)
        self._uv_build = False
        self._stream = Stream.STDOUT

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        self._stream = stream
        kept = self._keep(text)
        return () if kept is None else tuple(Line(part, stream) for part in kept.split("\n"))

    def _keep(self, text: str) -> str | None:
        if self._build is not None:
            return self._build_line(text)
        if not text.strip() or PROGRESS.match(text):
            return None
        if (change := UV_CHANGE.match(text)) is not None:
            self._changes.setdefault(change["sign"], []).append(change["pkg"])
            return None
        if SATISFIED.match(text):
            self._satisfied += 1
            return None
        if "lines of output]" in text:
            return self._build_line(text)
        if UV_BUILD_START.match(text):
            self.failure_seen = True
            self._build, self._uv_build = BuildLog(), True
            return text
        if NOISE.match(text):
            return None
        if text.lstrip().startswith(("ERROR", "error", "×", "╰─>")):
            self.failure_seen = True
        kept, elided = elide_versions(text)
        self.elided = self.elided or elided
        return kept

    def _build_line(self, text: str) -> str | None:
        """Inside a failed build's output: what failed and why, not its chatter (build.py)."""
        self.failure_seen = True
        if "lines of output]" in text:
            self._build, self._uv_build = BuildLog(), False
            return text
        if self._build is None:
            return text
        if "[end of output]" in text:
            self._build = None
            return text
        if self._uv_build and text.strip() and not text[:1].isspace():
            self._build = None
            return self._keep(text)
        if text.strip() in ("[stdout]", "[stderr]"):
            return text
        kept = self._build.keep(text)
        self.elided = self.elided or self._build.dropped > 0
        return "\n".join(kept) if kept else None

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = []
        names = {"+": "installed", "-": "removed", "~": "updated"}
        for sign, pkgs in self._changes.items():
            out.append(f"{names[sign]} ({len(pkgs)}): {', '.join(pkgs)}")
        if self._satisfied:
            out.append(f"{plural(self._satisfied, 'requirement')} already satisfied")
        return [Line(t, self._stream) for t in out]
