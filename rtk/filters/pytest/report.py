"""A finished failure or error block, as printed: its full title, then what explains it.

Failures repeat: one broken fixture or helper fails fifty tests with the same error, a
parametrized test fails with the same traceback for each of its parameters. The first one is
printed whole; a later one whose whole traceback was printed before is one line,
`FAILED id (same as test_x)` (`(same traceback as test_x)` and its own captured output when that
differs), and one whose error part (from the `>` line before the first
`E` line down) was printed before is one line naming where the test itself was when it happened,
`FAILED id (same error as test_x, via tests/test_y.py:12)`; another parameter of the same test is
named by its parameters alone (`(same traceback as [String])`). Their captured output still follows.
A run of whole repeats of the one above (103 tests erroring at setup on one broken fixture) is one
line and the list of their ids: `ERROR at setup of 102 more tests (same as above):`, then `  id`.
When the short test summary will name errors (pytest's default `-rfE`, or `-r` with `E`, `a` or
`A`), a run of errors named by their bare test names is not listed twice: the summary names each
of them with its file (`ERROR tests/x.py::test_a`), so the run's line says so and its names are
held; any the summary did not name are listed after it (or at the end, when no summary came).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from rtk.filters.pytest import patterns as p
from rtk.filters.pytest.block import Block, own_frame
from rtk.filters.pytest.ids import IdResolver, base_name

NATIVE_PLACE_RE = re.compile(r'^File "([^"]+)", line (\d+)')
WHOLE = "traceback and output"  # a repeat of everything the earlier failure printed
ABOVE = "same as above"
FIXTURE_AT_RE = re.compile(r"^file (.+), line (\d+)$")  # a fixture lookup error's first line


def errors_in_summary(argv: Sequence[str]) -> bool:
    """Whether the short test summary will list ERROR lines: `-r` chars (default `fE`) with E/a/A."""
    chars = "fE"
    for i, arg in enumerate(argv):
        if arg.startswith("-") and not arg.startswith("--") and "r" in arg:
            chars = arg.partition("r")[2] or (argv[i + 1] if i + 1 < len(argv) else "")
    return any(c in chars for c in "EaA") and "N" not in chars


class Reporter:
    def __init__(self, ids: IdResolver, summary_errors: bool = False) -> None:
        self.ids = ids
        self.summary_errors = summary_errors  # the short summary will name every error with its file
        self.summary_seen = False
        self.kind = "F"  # the section being read: F (FAILURES) or E (ERRORS)
        self.rootdir = ""
        self.elided = False
        self._seen: dict[int, str] = {}
        self._last: tuple[str, str] | None = None  # what the last one-line repeat repeated
        self._run: list[tuple[str, str]] = []  # (head, id) of whole repeats of the one above, held
        self._below: list[tuple[str, str]] = []  # (head, name) the short summary is expected to name

    def render(self, block: Block) -> list[str]:
        lines = block.render()
        if self.rootdir:  # --tb=native prints absolute paths: under the rootdir they are made relative
            root = f'File "{self.rootdir}/'
            lines = [text.replace(root, 'File "', 1) if text.startswith('File "') else text for text in lines]
        self.elided = self.elided or block.elided
        title = self.title(block)
        name = title.partition(" of ")[2] or title.partition(" ")[2]
        path, sep, rest = name.partition("::")  # `test_x.py::TestA::test_b[a/b]`: the file's name only
        name = path.rpartition("/")[2] + sep + rest if sep else name.removeprefix("collecting ")
        last = self._last
        out = self._dedupe(block, _unnamed_own_frame(lines, block), title, name)
        if self._last is last and out[:1] == [title]:
            self._last = None  # printed in full: `above` would name it
        if len(out) == 1 and out[0] == f"{title} ({ABOVE})":
            self._run.append(_split_title(title))
            return []
        return [*self.flush(), *out]

    def flush(self) -> list[str]:
        """The held run of repeats: one line saying what they repeat, then their ids; errors named
        only by their test's name wait for the short summary to name them."""
        run, self._run = self._run, []
        out = self.leftovers() if self.summary_seen else []
        if len(run) < 2:
            return out + [f"{head} {name} ({ABOVE})" for head, name in run]
        heads = {head for head, _ in run}
        head = heads.pop() if len(heads) == 1 else "ERROR"
        if self.summary_errors and not self.summary_seen and head.startswith("ERROR at ") \
                and all("::" not in name for _, name in run):
            self._below += run
            return [*out, f"{head} {len(run)} more tests ({ABOVE}, each named in the summary below)"]
        return [*out, f"{head} {len(run)} more tests ({ABOVE}):", *(f"  {name}" for _, name in run)]

    def named(self, nodeid: str) -> None:
        """The short summary named this test: it needs no line of its own after the summary."""
        if not self._below:
            return
        forms = {nodeid, nodeid.partition("::")[2], nodeid.partition("::")[2].replace("::", ".")}
        self._below = [(head, name) for head, name in self._below if name not in forms]

    def leftovers(self) -> list[str]:
        """The held names the short summary did not name (or all of them: no summary came)."""
        below, self._below = self._below, []
        if not below:
            return []
        return [f"{below[0][0]} {len(below)} more tests ({ABOVE}) not named in the summary:",
                *(f"  {name}" for _, name in below)]

    def _dedupe(self, block: Block, lines: list[str], title: str, name: str) -> list[str]:
        """A failure whose traceback (or its error part) was printed already refers to it."""
        body, captured, tail = lines[:block.body_len], lines[block.body_len:], block.error_tail()
        whole = hash(tuple(body))
        if len(body) > 1 and (first := self._seen.get(whole)) is not None:
            self.elided = True
            if not captured or self._seen.get(hash((whole, block.captured_key()))) == first:
                return [self._repeat(title, WHOLE, first, name)]
            return [self._repeat(title, "traceback", first, name), *captured]
        if whole not in self._seen:
            self._seen[whole] = self._seen[hash((whole, block.captured_key()))] = name
        if (fixture := FIXTURE_AT_RE.match(body[0]) if body else None) is not None:
            return self._same_lookup(body, captured, title, name, f"{fixture.group(1)}:{fixture.group(2)}")
        if tail < 0 or len(body) - tail < 3:
            return self._same_place(body, captured, title, name)
        key = hash(("tail", *body[tail:]))
        if (first := self._seen.get(key)) is None:
            self._seen[key] = name
            return self._same_place(body, captured, title, name)
        self.elided = True  # the frames between the test's own line and the error go
        place = _place(own_frame(body[:tail]))
        via = f", via {place}" if place else ""
        return [self._repeat(title, "error", first, name, via), *captured]

    def _same_place(self, body: list[str], captured: list[str], title: str, name: str) -> list[str]:
        """Another parameter of a test failing on the same line as an earlier one: its E lines
        (the values differ) under one line naming the earlier one, whose location was printed."""
        family = _family(name)
        frames = tuple(text for text in body if _is_frame(text))
        if not family or len(frames) < 2 or len(frames) == len(body):
            return [title, *body, *captured]
        key = hash(("place", family, *frames))
        if (first := self._seen.get(key)) is None:
            self._seen[key] = name
            return [title, *body, *captured]
        self.elided = True
        errors = [text for text in body if not _is_frame(text)]
        return [self._repeat(title, "place", first, name), *errors, *captured]

    def _same_lookup(self, body: list[str], captured: list[str], title: str, name: str, place: str) -> list[str]:
        """A fixture that could not be found (`file PATH, line N` then `E   fixture 'x' not found`
        and the fixtures available): the same message for every test asking for it."""
        key = hash(("lookup", *(text for text in body if text[:2] in ("E ", "> "))))
        if (first := self._seen.get(key)) is None:
            self._seen[key] = name
            return [title, *body, *captured]
        self.elided = True
        return [self._repeat(title, "error", first, name, f", via {place}"), *captured]

    def _repeat(self, title: str, what: str, first: str, name: str, via: str = "") -> str:
        """`FAILED id (same error as test_x, via t.py:3)`; `as above` when the line before said
        the same of the same failure, as fifty tests failing on one broken fixture do in a row."""
        ref = "above" if self._last == (what, first) else _short_ref(first, name)
        self._last = (what, first)
        same = "same" if what == WHOLE else f"same {what}"  # the whole failure again: `(same as test_x)`
        return f"{title} ({same} as {ref}{via})"

    def title(self, block: Block) -> str:
        title = block.title
        if self.kind == "F":
            return "FAILED " + self.ids.resolve(title, "F", block.first_file, block.first_func)
        if title.startswith("ERROR collecting "):
            self.ids.reported.add(title[len("ERROR collecting "):])
            return title
        head, sep, name = title.partition(" of ")
        if not sep:
            return title
        return f"{head} of {self.ids.resolve(name, 'E', block.first_file, block.first_func)}"


