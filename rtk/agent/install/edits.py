"""Pure edits of the agents' config documents: add or remove rtk's hook entry, the Claude
awareness file and its `@RTK.md` import line, and Gemini's rtk-form twins of allow rules.

Each agent keeps a list of hook entries under `hooks.<event>`; the user's other keys, their order
and their other hooks are never touched. An rtk entry is recognised by its command
(`[PATH/]rtk hook <agent>`, `PYTHON -m rtk hook <agent>`, or upstream's legacy shell hook
`.../rtk-rewrite.sh`), so a reinstall from another place updates the entry instead of adding a
second one. An rtk entry of the wrong shape (another matcher or type, an old event name, a legacy
script) is not "already installed": it is replaced by the current entry.
"""
from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
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
    matcher: str = ""
    config_env: tuple[str, str] | None = None  # (variable, file inside it) overriding global_path
    old_events: tuple[str, ...] = ()

    def global_file(self, home: Path) -> Path:
        """The global file, in the directory the agent's own variable names when it is set."""
        if self.config_env and (base := os.environ.get(self.config_env[0])):
            return Path(base).expanduser() / self.config_env[1]
        return home / self.global_path

    def events(self) -> tuple[str, ...]:
        return (self.event, *self.old_events)


def _group(matcher: str) -> Callable[[str], JsonObject]:
    return lambda command: {"matcher": matcher, "hooks": [{"type": "command", "command": command}]}


AGENTS: dict[str, Agent] = {
    "claude": Agent("claude", ".claude/settings.json", ".claude/settings.json", "PreToolUse",
                    _group("Bash"), matcher="Bash", config_env=("CLAUDE_CONFIG_DIR", "settings.json")),
    "cursor": Agent("cursor", ".cursor/hooks.json", None, "preToolUse",
                    lambda command: {"command": command, "matcher": "Shell"},
                    nested=False, preamble={"version": 1}),
    "gemini": Agent("gemini", ".gemini/settings.json", None, "BeforeTool",
                    _group("run_shell_command"), matcher="run_shell_command"),
    "codex": Agent("codex", ".codex/hooks.json", ".codex/hooks.json", "PreToolUse", _group("Bash"),
                   matcher="Bash", config_env=("CODEX_HOME", "hooks.json")),
    # camelCase `preToolUse` selects Copilot CLI's own payload; its field is `timeoutSec`
    "copilot": Agent("copilot", ".copilot/hooks/rtk-rewrite.json", ".github/hooks/rtk-rewrite.json",
                     "preToolUse",
                     lambda command: {"type": "command", "command": command, "timeoutSec": 5},
                     nested=False, preamble={"version": 1},
                     config_env=("COPILOT_HOME", "hooks/rtk-rewrite.json"), old_events=("PreToolUse",)),
}
LEGACY_SCRIPT = "rtk-rewrite.sh"


def legacy_script(command: object) -> str | None:
    """The script word of upstream's shell hook (`~/.claude/hooks/rtk-rewrite.sh`,
    `bash ./hooks/rtk-rewrite.sh`), else None."""
    if not isinstance(command, str) or LEGACY_SCRIPT not in command:
        return None
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return next((w for w in words if os.path.basename(w) == LEGACY_SCRIPT), None)


def is_rtk_hook(command: object, agent: str) -> bool:
    """`rtk hook AGENT`, `/abs/path/rtk hook AGENT`, `PYTHON -m rtk hook AGENT`, or upstream's
    legacy `rtk-rewrite.sh`."""
    if not isinstance(command, str):
        return False
    if legacy_script(command) is not None:
        return True
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
    return [hook for event in agent.events() for _, hook in _rtk_hooks(doc, agent, event)]


def _rtk_hooks(doc: JsonObject, agent: Agent, event: str) -> list[tuple[JsonObject, JsonObject]]:
    """(entry, hook) for each rtk hook under `hooks.<event>`: the entry is the group for nested
    documents, the hook itself for flat ones."""
    found = []
    for entry in _entries(doc, agent, event=event):
        if not isinstance(entry, dict):
            continue
        inner = entry.get("hooks") if agent.nested else [entry]
        for hook in inner if isinstance(inner, list) else []:
            if isinstance(hook, dict) and is_rtk_hook(hook.get("command"), agent.name):
                found.append((entry, hook))
    return found


