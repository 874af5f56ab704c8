"""Failing tests' `---- name stdout ----` blocks, with repeated panics said once.

A block is held until it ends (at most MAX_HELD lines, then it streams), so that
- a panic repeated inside one block (quickcheck shrinking, a retry loop) is printed once with a
  count: `(the same panic 3 more times)`;
- a block whose first panic (the root cause: location and message) was printed for an earlier
  test, in this test binary or an earlier one, is not printed again: its test is named on one
  line when the binary's failures have been listed, `same panic as a::b in 12 more tests: c, d,
  ...`, `same panic as a::b (tests/api.rs) in all 8 failing tests` (what else it printed, a
  property test's arguments, is in the recall store).
A panic is its `panicked at file:line:col:` line and message; the backtrace under a repeat goes
(it is the same code path; the recall store keeps it).
"""
from __future__ import annotations

PANIC_STARTS = ("panicked at ", "thread '")
BACKTRACE_START = "stack backtrace:"
MAX_HELD = 400


def _entries(lines: list[str]) -> list[list[str]]:
    """The block's lines cut at each panic: [lines before the first panic], [panic 1], ..."""
    entries: list[list[str]] = [[]]
    for text in lines:
        if text.startswith(PANIC_STARTS) and " panicked at " in f" {text}":
            entries.append([])
        entries[-1].append(text)
    return entries


def _head(entry: list[str]) -> tuple[str, ...]:
    """A panic without its backtrace: location line and message."""
    head: list[str] = []
    for text in entry:
        if text == BACKTRACE_START:
            break
        head.append(text)
    return tuple(head)


class PanicBlocks:
    """Holds the current block; remembers which panics earlier blocks printed."""

    def __init__(self) -> None:
        self.header = ""
        self.lines: list[str] = []
        self.held = False
        self.elided = False
        self.suite = ""  # the test binary running now (`tests/api.rs`), set by the filter
        self._first_with: dict[tuple[tuple[str, ...], ...], tuple[str, str]] = {}
        self._repeats: dict[tuple[str, str], list[str]] = {}
        self._signature_of: dict[tuple[str, str], tuple[tuple[str, ...], ...] | None] = {}
        self._failing: dict[str, list[str]] = {}

    def open(self, header: str, name: str) -> None:
        self.header, self.name, self.lines, self.held = header, name, [], True

    def add(self, texts: list[str], release: bool = False) -> list[str]:
        """Lines of the open block; returned at once only once the block grew past MAX_HELD
        (or `release`: something else must print now, so the block so far goes first)."""
        if not self.held:
            return texts
        self.lines.extend(texts)
        if len(self.lines) < MAX_HELD and not release:
            return []
        self.held = False
        return [self.header, *self.lines]

    def close(self) -> list[str]:
        """The block as printed: whole, with in-block repeats counted, or nothing (a repeat)."""
        if not self.held:
            return []
        self.held = False
        entries = _entries(self.lines)
        kept, signature = self._fold_inside(entries)
        self._signature_of[(self.suite, self.name)] = signature or None
        if len(signature) > 0:
            first = self._first_with.setdefault(signature, (self.name, self.suite))
            if first != (self.name, self.suite):
                self._repeats.setdefault(first, []).append(self.name)
                self.elided = True
                return []
        return [self.header, *kept]

    def _fold_inside(self, entries: list[list[str]]) -> tuple[list[str], tuple[tuple[str, ...], ...]]:
        kept = list(entries[0])
        seen: dict[tuple[str, ...], int] = {}
        order: list[tuple[str, ...]] = []
        for entry in entries[1:]:
            head = _head(entry)
            if head in seen:
                seen[head] += 1
                self.elided = True
                continue
            seen[head] = 0
            order.append(head)
            kept.extend(entry)
        folded = kept
        for head in order:
            if seen[head]:
                at = _last_index_of_head(folded, head)
                folded.insert(at, f"(the same panic {seen[head]} more time{'s' if seen[head] > 1 else ''})")
        return folded, tuple(order[:1])

    def notes(self, failing: list[str] | None = None) -> list[str]:
        """One line per panic that repeated across tests, once the blocks have ended.

        `failing`: the binary's list of failing tests; when one panic accounts for all of them
        the line says so instead of naming them again. Tests that panicked just as the test of
        the same name did in an earlier binary share one line per binary."""
        out = []
        mirrored: dict[str, list[str]] = {}
        for (first, suite), names in self._repeats.items():
            here = suite == self.suite
            if not here and names == [first]:
                mirrored.setdefault(suite, []).append(first)
                continue
            where = first if here or not suite else f"{first} ({suite})"
            tests = names + [first] if here else names
            if failing is not None and len(failing) > 1 and sorted(tests) == sorted(failing):
                out.append(f"same panic as {where} in all {len(failing)} failing tests")
                continue
            more = " more" if here else ""
            word = "test" if len(names) == 1 else "tests"
            out.append(f"same panic as {where} in {len(names)}{more} {word}: {', '.join(names)}")
        for suite, tests in mirrored.items():
            out.append(f"same panics as in {suite or 'an earlier test binary'}: {', '.join(tests)}")
        self._repeats = {}
        return out

    def rename_suite(self, name: str) -> None:
        """The binary that just ran is `name` from now on (its rerun target, when cargo -q
        printed no `Running` line to name it by)."""
        old, self.suite = self.suite, name
        self._failing = {name if suite == old else suite: tests for suite, tests in self._failing.items()}
        self._signature_of = {(name if suite == old else suite, test): sig
                              for (suite, test), sig in self._signature_of.items()}
        self._first_with = {sig: (test, name if suite == old else suite)
                            for sig, (test, suite) in self._first_with.items()}

    def mirrored_suite(self, failing: list[str]) -> str | None:
        """The earlier binary whose failing tests were these same ones, each with the panic it
        has here (one test file compiled into several binaries): nothing new to show. None if
        there is no such binary; then this binary's list is remembered for later ones."""
        here = {name: self._signature_of.get((self.suite, name)) for name in failing}
        for suite, names in self._failing.items():
            if suite != self.suite and None not in here.values() and sorted(names) == sorted(failing) \
                    and all(self._signature_of.get((suite, name)) == sig for name, sig in here.items()):
                self._repeats = {}
                return suite or "an earlier test binary"
        self._failing.setdefault(self.suite, list(failing))
        return None


def _last_index_of_head(lines: list[str], head: tuple[str, ...]) -> int:
    """Where the count goes: right after the panic's message (before its backtrace)."""
    for i in range(len(lines) - len(head) + 1):
        if tuple(lines[i:i + len(head)]) == head:
            return i + len(head)
    return len(lines)
