"""The host's own cut: whatever rtk prints under Claude Code must fit in 30,000 characters,
under Codex in ~10,000 bytes (Codex keeps the start and end of a longer output, cutting the middle).

Claude Code shows the model only a ~2 KB preview of a tool output over 30,000 chars
(spec/post-path.md), so a filtered output past that size is worth no more than no rtk at all.
`Fold` takes the lines a run prints, one at a time and in bounded memory, and gives back at the
end either all of them (they fit) or a folded form that does: the first lines, every line in the
middle that says what failed or why (error, failed, exception, panic, path:line; each with the
line before it), the last lines (where summaries are), a marker per left-out run of lines naming
its output line numbers, an outline of a left-out run when an `outliner` can say what it holds
(a file's definitions and headings), and the recall hint. A folded form is always more use than
the host's 2 KB preview: it keeps the start, the failures and the end.

`fit_to_budget(lines, limit, hint=...)` is the same fold on a finished text (the post path's
hook filters an output the host already captured). This module imports nothing heavy: `re` is
compiled only when something has to be folded.
"""
from __future__ import annotations

from rtk.filters.base import LazyPattern, deque

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Protocol

    class Outliner(Protocol):
        """Says what a left-out run of lines holds (see rtk.filters.content.outline)."""

        def see(self, number: int, text: str) -> None: ...

        def render(self, first: int, last: int, max_chars: int) -> list[str]: ...

CLAUDE_CODE_LIMIT = 30_000  # chars: over it Claude Code shows a ~2 KB preview instead
# chars: a failing command's output past ~11,000 reaches the model as its first and last 5,000
# (Claude Code 2.1.337), so a failing run's rtk form fits this (rtk.filters.failwindow)
CLAUDE_CODE_FAILING_LIMIT = 10_000
HEAD_SHARE, TAIL_SHARE, MIDDLE_SHARE = 0.35, 0.35, 0.30  # of the room left after the reserve
RESERVE = 600  # chars kept for the markers and the hint
MAX_LINE = 1_000  # a kept line longer than this is cut, with a count (one minified line is not a summary)
OUTLINE_SHARE = 0.25  # of the limit, at most, for the outlines of the left-out runs
MIDDLE_MARKERS = 40  # past this many separate runs of kept middle lines, no more middle lines are kept
WHAT_FAILED = LazyPattern(
    r"(?i)\b(?:errors?|fail(?:s|ed|ure|ures|ing)?|fatal|panic(?:ked)?|exception|traceback|assert\w*|"
    r"denied|refused|not found|no such|missing|invalid|cannot|can't|could not|couldn't|unable|"
    r"undefined|unresolved|segmentation fault|timed out|abort(?:ed)?|conflict\w*|mismatch\w*)\b"
    r"|^E\s|^\s*(?:-->|at )\S|\S\.\w{1,5}:\d+(?::\d+)?\b|\(\d+,\d+\):")


CODEX_LIMIT = 9_000  # chars: Codex cuts every tool output at ~10,000 bytes (~2,500 tokens), middle out
# host -> (outputs longer than this many chars are cut, chars of the raw output the model then sees):
# what rtk's savings are counted against on that host (rtk gain)
HOST_CUTS = {"claude": (CLAUDE_CODE_LIMIT, 2_000), "codex": (10_000, 10_000)}
CODEX_MARKS = ("CODEX_THREAD_ID", "CODEX_SANDBOX_NETWORK_DISABLED", "CODEX_PERMISSION_PROFILE")


def host_of(env: Mapping[str, str]) -> str | None:
    """The agent host running this command, by the variables it sets in its commands' environment:
    Claude Code CLAUDECODE=1, Codex CODEX_THREAD_ID and its sandbox's CODEX_* (seen with 0.171)."""
    if env.get("CLAUDECODE", "").strip().lower() not in ("", "0", "false", "no", "off"):
        return "claude"
    if any(env.get(name) for name in CODEX_MARKS):
        return "codex"
    return None