def _in_shape(agent: Agent, entry: JsonObject, hook: JsonObject) -> bool:
    """Our current entry except perhaps the program: then only the command needs updating."""
    if legacy_script(hook.get("command")) is not None:
        return False
    if agent.nested:
        return entry.get("matcher") == agent.matcher and hook.get("type") == "command"
    return hook == agent.make_entry(hook["command"])


def legacy_scripts(doc: JsonObject, agent: Agent) -> list[str]:
    """The script paths (as written) of upstream's legacy hook entries in the document."""
    return [script for hook in hook_commands(doc, agent) if (script := legacy_script(hook.get("command")))]


def add_hook(doc: JsonObject, agent: Agent, command: str) -> str:
    """Put rtk's entry in `doc` (mutated): `added`, `updated` (another program, or an entry of
    the wrong shape replaced) or `present`."""
    found = _rtk_hooks(doc, agent, agent.event)
    stale = any(_rtk_hooks(doc, agent, event) for event in agent.old_events)
    if found and not stale and len(found) == 1 and _in_shape(agent, *found[0]):
        hook = found[0][1]
        if hook["command"] == command:
            return "present"
        hook["command"] = command
        return "updated"
    replaced = remove_hook(doc, agent)
    if not doc:
        doc.update(agent.preamble)
    for key, value in agent.preamble.items():
        doc.setdefault(key, value)
    _entries(doc, agent, create=True).append(agent.make_entry(command))
    return "updated" if replaced else "added"


def remove_hook(doc: JsonObject, agent: Agent) -> bool:
    """Take rtk's entries out of `doc` (mutated), and the arrays and objects left empty by it."""
    if not hook_commands(doc, agent):
        return False
    hooks = doc["hooks"]
    for event in agent.events():
        if event not in hooks or not _rtk_hooks(doc, agent, event):
            continue
        kept = [item for item in (_without_rtk(e, agent) for e in hooks[event]) if item is not None]
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]
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


def _entries(doc: JsonObject, agent: Agent, create: bool = False, event: str | None = None) -> list[Any]:
    event = event or agent.event
    hooks = doc.get("hooks")
    if hooks is None and create:
        hooks = doc["hooks"] = {}
    if hooks is None:
        return []
    if not isinstance(hooks, dict):
        raise ShapeError(f"'hooks' is {_kind(hooks)}, expected an object")
    entries = hooks.get(event)
    if entries is None and create:
        entries = hooks[event] = []
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise ShapeError(f"'hooks.{event}' is {_kind(entries)}, expected an array")
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


GEMINI_SHELL = "run_shell_command("


def gemini_twins(doc: JsonObject) -> list[str]:
    """The `run_shell_command(rtk P)` twin of each `run_shell_command(P)` in tools.allowed that
    lacks one: Gemini checks its policy on the rewritten command, so without the twin an allowed
    command would turn into a denied one."""
    allowed = _allowed(doc)
    twins = []
    for entry in allowed:
        if isinstance(entry, str) and entry.startswith(GEMINI_SHELL) and entry.endswith(")"):
            inner = entry[len(GEMINI_SHELL):-1].strip()
            twin = f"{GEMINI_SHELL}rtk {inner})"
            if inner and not inner.startswith("rtk") and twin not in allowed and twin not in twins:
                twins.append(twin)
    return twins


def add_twins(doc: JsonObject) -> int:
    twins = gemini_twins(doc)
    if twins:
        _allowed(doc).extend(twins)
    return len(twins)


def remove_twins(doc: JsonObject) -> int:
    """Take out the twins rtk adds (an rtk-form rule whose plain form is also allowed)."""
    allowed = _allowed(doc)
    plain = {e for e in allowed if isinstance(e, str) and not e.startswith(GEMINI_SHELL + "rtk ")}
    ours = [e for e in allowed if isinstance(e, str) and e.startswith(GEMINI_SHELL + "rtk ")
            and GEMINI_SHELL + e[len(GEMINI_SHELL) + 4:] in plain]
    for entry in ours:
        allowed.remove(entry)
    return len(ours)


def _allowed(doc: JsonObject) -> list[Any]:
    tools = doc.get("tools")
    allowed = tools.get("allowed") if isinstance(tools, dict) else None
    return allowed if isinstance(allowed, list) else []
