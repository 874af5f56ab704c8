"""Pure edits of the agents' hook documents: add or remove rtk's hook entries.

Each agent keeps a list of hook entries under `hooks.<event>`; rtk writes one entry under each of
the agent's events (Claude: PreToolUse for the runners, PostToolUse for the commands that read).
The user's other keys, their order and their other hooks are never touched. An rtk entry is recognised by its command
(`[PATH/]rtk hook <agent>`, `PYTHON -m rtk hook <agent>`, or upstream's legacy shell hook
`.../rtk-rewrite.sh`), so a reinstall from another place updates the entry instead of adding a
second one. An rtk entry of the wrong shape (another matcher or type, an old event name, a legacy
script) is not "already installed": it is replaced by the current entry, in its place (so the
entries around it keep their order), and an event missing from an older install is added.
"""
from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

JsonObject = dict[str, Any]
class ShapeError(ValueError):
    """A config document whose structure rtk cannot add its entry to."""


@dataclass(frozen=True)
class Agent:
    """Where an agent's hook lives and what rtk's entries look like there."""

    name: str
    global_path: str
    local_path: str | None
    events: tuple[str, ...]  # rtk writes one entry under each
    make_entry: Callable[[str], JsonObject]
    nested: bool = True
    preamble: JsonObject = field(default_factory=dict)
    matcher: str = ""
    config_env: tuple[str, str] | None = None  # (variable, file inside it) overriding global_path
    old_events: tuple[str, ...] = ()  # rtk entries there are taken out
    legacy_files: tuple[str, ...] = ()  # upstream's old hook scripts, beside the hook file
    top_level: bool = False  # the events are the document's own keys (Droid's hooks.json), not under `hooks`
    # event -> its own matcher ("" for none: every call of the event), where it is not `matcher`
    event_matchers: tuple[tuple[str, str], ...] = ()

    def matcher_for(self, event: str) -> str:
        return dict(self.event_matchers).get(event, self.matcher)

    def entry(self, event: str, command: str) -> JsonObject:
        """rtk's entry under `event`: the agent's usual one, or a group with the event's matcher."""
        if event not in dict(self.event_matchers):
            return self.make_entry(command)
        matcher = self.matcher_for(event)
        hooks = {"hooks": [{"type": "command", "command": command}]}
        return {"matcher": matcher, **hooks} if matcher else hooks

    def global_file(self, home: Path) -> Path:
        """The global file, in the directory the agent's own variable names when it is set."""
        if self.config_env and (base := os.environ.get(self.config_env[0])):
            return Path(base).expanduser() / self.config_env[1]
        return home / self.global_path

    def all_events(self) -> tuple[str, ...]:
        return (*self.events, *self.old_events)


def _group(matcher: str) -> Callable[[str], JsonObject]:
    return lambda command: {"matcher": matcher, "hooks": [{"type": "command", "command": command}]}