def _split_title(title: str) -> tuple[str, str]:
    """`ERROR at setup of t.py::test_x` -> (`ERROR at setup of`, `t.py::test_x`); `FAILED id` alike."""
    head, sep, name = title.partition(" of ")
    if sep:
        return head + " of", name
    head, _, name = title.partition(" ")
    return head, name


def _unnamed_own_frame(lines: list[str], block: Block) -> list[str]:
    """--tb=short and --tb=native name the test's own frame after its location
    (`tests/t.py:9: in test_b`, `File "tests/t.py", line 9, in test_b`): the title names it
    already, so the location alone stays."""
    func = block.first_func
    if not func or func != base_name(block.title):
        return lines
    for i, text in enumerate(lines[:block.body_len]):
        if text.endswith(f": in {func}") and p.LOCATION_RE.match(text) is not None:
            return [*lines[:i], text[:-len(f" in {func}")], *lines[i + 1:]]
        if text.endswith(f", in {func}") and NATIVE_PLACE_RE.match(text) is not None:
            return [*lines[:i], text[:-len(f", in {func}")], *lines[i + 1:]]
    return lines


def _family(name: str) -> str:
    """What the runs of one test share: `t.py::test_x` for `t.py::test_x[1]` (a parameter), and
    `t.py::*::test_x` for `t.py::TestA::test_x` (a test inherited by many classes); "" otherwise."""
    base, bracket, _ = name.partition("[")
    if bracket:
        return base
    parts = base.split("::")
    return "::".join([parts[0], "*", parts[-1]]) if len(parts) >= 3 else ""


