"""Pure edits of the agents' config documents: add or remove rtk's hook entry, and the Claude
awareness file and its `@RTK.md` import line.

Each agent keeps a list of hook entries under `hooks.<event>`; the user's other keys, their order
and their other hooks are never touched. An rtk entry is recognised by its command
(`[PATH/]rtk hook <agent>` or `PYTHON -m rtk hook <agent>`), so a reinstall from another place
updates the entry instead of adding a second one.
"""
from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

JsonObject = dict[str, Any]
IMPORT_LINE = "@RTK.md"
RTK_MD_MARKER = "<!-- written by `rtk init`; `rtk init --uninstall` removes this file -->"
RTK_MD = f"""{RTK_MD_MARKER}
# rtk

Your shell commands go through rtk: a hook turns `git status` into `rtk git status`. rtk runs the
real command and prints a condensed form of its output (failures, errors with file:line, changed
files, one summary line). The exit code is always the command's own.

When rtk left something out, the output ends with `[full output: rtk recall ID]`. Run
`rtk recall ID` to read the whole output (narrow it with `--grep PATTERN`, `--head N`, `--tail N`).
To run a command with no filtering at all: `rtk proxy COMMAND`.
"""


class ShapeError(ValueError):
    """A config document whose structure rtk cannot add its entry to."""


@dataclass(frozen=True)
class Agent:
    """Where an agent's hook lives and what rtk's entry looks like there."""

    name: str
    global_path: str
    local_path: str | None
    event: str
    make_entry: Callable[[str], JsonObject]
    nested: bool = True
    preamble: JsonObject = field(default_factory=dict)


def _group(matcher: str) -> Callable[[str], JsonObject]:
    return lambda command: {"matcher": matcher, "hooks": [{"type": "command", "command": command}]}


AGENTS: dict[str, Agent] = {
    "claude": Agent("claude", ".claude/settings.json", ".claude/settings.json", "PreToolUse",
                    _group("Bash")),
    "cursor": Agent("cursor", ".cursor/hooks.json", None, "preToolUse",
                    lambda command: {"command": command, "matcher": "Shell"},
                    nested=False, preamble={"version": 1}),
    "gemini": Agent("gemini", ".gemini/settings.json", None, "BeforeTool",
                    _group("run_shell_command")),
    "codex": Agent("codex", ".codex/hooks.json", ".codex/hooks.json", "PreToolUse", _group("Bash")),
    "copilot": Agent("copilot", ".copilot/hooks/rtk-rewrite.json", ".github/hooks/rtk-rewrite.json",
                     "PreToolUse",
                     lambda command: {"type": "command", "command": command, "timeout": 5},
                     nested=False, preamble={"version": 1}),
}


def is_rtk_hook(command: object, agent: str) -> bool:
    """`rtk hook AGENT`, `/abs/path/rtk hook AGENT` or `PYTHON -m rtk hook AGENT`."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if words[-2:] != ["hook", agent]:
        return False
    head = words[:-2]
    return (len(head) == 1 and os.path.basename(head[0]) in ("rtk", "rtk.exe")) or (
        len(head) == 3 and head[1:] == ["-m", "rtk"])


def hook_commands(doc: JsonObject, agent: Agent) -> list[JsonObject]:
    """rtk's hook objects (the dicts holding `command`) in the document, in order."""
    entries = _entries(doc, agent)
    if agent.nested:
        inner = [h for group in entries if isinstance(group, dict)
                 and isinstance(group.get("hooks"), list) for h in group["hooks"]]
        entries = inner
    return [h for h in entries if isinstance(h, dict) and is_rtk_hook(h.get("command"), agent.name)]


def add_hook(doc: JsonObject, agent: Agent, command: str) -> str:
    """Put rtk's entry in `doc` (mutated): `added`, `updated` (other command) or `present`."""
    found = hook_commands(doc, agent)
    if found and all(h["command"] == command for h in found):
        return "present"
    if found:
        for hook in found:
            hook["command"] = command
        return "updated"
    if not doc:
        doc.update(agent.preamble)
    for key, value in agent.preamble.items():
        doc.setdefault(key, value)
    _entries(doc, agent, create=True).append(agent.make_entry(command))
    return "added"


def remove_hook(doc: JsonObject, agent: Agent) -> bool:
    """Take rtk's entries out of `doc` (mutated), and the arrays and objects left empty by it."""
    if not hook_commands(doc, agent):
        return False
    hooks = doc["hooks"]
    kept = [item for item in (_without_rtk(e, agent) for e in hooks[agent.event]) if item is not None]
    if kept:
        hooks[agent.event] = kept
    else:
        del hooks[agent.event]
        if not hooks:
            del doc["hooks"]
    return True


def nothing_left(doc: JsonObject, agent: Agent) -> bool:
    """True when only what rtk itself would have created remains: the file can go."""
    return not doc or doc == agent.preamble


def _without_rtk(item: Any, agent: Agent) -> Any:
    """The entry with rtk's hooks taken out; None when nothing of it is left."""
    if not agent.nested:
        return None if isinstance(item, dict) and is_rtk_hook(item.get("command"), agent.name) else item
    if not isinstance(item, dict) or not isinstance(item.get("hooks"), list):
        return item
    inner = [h for h in item["hooks"]
             if not (isinstance(h, dict) and is_rtk_hook(h.get("command"), agent.name))]
    if len(inner) == len(item["hooks"]):
        return item
    return {**item, "hooks": inner} if inner else None


def _entries(doc: JsonObject, agent: Agent, create: bool = False) -> list[Any]:
    hooks = doc.get("hooks")
    if hooks is None and create:
        hooks = doc["hooks"] = {}
    if hooks is None:
        return []
    if not isinstance(hooks, dict):
        raise ShapeError(f"'hooks' is {_kind(hooks)}, expected an object")
    entries = hooks.get(agent.event)
    if entries is None and create:
        entries = hooks[agent.event] = []
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise ShapeError(f"'hooks.{agent.event}' is {_kind(entries)}, expected an array")
    return entries


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    return names.get(type(value), "null" if value is None else "a number")


def add_import(text: str) -> str:
    """CLAUDE.md with the `@RTK.md` line, added once at the end."""
    if any(line.strip() == IMPORT_LINE for line in text.splitlines()):
        return text
    separator = "" if not text or text.endswith("\n") else "\n"
    return f"{text}{separator}{IMPORT_LINE}\n"


def remove_import(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if line.strip() != IMPORT_LINE)
