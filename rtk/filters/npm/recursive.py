"""`pnpm -r test`, `pnpm --filter './packages/*' build`: several packages' output, interleaved.

pnpm runs the packages' scripts in parallel and prefixes each line with the package and script:
`packages/async test$ jest` starts one, `packages/async test: PASS ...` is its output,
`packages/async test: Done` / `Failed` ends it. Each package gets its own filter (chosen from the
script's command line, as for one package); what the filters print is headed by `[packages/async]`
whenever the package changes, so the interleaving stays readable without a prefix on every line.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from rtk.filters.base import Filter, Line, Stream

PREFIXED = re.compile(r"^(?P<pkg>[@\w./-]+) (?P<script>[\w:.-]+)(?P<sep>\$|:) ?(?P<rest>.*)$")
END = frozenset({"Done", "Failed"})
RECURSIVE_FLAGS = frozenset({"-r", "--recursive", "--filter", "-F", "--parallel", "--stream"})
MAX_PACKAGES = 500


class Packages:
    """One filter per package of a recursive run; `make(command)` builds the filter for a script."""

    def __init__(self, make: Callable[[str], Filter]) -> None:
        self._make = make
        self._filters: dict[str, Filter] = {}
        self._shown = ""  # the package whose lines were printed last
        self.finished: list[Filter] = []

    def feed(self, text: str, stream: Stream) -> list[Line] | None:
        """The lines to print for a prefixed line, or None when the line is not one."""
        match = PREFIXED.match(text)
        if match is None or (match["pkg"] not in self._filters and match["sep"] == ":"):
            return None
        package = match["pkg"]
        if match["sep"] == "$":
            out = self._end(package, 0)
            if len(self._filters) < MAX_PACKAGES:
                self._filters[package] = self._make(match["rest"])
            return out
        if match["rest"].strip() in END:
            return self._end(package, 1 if match["rest"].strip() == "Failed" else 0)
        return self._headed(package, list(self._filters[package].feed(match["rest"], stream)))

    def _end(self, package: str, exit_code: int) -> list[Line]:
        filt = self._filters.pop(package, None)
        if filt is None:
            return []
        self.finished.append(filt)
        return self._headed(package, list(filt.finish(exit_code)))

    def _headed(self, package: str, lines: list[Line]) -> list[Line]:
        if not lines:
            return []
        if package != self._shown:
            self._shown = package
            lines.insert(0, Line(f"[{package}]", lines[0].stream))
        return lines

    def finish(self) -> list[Line]:
        out: list[Line] = []
        for package in list(self._filters):
            out.extend(self._end(package, 0))
        return out
