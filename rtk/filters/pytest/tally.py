"""Counts that end up in the closing lines: the stats line, warnings by category, progress."""
from __future__ import annotations

from collections import Counter

from rtk.filters.pytest import patterns as p

PROGRESS_WORDS = {"F": "failed", ".": "passed", "s": "skipped", "x": "xfailed", "E": "error",
                  "X": "xpassed", "R": "rerun"}


class WarningTally:
    """Reads the `warnings summary` section: location lines, then the indented message.

    Each distinct message is printed once with its count, then where it was raised
    (`UserWarning: text (x6) at tests/a.py:12 (x4), tests/b.py:3`): the message is what the agent
    acts on, and one message raised from many lines would otherwise repeat a long text per line.
    A message raised at one place keeps pytest's own shape (`path:12: UserWarning: text (x6)`).
    Paths under the rootdir are made relative."""

    MAX_MESSAGES = 30
    MAX_PLACES = 30  # locations listed per message; the rest are counted

    def __init__(self) -> None:
        self.by_category: Counter[str] = Counter()
        self.messages: dict[str, Counter[str]] = {}
        self.rootdir = ""
        self._pending = 0
        self._want_message = False

    def add(self, line: str) -> None:
        if not line or line.startswith("-- Docs: "):
            return
        if line.startswith(" "):
            if self._want_message:
                self._count(line)
            return
        if (m := p.WARN_COUNT_RE.match(line)) is not None:
            self._pending += int(m.group(2))
        elif "::" in line.split(" ", 1)[0] or line.endswith(".py"):
            self._pending += 1
        else:  # a warning raised outside any test: printed without location, not indented
            self._count(line)
            return
        self._want_message = True

    def _count(self, message: str) -> None:
        m = p.WARN_CATEGORY_RE.search(message)
        count = max(self._pending, 1)
        self.by_category[m.group(1).rpartition(".")[2] if m else "other"] += count
        text = message.strip()
        if self.rootdir and text.startswith(self.rootdir + "/"):
            text = text[len(self.rootdir) + 1:]
        place, text = _split_place(text)
        self.messages.setdefault(text, Counter())[place] += count
        self._pending = 0
        self._want_message = False

    def line(self, total: int | None) -> str | None:
        counted = sum(self.by_category.values())
        total = total if total is not None else counted
        if not total:
            return None
        noun = "warning" if total == 1 else "warnings"
        parts = ", ".join(f"{name} x{count}" for name, count in
                          sorted(self.by_category.items(), key=lambda kv: (-kv[1], kv[0])))
        return f"{total} {noun}: {parts}" if parts else f"{total} {noun}"

    def message_lines(self) -> tuple[list[str], bool]:
        """One line per distinct message, and whether something was left out (past the caps)."""
        ranked = sorted(self.messages.items(), key=lambda kv: -sum(kv[1].values()))
        out, cut = [], False
        for text, places in ranked[:self.MAX_MESSAGES]:
            line, dropped = self._message_line(text, places)
            out.append(line)
            cut = cut or dropped
        rest = len(ranked) - self.MAX_MESSAGES
        if rest > 0:
            out.append(f"  ... {rest:,} more distinct warning messages")
        return out, cut or rest > 0

    def _message_line(self, text: str, places: Counter[str]) -> tuple[str, bool]:
        total = sum(places.values())
        times = f" (x{total})" if total > 1 else ""
        if len(places) == 1:
            place = next(iter(places))
            return (f"  {place}: {text}{times}" if place else f"  {text}{times}"), False
        shown = [f"{place} (x{n})" if n > 1 else place for place, n in list(places.items())[:self.MAX_PLACES]]
        rest = len(places) - len(shown)
        more = f", +{rest} more places" if rest > 0 else ""
        return f"  {text}{times} at {', '.join(shown)}{more}", rest > 0


def _split_place(text: str) -> tuple[str, str]:
    """`tests/a.py:12: UserWarning: text` -> (`tests/a.py:12`, `UserWarning: text`); a message
    without a location -> ("", message)."""
    m = p.WARN_PLACE_RE.match(text)
    return (m.group(1), m.group(2)) if m is not None else ("", text)


def split_stats(counts: str) -> tuple[list[str], int | None]:
    """`3 failed, 1 passed, 2 warnings` -> (['3 failed', '1 passed'], 2): warnings go on their own line."""
    kept, warnings = [], None
    for part in counts.split(", "):
        number, _, word = part.partition(" ")
        if word in ("warning", "warnings") and number.isdigit():
            warnings = int(number)
        else:
            kept.append(part)
    return kept, warnings


def summary_line(stats: tuple[str, str] | None, chars: Counter[str]) -> str | None:
    """The closing line: pytest's own counts (warnings aside), else those read off the progress."""
    if stats is not None:
        counts, duration = stats
        kept, _warnings = split_stats(counts)
        prefix = "" if counts.endswith(" collected") else "pytest: "  # --collect-only: as printed
        return f"{prefix}{', '.join(kept) or 'no tests ran'} in {duration}"
    if sum(chars.values()):
        return f"pytest: {progress_counts(chars)} (counted from the progress output)"
    return None


def no_tests_line(stats: tuple[str, str] | None) -> str:
    """Exit 5's one line, with what pytest said about it (`3 deselected`); with nothing to add,
    pytest's own `no tests ran in 0.01s` (no longer than what it replaces, however it streams)."""
    if stats is not None:
        kept, _ = split_stats(stats[0])
        detail = ", ".join(part for part in kept if part != "no tests ran")
        if detail:
            return f"pytest: no tests collected ({detail})"
        return f"no tests ran in {stats[1]}"
    return "pytest: no tests collected"


def progress_counts(chars: Counter[str]) -> str:
    """`-qq` prints no stats line: the counts are read off the progress characters instead."""
    parts = [f"{chars[c]} {word}" for c, word in PROGRESS_WORDS.items() if chars.get(c)]
    return ", ".join(parts) if parts else "no tests ran"


class SkipGroups:
    """`SKIPPED [2] tests/a.py:12: Requires Windows` lines (-rs), grouped by reason:
    `SKIPPED [34] Requires Windows: tests/a.py:12,40 tests/b.py:7`. Every location and count stays."""

    LIMIT = 1000  # entries held before the groups are printed anyway

    def __init__(self) -> None:
        self._groups: dict[str, dict[str, list[str]]] = {}
        self._counts: Counter[str] = Counter()
        self._held = 0

    def add(self, text: str) -> list[str]:
        m = p.SKIP_RE.match(text)
        if m is None:
            return [*self.flush(), text]
        count, path, line, reason = m.groups()
        self._groups.setdefault(reason, {}).setdefault(path, []).append(line)
        self._counts[reason] += int(count)
        self._held += 1
        return self.flush() if self._held >= self.LIMIT else []

    def flush(self) -> list[str]:
        out = []
        for reason, by_path in self._groups.items():
            where = " ".join(f"{path}:{','.join(lines)}" for path, lines in by_path.items())
            out.append(f"SKIPPED [{self._counts[reason]}] {reason}: {where}")
        self._groups.clear()
        self._counts.clear()
        self._held = 0
        return out