def host_limit(env: Mapping[str, str], limits: Mapping[str, int] | None = None) -> int | None:
    """The char limit of the host reading this run's output, or None when it cuts nothing.

    `[limits] claude_code_max_chars` / `codex_max_chars` override the sizes (a later release may
    change them)."""
    host = host_of(env)
    if host is None:
        return None
    key, default = ("claude_code_max_chars", CLAUDE_CODE_LIMIT) if host == "claude" else \
        ("codex_max_chars", CODEX_LIMIT)
    value = (limits or {}).get(key, default)
    return value if isinstance(value, int) and value > 0 else default


def failing_limit(env: Mapping[str, str], limits: Mapping[str, int] | None = None) -> int | None:
    """The char limit of a failing run's output on this host when it is tighter than `host_limit`
    (Claude Code: 10,000; `[limits] claude_code_failing_max_chars`), else None."""
    if host_of(env) != "claude":
        return None
    value = (limits or {}).get("claude_code_failing_max_chars", CLAUDE_CODE_FAILING_LIMIT)
    return value if isinstance(value, int) and value > 0 else CLAUDE_CODE_FAILING_LIMIT


def cut_line(text: str, limit: int = MAX_LINE) -> str:
    return text if len(text) <= limit else f"{text[:limit]} [rtk: +{len(text) - limit:,} chars]"


