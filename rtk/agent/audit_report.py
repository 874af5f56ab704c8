"""`rtk hook-audit`: what the hooks decided, read back from hook-audit.log.

People turn auditing on to answer "is the hook doing anything, and what does it leave alone?":
so the summary counts decisions per action and names the commands most often rewritten and most
often left to the host, by their leading words (`git status`, `ls`), over the last N days.
"""
from __future__ import annotations

import os
import time
from collections import Counter

LOG_NAME = "hook-audit.log"
SKIP_PREFIX = "skip:"


class Entry(tuple):  # type: ignore[type-arg]
    """One audit line: (epoch seconds, action, original command, rewritten command)."""

    __slots__ = ()
    when: float = property(lambda self: self[0])  # type: ignore[assignment]
    action: str = property(lambda self: self[1])  # type: ignore[assignment]
    original: str = property(lambda self: self[2])  # type: ignore[assignment]


def log_path() -> str:
    from rtk import paths

    return os.path.join(paths.audit_dir_path(), LOG_NAME)


def split_fields(line: str) -> list[str]:
    """Fields separated by ` | `, with the writer's escapes (`\\|`, `\\\\`, `\\n`, `\\r`) undone."""
    fields, current, i = [], [], 0
    unescape = {"|": "|", "\\": "\\", "n": "\n", "r": "\r", "e": "\x1b"}
    while i < len(line):
        c = line[i]
        if c == "\\" and i + 1 < len(line):
            current.append(unescape.get(line[i + 1], "\\" + line[i + 1]))
            i += 2
        elif line.startswith(" | ", i):
            fields.append("".join(current))
            current, i = [], i + 3
        else:
            current.append(c)
            i += 1
    fields.append("".join(current))
    return fields


def parse_line(line: str) -> Entry | None:
    fields = split_fields(line.rstrip("\n"))
    if len(fields) < 3:
        return None
    try:
        when = time.mktime(time.strptime(fields[0], "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return None
    return Entry((when, fields[1], fields[2], fields[3] if len(fields) > 3 else ""))


def read_entries(path: str, since_days: int, now: float | None = None) -> list[Entry]:
    bound = (now or time.time()) - since_days * 86400 if since_days > 0 else None
    with open(path, encoding="utf-8", errors="replace") as log:
        entries = (parse_line(line) for line in log)
        return [e for e in entries if e is not None and (bound is None or e.when >= bound)]


def command_key(command: str) -> str:
    """`git -C x status -s` -> `git status`; `ls -la src` -> `ls`: what people recognise."""
    words = command.split()
    if not words:
        return "(empty)"
    key = [os.path.basename(words[0])]
    for word in words[1:4]:
        if not word.startswith("-") and word.replace("-", "").isalnum():
            key.append(word)
            break
    return " ".join(key)


def summarize(entries: list[Entry], top: int = 10) -> dict[str, object]:
    actions = Counter(e.action for e in entries)
    rewritten = Counter(command_key(e.original) for e in entries if not e.action.startswith(SKIP_PREFIX))
    skipped = Counter(command_key(e.original) for e in entries if e.action.startswith(SKIP_PREFIX))
    return {"decisions": len(entries), "actions": dict(actions.most_common()),
            "top_rewritten": rewritten.most_common(top), "top_skipped": skipped.most_common(top)}


def render_text(summary: dict[str, object], path: str, since_days: int) -> str:
    span = f"the last {since_days} days" if since_days > 0 else "all time"
    total = int(summary["decisions"])  # type: ignore[call-overload]
    lines = [f"hook audit: {total:,} decisions in {span} ({path})"]
    actions: dict[str, int] = summary["actions"]  # type: ignore[assignment]
    width = max((len(a) for a in actions), default=0)
    lines += [f"  {action:<{width}}  {count:>6,}  {100 * count / total:5.1f}%" for action, count in actions.items()]
    for title, key in (("top rewritten", "top_rewritten"), ("top left to the host", "top_skipped")):
        ranked: list[tuple[str, int]] = summary[key]  # type: ignore[assignment]
        if ranked:
            lines.append(f"{title}: " + ", ".join(f"{name} x{count}" for name, count in ranked))
    return "\n".join(lines) + "\n"
