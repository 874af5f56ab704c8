"""One hunk of a patch: which of its changed and context lines are printed.

- Budget: over the whole output, the changed lines printed stay within
  `base + scale * sqrt(changed lines seen so far)` (a line of 250 characters counts as 3), so a
  diff an agent reads whole (tens of KB, a few hundred changed lines) prints every changed line
  and a huge one grows its output slowly; past the budget only hunk headers and per-file counts
  print, and lines again once RESUME of them have accrued.
- Runs: a run of only added (or only removed) lines longer than RUN_HEAD + LONG_RUN (RUN_HEAD +
  RUN_MIN_FOLD + RUN_TAIL once the patch is past the budget's base) prints its first RUN_HEAD and
  last RUN_TAIL lines around one marker (`... 1,494 more removed lines`): a generated table, a
  vendored file, a deleted module. A new function or test of a medium diff prints whole.
- Context: one line before and after each run of changes while the patch is within the base;
  none past it, where the hunk headers say where lines are. Every context line prints when the
  command asked for context (`-U5`, `-W`: `keep_context`). A context line left out is content
  left out (`elided`: the recall hint says where the full diff is).
- Long lines: a line over LONG_LINE characters keeps its first CLIP_TO and says how many more.
Everything left out is counted, so the file's line can say so and the recall store has it.
"""
from __future__ import annotations

from rtk.filters.base import deque, elision_marker

RUN_HEAD, RUN_TAIL, RUN_MIN_FOLD = 4, 2, 6
LONG_RUN = 200  # a run of pure additions or removals held whole before the patch is large
RESUME = 6
LONG_LINE, CLIP_TO = 1200, 240  # a printed line longer than LONG_LINE keeps its first CLIP_TO characters
UNLIMITED = 1 << 60
LINE_UNIT = 100  # the budget counts a printed line per started LINE_UNIT characters: its tokens, roughly


def _sqrt(value: float) -> float:
    """math.sqrt, imported when a patch first has a changed line (`git log` without `-p` has none)."""
    global _sqrt
    from math import sqrt

    _sqrt = sqrt  # type: ignore[assignment]  # the next calls go straight to math.sqrt
    return sqrt(value)


class Budget:
    """How many changed lines the whole output may still print."""

    def __init__(self, base: int, scale: float) -> None:
        self.base, self.scale = base, scale
        self.seen = self.kept = 0
        self.spent = False

    @property
    def large(self) -> bool:
        return self.seen > self.base

    def take(self, cost: int = 1) -> bool:
        """Once spent, the budget prints again only when RESUME lines have accrued: a few lines
        together, not one line here and there each time the square root passes an integer."""
        room = self.base + self.scale * _sqrt(self.seen) - self.kept
        if room > 0 and (not self.spent or room >= RESUME):
            self.kept += cost
            self.spent = False
            return True
        self.spent = True
        return False


class Hunk:
    """Feed the hunk's lines; `close()` when it ends. `hidden`: changed lines not printed."""

    def __init__(self, width: int, budget: Budget, fold: bool = True, keep_context: bool = False) -> None:
        self.width, self.budget, self.fold = width, budget, fold
        self.keep_context = keep_context or not fold
        self.context_dropped = False
        self.changed = self.hidden = 0
        self._before: str | None = None
        self._after_change = False
        self._last_kept = False
        self._sign = ""
        self._run = 0
        self._held: deque[str] = deque()
        self._dropped = 0
        self._run_shown = 0  # lines of the current run printed: a run none of whose lines fit
        self.any_folded = False  # the budget is counted as not shown, without a fold marker

    def add(self, text: str) -> tuple[list[str], int, int]:
        """Kept lines for one hunk line, and the +/- it counts for."""
        prefix = text[:self.width]
        plus, minus = int("+" in prefix), int("-" in prefix)
        if text.startswith("\\"):
            return ([text] if self._last_kept else []), 0, 0
        if not (plus or minus):
            return self._context(text), 0, 0
        self.changed += 1
        self.budget.seen += 1
        out = self._close_run() if prefix != self._sign else []
        self._sign = prefix
        self._run += 1
        if self._run <= RUN_HEAD or not self.fold:
            emitted = self._emit(text)
            self._run_shown += bool(emitted)
            out.extend(emitted)
        else:
            self._hold(text)
        return out, plus, minus

    def _hold(self, text: str) -> None:
        self._held.append(text)
        cap = RUN_MIN_FOLD + RUN_TAIL if self.budget.large else LONG_RUN
        while len(self._held) > cap:
            self._held.popleft()
            self._dropped += 1
        self._last_kept = False

    def _emit(self, text: str) -> list[str]:
        printed = CLIP_TO if len(text) > LONG_LINE else len(text)  # what _clip leaves of it
        if not self.budget.take(1 + printed // LINE_UNIT):
            self.hidden += 1
            self._last_kept = False
            return []
        lines = [self._clip(text)]
        if self._before is not None and not self.budget.large:
            lines.insert(0, self._clip(self._before))
        elif self._before is not None:
            self.context_dropped = True
        self._before, self._after_change, self._last_kept = None, True, True
        return lines

    def _clip(self, text: str) -> str:
        """A minified bundle's or a lockfile's line can be 60,000 characters: its start says what it is."""
        if len(text) <= LONG_LINE or not self.fold:
            return text
        self.any_folded = True
        return f"{text[:CLIP_TO]} ... [{len(text) - CLIP_TO:,} more characters]"

    def _close_run(self) -> list[str]:
        held, dropped, sign, shown = self._held, self._dropped, self._sign, self._run_shown
        self._held, self._dropped, self._run, self._run_shown = deque(), 0, 0, 0
        if not dropped:
            return [kept for text in held for kept in self._emit(text)]
        folded = dropped + len(held) - RUN_TAIL
        self.any_folded = True
        tail = [kept for text in list(held)[-RUN_TAIL:] for kept in self._emit(text)]
        if not shown and not tail:  # past the budget: the file's line counts it, no marker needed
            self.hidden += folded
            return []
        what = "added lines" if "+" in sign else "removed lines"
        return [elision_marker(folded, what), *tail]

    def _context(self, text: str) -> list[str]:
        out = self._close_run()
        self._sign = ""
        if self.keep_context:
            return [*out, self._clip(text)] if not self.budget.spent else out
        if self._before is not None:  # a context line neither after nor before a change
            self.context_dropped = True
        if self._after_change:
            self._after_change = False
            if not self.budget.large and self._last_kept:
                return [*out, self._clip(text)]
        self._before, self._last_kept = text, False
        return out

    def close(self) -> tuple[list[str], bool]:
        """The lines still held (a run's tail), and whether any changed line was left out
        (`context_dropped` says whether a context line was)."""
        lines = self._close_run()
        if self._before is not None:  # the hunk's last context lines
            self.context_dropped = True
        return lines, self.any_folded or self.hidden > 0