def _is_frame(text: str) -> bool:
    """A traceback line saying where (`> source`, `path:12: ...`, `File "path", line 12`), not what."""
    return (text[:2] == "> " or NATIVE_PLACE_RE.match(text) is not None
            or (p.LOCATION_RE.match(text) is not None and not text.startswith("E ")))


def _short_ref(first: str, name: str) -> str:
    """How a repeat names the failure it repeats: without the `::` parts both names start with
    (`Test02::test_x` from `test_a.py::Test04::test_x`), or by its parameters alone for another
    parameter of the same test function (`[String]` from `test_x[Integer]`), or by its class alone
    for the same test in another class (`Test02` from `test_a.py::Test04::test_x`)."""
    base, bracket, params = first.partition("[")
    if bracket and name.startswith(base + "["):
        return bracket + params
    parts, others = first.split("::"), name.split("::")
    common = 0
    while common < min(len(parts), len(others)) - 1 and parts[common] == others[common]:
        common += 1
    end = len(parts)
    if len(parts) == len(others):  # the same test in another class: the class alone names it
        while end > common + 1 and parts[end - 1] == others[end - 1]:
            end -= 1
    return "::".join(parts[common:end])


def _place(frames: list[str]) -> str:
    """`path:line` of the last location among a test's own traceback lines, or ""."""
    for text in reversed(frames):
        if (m := p.LOCATION_RE.match(text)) is not None or (m := NATIVE_PLACE_RE.match(text)) is not None:
            return f"{m.group(1)}:{m.group(2)}"
    return ""