COPILOT_TIMEOUT = 30  # seconds: rtk reads, filters and stores up to a 5 MB saved output
AGENTS: dict[str, Agent] = {
    # PostToolUse also for Read; PreCompact, SessionStart and Interrupt (a rewind): session memory
    # (rtk/session/). Claude Code 2.1.197 and 2.1.337 both run the other hooks with Interrupt listed.
    "claude": Agent("claude", ".claude/settings.json", ".claude/settings.json",
                    ("PreToolUse", "PostToolUse", "PreCompact", "SessionStart", "Interrupt"),
                    _group("Bash"), matcher="Bash", config_env=("CLAUDE_CONFIG_DIR", "settings.json"),
                    legacy_files=("hooks/rtk-rewrite.sh",),
                    event_matchers=(("PostToolUse", "Bash|Read"), ("PreCompact", ""), ("SessionStart", ""),
                                    ("Interrupt", ""))),
    "cursor": Agent("cursor", ".cursor/hooks.json", None, ("preToolUse",),
                    lambda command: {"command": command, "matcher": "Shell"},
                    nested=False, preamble={"version": 1}, legacy_files=("hooks/rtk-rewrite.sh",)),
    "gemini": Agent("gemini", ".gemini/settings.json", None, ("BeforeTool",),
                    _group("run_shell_command"), matcher="run_shell_command"),
    "codex": Agent("codex", ".codex/hooks.json", ".codex/hooks.json", ("PreToolUse",), _group("Bash"),
                   matcher="Bash", config_env=("CODEX_HOME", "hooks.json")),
    # the post path only (spec/hooks.md); camelCase `postToolUse` selects Copilot CLI's own payload
    "copilot": Agent("copilot", ".copilot/hooks/rtk-rewrite.json", ".github/hooks/rtk-rewrite.json",
                     ("postToolUse",),
                     lambda command: {"type": "command", "command": command, "timeoutSec": COPILOT_TIMEOUT},
                     nested=False, preamble={"version": 1}, config_env=("COPILOT_HOME", "hooks/rtk-rewrite.json"),
                     old_events=("preToolUse", "PreToolUse", "PostToolUse")),
    # Factory Droid reads `hooks.json` of ~/.factory and of a project's .factory, events at the top
    # (where the Rust rtk writes its entry too)
    "droid": Agent("droid", ".factory/hooks.json", ".factory/hooks.json", ("PreToolUse",), _group("Execute"),
                   matcher="Execute", config_env=("FACTORY_HOME_OVERRIDE", ".factory/hooks.json"), top_level=True),
    # Trae: the Rust rtk's entry (docs/hooks.md: followed from its code, Trae itself not run here)
    "trae": Agent("trae", ".trae/hooks.json", ".trae/hooks.json", ("PreToolUse",),
                  lambda command: {"matcher": "RunCommand", "hooks": [{"type": "command", "command": command,
                                                                        "timeout": 30}]},
                  matcher="RunCommand", preamble={"version": 1}),
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
    return [hook for event in agent.all_events() for _, hook in _rtk_hooks(doc, agent, event)]


def missing_events(doc: JsonObject, agent: Agent) -> list[str]:
    """The events an rtk install here lacks or holds in an older shape (an install older than the
    post path or session memory, a pre hook left under an old event): empty when rtk is not
    installed at all or fully."""
    if not hook_commands(doc, agent):
        return []
    return [event for event in agent.events
            if not any(_in_shape(agent, entry, hook, event) for entry, hook in _rtk_hooks(doc, agent, event))]


def _rtk_hooks(doc: JsonObject, agent: Agent, event: str) -> list[tuple[JsonObject, JsonObject]]:
    """(entry, hook) for each rtk hook under `hooks.<event>`: the entry is the group for nested
    documents, the hook itself for flat ones."""
    found = []
    for entry in _entries(doc, agent, event=event):
        if not isinstance(entry, dict):
            continue
        inner = entry.get("hooks") if agent.nested else [entry]
        for hook in inner if isinstance(inner, list) else []:
            if rtk_entry(hook, agent.name):
                found.append((entry, hook))
    return found


def rtk_entry(hook: object, agent: str) -> bool:
    """A hook object of rtk's: a command entry (no `type`, or `"command"`) running rtk's hook. A
    `type: "prompt"` entry is the user's whatever its command says (the host never runs it)."""
    return isinstance(hook, dict) and hook.get("type", "command") == "command" \
        and is_rtk_hook(hook.get("command"), agent)


def _in_shape(agent: Agent, entry: JsonObject, hook: JsonObject, event: str = "") -> bool:
    """Our current entry except perhaps the program: then only the command needs updating."""
    if legacy_script(hook.get("command")) is not None:
        return False
    if agent.nested:
        return entry.get("matcher", "") == agent.matcher_for(event) and hook.get("type") == "command"
    return hook == agent.make_entry(hook["command"])


def legacy_scripts(doc: JsonObject, agent: Agent) -> list[str]:
    """The script paths (as written) of upstream's legacy hook entries in the document."""
    return [script for hook in hook_commands(doc, agent) if (script := legacy_script(hook.get("command")))]


def add_hook(doc: JsonObject, agent: Agent, command: str) -> str:
    """Put rtk's entries in `doc` (mutated): `added`, `updated` (another program, an entry of the
    wrong shape replaced, an event added to an older install) or `present`."""
    if not doc:
        doc.update(agent.preamble)
    outcomes = {_place(doc, agent, event, command) for event in agent.events}
    if _drop_old_events(doc, agent):
        outcomes.add("updated")
    if outcomes == {"present"}:
        return "present"
    for key, value in agent.preamble.items():
        doc.setdefault(key, value)
    return "added" if outcomes == {"added"} else "updated"


def _place(doc: JsonObject, agent: Agent, event: str, command: str) -> str:
    """rtk's entry under one event: kept, its command updated, put in place of rtk's entries of
    another shape (where the first of them was), or appended."""
    found = _rtk_hooks(doc, agent, event)
    if len(found) == 1 and _in_shape(agent, *found[0], event):
        hook = found[0][1]
        if hook["command"] == command:
            return "present"
        hook["command"] = command
        return "updated"
    entries = _entries(doc, agent, create=True, event=event)
    if not found:
        entries.append(agent.entry(event, command))
        return "added"
    placed: list[Any] = []
    done = False
    for item in entries:
        rest = _without_rtk(item, agent)
        if rest is not None:
            placed.append(rest)
        if rest is not item and not done:
            placed.append(agent.entry(event, command))
            done = True
    entries[:] = placed
    return "updated"


def _drop_old_events(doc: JsonObject, agent: Agent) -> bool:
    """Take rtk's entries out of the events rtk no longer writes."""
    hooks = doc if agent.top_level else doc.get("hooks")
    dropped = False
    for event in agent.old_events:
        if isinstance(hooks, dict) and _rtk_hooks(doc, agent, event):
            _remove_from(hooks, agent, event)
            dropped = True
    return dropped


def remove_hook(doc: JsonObject, agent: Agent) -> bool:
    """Take rtk's entries out of `doc` (mutated), and the arrays and objects left empty by it."""
    if not hook_commands(doc, agent):
        return False
    hooks = doc if agent.top_level else doc["hooks"]
    for event in agent.all_events():
        if event in hooks and _rtk_hooks(doc, agent, event):
            _remove_from(hooks, agent, event)
    if not hooks and not agent.top_level:
        del doc["hooks"]
    return True


def _remove_from(hooks: JsonObject, agent: Agent, event: str) -> None:
    kept = [item for item in (_without_rtk(e, agent) for e in hooks[event]) if item is not None]
    if kept:
        hooks[event] = kept
    else:
        del hooks[event]


def nothing_left(doc: JsonObject, agent: Agent) -> bool:
    """True when only what rtk itself would have created remains: the file can go."""
    return not doc or doc == agent.preamble


def _without_rtk(item: Any, agent: Agent) -> Any:
    """The entry with rtk's hooks taken out; None when nothing of it is left."""
    if not agent.nested:
        return None if rtk_entry(item, agent.name) else item
    if not isinstance(item, dict) or not isinstance(item.get("hooks"), list):
        return item
    inner = [h for h in item["hooks"] if not rtk_entry(h, agent.name)]
    if len(inner) == len(item["hooks"]):
        return item
    return {**item, "hooks": inner} if inner else None


def _entries(doc: JsonObject, agent: Agent, create: bool = False, event: str | None = None) -> list[Any]:
    event = event or agent.events[0]
    hooks = doc if agent.top_level else doc.get("hooks")
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
        where = event if agent.top_level else f"hooks.{event}"
        raise ShapeError(f"'{where}' is {_kind(entries)}, expected an array")
    return entries


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    return names.get(type(value), "null" if value is None else "a number")
