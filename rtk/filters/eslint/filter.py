"""eslint (stylish, the default, and unix formats; --fix; --max-warnings).

Kept: every problem with its line:col, severity, rule and message, grouped under its file
(`src/a.ts` / `  L12:5 error no-unused-vars: 'x' is defined but never used`; with `-f unix`
each problem keeps eslint's `src/a.ts:12:5` instead of the file line; a message seen
again for the same rule in the same file is printed once with all its positions: `L3:1 L9:1`, and as `(as above)` in later files); parsing errors;
the totals (`6 problems (3 errors, 3 warnings)`) and the fixable counts; `--max-warnings`
verdicts; eslint's crash report (`Oops! Something went wrong!`) with frames in node_modules and
node:internal dropped. With `--fix` the summary says the counts are what remains after fixing.
Dropped (noise): the column alignment padding, blank lines, the `✖` mark.
Other formats (json, compact plugins, ...) pass through unchanged.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.node.frames import frame_location, is_foreign

PROBLEM = re.compile(r"^\s+(?P<line>\d+):(?P<col>\d+)\s+(?P<sev>error|warning)\s+(?P<rest>.+?)\s*$")
RULE_TAIL = re.compile(r"^(?P<message>.*?)\s{2,}(?P<rule>[@\w][\w@/.-]*)$")
UNIX = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<message>.*) \[(?P<sev>Error|Warning)(?:/(?P<rule>[^\]]+))?\]$")
TOTAL = re.compile(r"^\s*(?:✖\s*)?(?P<text>\d+ problems? \(\d+ errors?, \d+ warnings?\))\s*$")
UNIX_TOTAL = re.compile(r"^(?P<n>\d+) problems?$")
FIXABLE = re.compile(r"^\s*(?P<text>\d+ errors? and \d+ warnings? potentially fixable with the `--fix` option\.)\s*$")
FILE_LINE = re.compile(r"^(?:[A-Za-z]:)?[^\s:][^:]*\S$")
SAID_MAX = 10_000
ROOT_MARKERS = frozenset({"src", "lib", "test", "tests", "__tests__", "examples", "app", "apps", "packages",
                          "components", "pages", "scripts", "bin", "server", "client", "source", "spec"})
_NOTHING: tuple[Line, ...] = ()


class EslintFilter(BaseFilter):
    def __init__(self, ctx: FilterContext | None = None, cwd: str = "") -> None:
        super().__init__(ctx)
        self._file = ""  # the last file line seen (stylish), not printed until a problem follows
        self._open_file = ""
        self._groups: dict[tuple[str, str, str], list[str]] = {}
        self._stream = Stream.STDOUT
        self._cwd = cwd
        self._said: set[tuple[str, str, str]] = set()
        self._root: str | None = None  # the prefix cut from absolute paths, once decided
        self._held = ""
        self._problems = 0
        self._files = 0
        self._fix = any(word == "--fix" or word.startswith("--fix-") for word in self.ctx.argv)
        self._crash = False
        self._unix = False  # `-f unix` keeps eslint's own `path:line:col` on every problem

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if not text.strip():
            return _NOTHING
        if (problem := PROBLEM.match(text)) is not None and self._file:
            return self._stylish(problem, stream)
        if (unix := UNIX.match(text)) is not None:
            self._unix = True
            return self._problem(unix["file"], unix["line"], unix["col"], unix["sev"].lower(),
                                 unix["rule"] or "", unix["message"], stream)
        if (total := TOTAL.match(text)) is not None:
            self.failure_seen = True
            return [*self._end_file(), *self._unheld(stream), Line(self._total(total["text"]), stream)]
        if (fixable := FIXABLE.match(text)) is not None:
            return (Line(fixable["text"].replace(" potentially fixable with the `--fix` option",
                                                 " fixable with --fix"), stream),)
        if UNIX_TOTAL.match(text):
            self.failure_seen = True
            return [*self._end_file(), Line(self._total(text), stream)]
        return self._other(text, stream)

    def _stylish(self, problem: re.Match[str], stream: Stream) -> Iterable[Line]:
        rest = problem["rest"]
        tail = RULE_TAIL.match(rest)
        message, rule = (tail["message"], tail["rule"]) if tail else (rest, "")
        return self._problem(self._file, problem["line"], problem["col"], problem["sev"], rule,
                             message.strip(), stream)

    def _problem(self, file: str, line: str, col: str, severity: str, rule: str, message: str,
                 stream: Stream) -> Iterable[Line]:
        self._held = ""
        self._problems += 1
        out = self._end_file() if file != self._open_file else []
        if not self._open_file:
            self._open_file, self._stream = file, stream
            self._files += 1
        key = (severity, rule, message)
        self._groups.setdefault(key, []).append(f"{line}:{col}")
        return out

    def _end_file(self) -> list[Line]:
        """The file's problems, one line per distinct (severity, rule, message) in first-seen order;
        a message seen more than once lists its positions as `L12:5 L40:1`."""
        if not self._open_file:
            return []
        out = self._shown_path(self._open_file)
        prefix = ""
        if self._unix:  # the path goes in front of each position instead of on a line of its own
            prefix = out.pop().text + ":"
        for (severity, rule, message), positions in self._groups.items():
            if rule and (severity, rule, message) in self._said:
                message = "(as above)"  # the same rule's same message, printed for an earlier file
            elif rule and len(self._said) < SAID_MAX:
                self._said.add((severity, rule, message))
            rule_part = f"{rule}: " if rule else ""
            if prefix and len(positions) == 1:
                out.append(Line(f"{prefix}{positions[0]} {severity} {rule_part}{message}", self._stream))
            elif len(positions) == 1:
                out.append(Line(f"  L{positions[0]} {severity} {rule_part}{message}", self._stream))
            else:
                where = " ".join(f"{prefix}{p}" if prefix else f"L{p}" for p in positions)
                out.append(Line(f"  {severity} {rule_part}{message} (x{len(positions)}): {where}", self._stream))
        self._open_file, self._groups = "", {}
        return out

    def _shown_path(self, path: str) -> list[Line]:
        """The file line(s): the path relative to the project root (the working directory, or
        the part before `src/`, `lib/`, ... of the first absolute path, announced once)."""
        out = []
        if self._root is None:
            self._root = _root_of(path, self._cwd)
            if self._root and self._root != _with_slash(self._cwd):
                out.append(Line(f"(paths below {self._root})", self._stream))
        shown = path[len(self._root):] if self._root and path.startswith(self._root) else path
        out.append(Line(shown, self._stream))
        return out

    def _total(self, text: str) -> str:
        files = f" in {self._files:,} files" if self._files > 1 else ""
        after = " remaining after --fix" if self._fix else ""
        return f"eslint: {text}{files}{after}"

    def _other(self, text: str, stream: Stream) -> Iterable[Line]:
        if text.startswith("Oops! Something went wrong!"):
            self._crash = self.failure_seen = True
        loc = frame_location(text)
        if loc is not None:
            return _NOTHING if is_foreign(loc) else (Line(text, stream),)
        out = self._unheld(stream)
        if FILE_LINE.match(text) and not self._crash:
            out[:0] = self._end_file()
            self._file = self._held = text.strip()  # printed with its first problem
            return out
        out.append(Line(text, stream))
        return out

    def _unheld(self, stream: Stream = Stream.STDOUT) -> list[Line]:
        """A line held as a file header that no problem followed: it was something else."""
        held, self._held = self._held, ""
        return [Line(held, stream)] if held else []

    def finish(self, exit_code: int) -> Iterable[Line]:
        return [*self._end_file(), *self._unheld()]

    def progress(self) -> Mapping[str, int]:
        return {"problems": self._problems}


def _with_slash(path: str) -> str:
    return path.rstrip("/") + "/" if path else ""


def _root_of(path: str, cwd: str) -> str:
    if not path.startswith("/"):
        return ""
    if cwd and path.startswith(_with_slash(cwd)):
        return _with_slash(cwd)
    parts = path.split("/")
    for i, part in enumerate(parts[1:-1], start=1):
        if part in ROOT_MARKERS and not _is_home(parts[:i]):
            return "/".join(parts[:i]) + "/"
    return ""


def _is_home(parts: list[str]) -> bool:
    """`/home/dev`, `/Users/dev`, `/root`: a `src/` right under it holds projects, it is no project's."""
    return parts in (["", "root"],) or (len(parts) == 3 and parts[1] in ("home", "Users"))


def create(ctx: FilterContext) -> EslintFilter:
    import os

    try:
        cwd = os.getcwd()
    except OSError:
        cwd = ""
    return EslintFilter(ctx, cwd)
