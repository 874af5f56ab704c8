"""`rtk discover`: which commands the agent ran without rtk, what they cost, what rtk would save.

`rtk gain` only sees runs that went through rtk; the agent's own transcripts see everything. Each
Bash call is judged by the rewrite engine exactly as a hook would judge it (routed, or left alone
and why), its output counted with tiktoken, and a routed one replayed through the filter rtk would
have used, so "would have saved" is measured on the agent's real output, not estimated.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from rtk.agent.audit_report import command_key
from rtk.gain.transcripts import ShellCall
from rtk.gain.units import count

ROUTED_CODES = (0, 3)  # spec/rewrite.md: rewritten (allowed, or the host asks)


@dataclass
class Group:
    """Calls of one command (`git status`, `ls`): how many, and their output tokens raw and filtered."""

    key: str
    calls: int = 0
    tokens: int = 0
    filtered_tokens: int = 0
    example: str = ""

    def add(self, call: ShellCall, tokens: int, filtered: int) -> None:
        self.calls += 1
        self.tokens += tokens
        self.filtered_tokens += filtered
        self.example = self.example or call.command

    def as_dict(self) -> dict[str, object]:
        return {"command": self.key, "calls": self.calls, "output_tokens": self.tokens,
                "tokens_with_rtk": self.filtered_tokens, "saved_tokens": self.tokens - self.filtered_tokens,
                "example": self.example}


@dataclass
class Discovery:
    sessions: set[str] = field(default_factory=set)
    calls: int = 0
    through_rtk: int = 0
    routable: dict[str, Group] = field(default_factory=dict)
    unhandled: dict[str, Group] = field(default_factory=dict)

    def as_dict(self, limit: int) -> dict[str, object]:
        return {"sessions": len(self.sessions), "commands": self.calls, "through_rtk": self.through_rtk,
                "routable": [g.as_dict() for g in ranked(self.routable)[:limit]],
                "routable_total": _totals(self.routable),
                "unhandled": [g.as_dict() for g in ranked(self.unhandled)[:limit]],
                "unhandled_total": _totals(self.unhandled)}


def ranked(groups: dict[str, Group]) -> list[Group]:
    return sorted(groups.values(), key=lambda g: (-g.tokens, -g.calls, g.key))


def _totals(groups: dict[str, Group]) -> dict[str, int]:
    return {"calls": sum(g.calls for g in groups.values()), "output_tokens": sum(g.tokens for g in groups.values()),
            "tokens_with_rtk": sum(g.filtered_tokens for g in groups.values())}


@dataclass
class Window:
    """`--since`: how far back sessions count (`start` None: all of them), and how to say it."""

    start: datetime | None
    words: str
    days: float | None = None  # the span in days when it was given as one (JSON `since_days`)


def parse_window(text: str, now: datetime | None = None) -> Window:
    """`30` (days, as before; 0 = all), `7d`, `12h`, `2w`, or a date: `rtk gain --since`'s forms.
    ValueError when it is none of them."""
    now = now or datetime.now(UTC)
    spec = text.strip()
    if spec.isdigit():
        spec = f"{spec}d"
    unit_days = {"h": 1 / 24, "d": 1, "w": 7}
    if spec[:-1].isdigit() and spec[-1:] in unit_days:
        days = int(spec[:-1]) * unit_days[spec[-1]]
        if days == 0:
            return Window(None, "all time", 0)
        return Window(now - timedelta(days=days), f"the last {_span(spec)}", days)
    from rtk.gain.report import parse_since

    start = datetime.fromisoformat(parse_since(text, now))
    return Window(start, f"since {start:%Y-%m-%d %H:%M} UTC")


def _span(spec: str) -> str:
    count, unit = int(spec[:-1]), {"h": "hour", "d": "day", "w": "week"}[spec[-1]]
    return f"{count} {unit}{'s' if count != 1 else ''}"


def in_scope(call: ShellCall, window: Window, project: str | None) -> bool:
    if window.start is not None and call.when is not None and call.when < window.start:
        return False
    return project is None or project.lower() in call.cwd.lower()


def discover(calls: list[ShellCall], count: Callable[[str], int],
             replay: Callable[[str, str, bool], str]) -> Discovery:
    """`count(text) -> tokens`; `replay(command, output, failed) -> what rtk would print`."""
    from rtk.agent.rewrite import decide

    found = Discovery()
    for call in calls:
        found.sessions.add(call.session)
        found.calls += 1
        if call.command.lstrip().startswith("rtk "):
            found.through_rtk += 1
            continue
        decision = decide(call.command, None)
        bucket = found.routable if decision.code in ROUTED_CODES else found.unhandled
        key = command_key(call.command)
        tokens = count(call.output)
        filtered = count(replay(call.command, call.output, call.failed)) if bucket is found.routable else tokens
        bucket.setdefault(key, Group(key)).add(call, tokens, min(filtered, tokens))
    return found


def render_text(data: dict[str, object], source: str, window: Window) -> str:
    span = window.words
    lines = [f"rtk discover: {data['commands']:,} shell commands in {data['sessions']:,} sessions, {span} ({source})",
             f"already through rtk: {data['through_rtk']:,}"]
    for title, key in (("ran raw, rtk would route them", "routable"), ("not handled by rtk", "unhandled")):
        total: dict[str, int] = data[f"{key}_total"]  # type: ignore[assignment]
        if not total["calls"]:
            continue
        saved = total["output_tokens"] - total["tokens_with_rtk"]
        head = f"{title}: {count(total['calls'], 'call')}, {total['output_tokens']:,} output tokens"
        lines.append(head + (f", {saved:,} would have been saved" if key == "routable" else ""))
        for group in data[key]:  # type: ignore[attr-defined]
            tail = f" -> {group['tokens_with_rtk']:,}" if key == "routable" else ""
            lines.append(f"  {group['command']:<24} x{group['calls']:<5} {group['output_tokens']:>9,} tokens{tail}")
    return "\n".join(lines) + "\n"