class Fold:
    """Lines in, at most `limit` chars out (see the module docstring). Items are (text, tag) pairs:
    the tag (the pipeline's stream) travels with its line and markers get `marker_tag`."""

    def __init__(self, limit: int, outliner: Outliner | None = None, marker_tag: object = None) -> None:
        self.limit = limit
        self.outliner = outliner
        self.marker_tag = marker_tag
        self.count = 0
        self.chars = 0  # of everything added, newlines included
        self.whole: list[tuple[str, object]] | None = []  # everything, until it no longer fits
        room = max(limit - RESERVE, 0)
        self.head_room, self.tail_room = int(room * HEAD_SHARE), int(room * TAIL_SHARE)
        self.middle_room = int(room * MIDDLE_SHARE)
        self.head: list[tuple[str, object]] = []
        self.tail: deque[tuple[int, str, object]] = deque()
        self.tail_chars = self.head_chars = self.middle_chars = 0
        self.middle: list[tuple[int, str, object]] = []
        self.middle_left_out = 0  # lines that say what failed, past the middle's room
        self.previous: tuple[int, str, object] | None = None  # the line before, kept with a failure

    @property
    def folded(self) -> bool:
        return self.whole is None

    def add(self, text: str, tag: object = None) -> None:
        self.chars += len(text) + 1
        self.count += 1
        if self.outliner is not None:
            self.outliner.see(self.count, text)
        if self.whole is not None:
            self.whole.append((text, tag))
            if self.chars > self.limit:
                held, self.whole = self.whole, None
                for number, (old, old_tag) in enumerate(held, 1):
                    self._place(number, old, old_tag)
            return
        self._place(self.count, text, tag)

    def add_all(self, items: Iterable[tuple[str, object]]) -> None:
        for text, tag in items:
            self.add(text, tag)

    def fits_with(self, extra_chars: int) -> bool:
        return self.whole is not None and self.chars + extra_chars <= self.limit

    def _place(self, number: int, text: str, tag: object) -> None:
        size = min(len(text), MAX_LINE + 30) + 1
        if self.head_chars + size <= self.head_room and len(self.tail) == 0:
            self.head.append((cut_line(text), tag))
            self.head_chars += size
            return
        self.tail.append((number, text, tag))
        self.tail_chars += size
        while self.tail_chars > self.tail_room + self.middle_room and len(self.tail) > 1:
            old = self.tail.popleft()
            self.tail_chars -= min(len(old[1]), MAX_LINE + 30) + 1
            self._middle(old)

    def _middle(self, item: tuple[int, str, object]) -> None:
        number, text, _ = item
        previous, self.previous = self.previous, item
        if not WHAT_FAILED.get().search(text):
            return
        kept = [item] if previous is None or previous[0] != number - 1 or \
            (self.middle and self.middle[-1][0] == number - 1) else [previous, item]
        size = sum(min(len(t), MAX_LINE + 30) + 1 for _, t, _ in kept)
        new_run = not self.middle or self.middle[-1][0] < kept[0][0] - 1
        if self.middle_chars + size > self.middle_room or (new_run and self._runs() >= MIDDLE_MARKERS):
            self.middle_left_out += 1
            return
        self.middle.extend(kept)
        self.middle_chars += size

    def _runs(self) -> int:
        return sum(1 for i, item in enumerate(self.middle) if i == 0 or self.middle[i - 1][0] != item[0] - 1)

    def sure(self, text: str) -> bool:
        """Whether the line just added is certain to be printed as it is (the start of the head):
        it may then be written at once, and the caller skips it in what `close` returns."""
        return self.chars <= self.head_room and len(text) <= MAX_LINE

    def close(self, hint: str | None = None) -> list[tuple[str, object]]:
        """Everything when it fits; else the fold, ending with `hint` (the recall hint line).

        With an outliner, up to OUTLINE_SHARE of the limit goes to the outlines of the left-out
        runs (what they hold: a file's definitions, the paths of a diff or a grep), taken from
        the tail's room; what the outlines leave unused goes back to the tail."""
        if self.whole is not None:
            return self.whole
        reserved = int(self.limit * OUTLINE_SHARE) if self.outliner is not None else 0
        tail = self._tail_within(self.limit - RESERVE - self.head_chars - self.middle_chars - reserved)
        outlines = self._outlines([*self.middle, *tail], reserved)
        used = sum(len(text) + 1 for lines in outlines.values() for text in lines)
        if used < reserved:
            tail = self._tail_within(self.limit - RESERVE - self.head_chars - self.middle_chars - used)
        out, shown = list(self.head), len(self.head)
        for number, text, tag in [*self.middle, *tail]:
            if number > shown + 1:
                out.append((f"... output lines {shown + 1:,}-{number - 1:,} not shown ({number - shown - 1:,} lines)",
                            self.marker_tag))
                out.extend((line, self.marker_tag) for line in outlines.get(shown + 1, ()))
            if self.middle_left_out and number == tail[0][0]:
                marker = f"[rtk: {self.middle_left_out:,} more lines naming errors or failures left out above]"
                out.append((marker, self.marker_tag))
            out.append((cut_line(text), tag))
            shown = number
        out.append((hint or f"[rtk: output folded to {self.limit:,} chars, the host's limit; "
                    "the full output was not kept]", self.marker_tag))
        return _trimmed(out, self.limit, len(self.head))

    def _tail_within(self, room: int) -> list[tuple[int, str, object]]:
        """The end of the output: as many of the last lines as fit in `room` (one at least)."""
        tail, chars = list(self.tail), self.tail_chars
        while len(tail) > 1 and chars > room:
            chars -= min(len(tail.pop(0)[1]), MAX_LINE + 30) + 1
        return tail

    def _outlines(self, kept: list[tuple[int, str, object]], room: int) -> dict[int, list[str]]:
        """The outliner's lines for each left-out run (keyed by its first line), sharing `room`."""
        if self.outliner is None or room <= 0:
            return {}
        gaps, shown = [], len(self.head)
        for number, _, _ in kept:
            if number > shown + 1:
                gaps.append((shown + 1, number - 1))
            shown = number
        each = room // max(len(gaps), 1)
        return {first: self.outliner.render(first, last, each) for first, last in gaps}


def _trimmed(out: list[tuple[str, object]], limit: int, first: int) -> list[tuple[str, object]]:
    """The last guard: never over the limit, whatever the shares gave (the head, which may be
    written already, and the hint line stay)."""
    total = sum(len(text) + 1 for text, _ in out)
    if total <= limit:
        return out
    hint = out[-1]
    kept = out[:-1]
    while len(kept) > first and total > limit:
        total -= len(kept.pop((first + len(kept)) // 2)[0]) + 1
    return [*kept, hint]


def fit_to_budget(lines: Iterable[str], limit: int = CLAUDE_CODE_LIMIT, hint: str | None = None,
                  outliner: Outliner | None = None) -> list[str]:
    """A finished text's lines, folded to at most `limit` chars (newlines counted) when longer.

    `hint` ends a folded text (e.g. `[full output: rtk recall ID]`, or where the host saved the
    whole output); `outliner` may describe the left-out runs (rtk.filters.content.outline)."""
    fold = Fold(limit, outliner)
    for text in lines:
        fold.add(text)
    return [text for text, _ in fold.close(hint)]
