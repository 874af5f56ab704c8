"""Full test ids for failure blocks, whose headers only say `TestA.test_b[param]`.

pytest reports failures (and errors) in the order they happened, so the n-th FAILURES block is
the n-th `F` of the progress output. -v progress names each test (`path::TestA::test_b[param]
FAILED`): the id is taken when its tail agrees with the header. Default progress names the file
of each `F` (`tests/test_a.py ..F`), used unless the run printed stray lines (-s) that make the
count unsure. Otherwise the block's first traceback entry helps when it is the test function
itself (same name), giving `file::name`. Failing that the header is used as is, and the short
test summary (or the end of the run) names the test in full.
"""
from __future__ import annotations

from collections import Counter


def split_subtest(header: str) -> tuple[str, str]:
    """`TestA.test_b (i=1)` (a failed subtest) -> (`TestA.test_b`, ` (i=1)`)."""
    if header.endswith(")") and " (" in header:
        name, _, params = header.partition(" (")
        return name, " (" + params
    return header, ""


def header_to_nodeid_tail(header: str) -> str:
    """`TestA.test_b[1.5]` -> `TestA::test_b[1.5]` (dots inside the parameters stay);
    `[doctest] pkg.mod.func` -> `pkg.mod.func`, the doctest item's name."""
    if header.startswith("[doctest] "):
        return header[len("[doctest] "):]
    header, subtest = split_subtest(header)
    name, bracket, params = header.partition("[")
    return name.replace(".", "::") + bracket + params + subtest


def base_name(header: str) -> str:
    return split_subtest(header)[0].partition("[")[0].rpartition(".")[2]


class IdResolver:
    def __init__(self) -> None:
        self.failed: list[str] = []   # from progress: full ids (-v) or files (default)
        self.errors: list[str] = []
        self.verbose = False
        self.unsure = False           # stray lines during the run: per-file counts unreliable
        self._next = {"failed": 0, "errors": 0}
        self.reported: set[str] = set()
        self.bare_reported: set[str] = set()
        self.crash_lines_shown = False  # --tb=line printed each failure's `path:line: message`

    def note(self, kind: str, where: str, verbose: bool) -> None:
        self.verbose = self.verbose or verbose
        (self.failed if kind == "F" else self.errors).append(where)

    def resolve(self, header: str, kind: str, first_file: str | None, first_func: str | None) -> str:
        queue_name = "failed" if kind == "F" else "errors"
        queue = self.failed if kind == "F" else self.errors
        index = self._next[queue_name]
        tail = header_to_nodeid_tail(header)
        # the first traceback entry is the test function itself: its file is the test's file
        traced = (kind == "F" and bool(first_file) and first_func == base_name(header)
                  and not str(first_file).startswith("/"))
        if index < len(queue):
            self._next[queue_name] = index + 1
            candidate = queue[index]
            if "::" in candidate and (candidate == tail or candidate.endswith("::" + tail)):
                return self._report(candidate)
            by_file = candidate and "::" not in candidate and not self.unsure and not self.verbose
            if by_file and not (traced and first_file != candidate):
                return self._report(f"{candidate}::{tail}")
        if traced:
            return self._report(f"{first_file}::{tail}")
        self.bare_reported.add(tail)
        return header

    def _report(self, nodeid: str) -> str:
        self.reported.add(nodeid)
        return nodeid

    def summary_line(self, word: str, params: str, rest: str) -> str | None:
        """What to print for a short-summary FAILED/ERROR line: None when a block named it already,
        the id alone when a block showed the failure under its short name."""
        nodeid, sep, _message = rest.partition(" - ")
        key = f"{nodeid} {params}" if params else nodeid
        if key in self.reported:
            return None
        self.reported.add(key)
        if sep and key.partition("::")[2] in self.bare_reported or key.rpartition("::")[2] in self.bare_reported:
            return f"{word}{params} {nodeid}"
        if sep and self.crash_lines_shown and rest.endswith("..."):  # cut to the terminal's width
            return f"{word}{params} {nodeid}"
        return f"{word}{params} {rest}"

    def unreported(self) -> list[str]:
        """Failing tests the progress named but nothing printed (e.g. --tb=no -rN): by id (-v), or
        else by file with a count (default progress names only the file of each `F`)."""
        out: list[str] = []
        for word, queue in (("FAILED", self.failed), ("ERROR", self.errors)):
            files: Counter[str] = Counter()
            for where in queue:
                if "::" in where and where not in self.reported:
                    out.append(f"{word} {where}")
                    self.reported.add(where)
                elif "::" not in where and where and not self._named_in(where):
                    files[where] += 1
            out.extend(f"{word} in {path} ({count} test{'s' if count > 1 else ''}, ids not printed)"
                       for path, count in files.items())
        return out

    def _named_in(self, path: str) -> bool:
        prefix = path + "::"
        return any(nodeid.startswith(prefix) for nodeid in self.reported) or bool(self.bare_reported)
