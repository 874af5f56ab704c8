"""Reading the shell commands an agent ran, with their outputs, from its host's session files.

Claude Code keeps one JSONL file per session under `~/.claude/projects/<encoded cwd>/`
(`$CLAUDE_CONFIG_DIR/projects` when set): `assistant` lines carry `tool_use` blocks (name `Bash`,
`input.command`), `user` lines the matching `tool_result` blocks (`tool_use_id`, `content` as a
string or a list of text blocks, `is_error`). Lines that are not JSON, or not of that shape, are
passed over: the files are written by another program and change between its versions.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True)
class ShellCall:
    """One shell command an agent ran and what it read back."""

    command: str
    output: str
    failed: bool
    cwd: str
    when: datetime | None
    session: str


def claude_projects_dir() -> str:
    base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return os.path.join(base, "projects")


def session_files(root: str) -> list[str]:
    found = []
    for project in sorted(os.listdir(root)):
        folder = os.path.join(root, project)
        if os.path.isdir(folder):
            found += [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if f.endswith(".jsonl")]
    return found


def read_session(path: str) -> Iterator[ShellCall]:
    """The session's Bash calls in order, each paired with its result (a call without one: no
    output, as when the session was cut off)."""
    pending: dict[str, tuple[str, str, datetime | None]] = {}
    results: dict[str, tuple[str, bool]] = {}
    order: list[str] = []
    session = os.path.splitext(os.path.basename(path))[0]
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            entry = _json(line)
            for block in _blocks(entry):
                if block.get("type") == "tool_use" and block.get("name") == "Bash":
                    command = (block.get("input") or {}).get("command")
                    if isinstance(command, str) and isinstance(block.get("id"), str):
                        pending[block["id"]] = (command, str(entry.get("cwd") or ""), _when(entry))
                        order.append(block["id"])
                elif block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
                    results[block["tool_use_id"]] = (_text(block.get("content")), bool(block.get("is_error")))
    for use_id in order:
        command, cwd, when = pending[use_id]
        output, failed = results.get(use_id, ("", False))
        yield ShellCall(command, output, failed, cwd, when, session)


def _json(line: str) -> dict:  # type: ignore[type-arg]
    try:
        value = json.loads(line)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _blocks(entry: dict) -> list[dict]:  # type: ignore[type-arg]
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def _when(entry: dict) -> datetime | None:  # type: ignore[type-arg]
    stamp = entry.get("timestamp")
    if not isinstance(stamp, str):
        return None
    try:
        parsed = datetime.fromisoformat(stamp)  # 3.11 reads a trailing Z
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
