"""One adapter per agent host: which payloads ask about a shell command, the exact answer shapes, and
which permission decision the rewrite carries so that `rtk X` meets the outcome the host gives `X`.

An adapter turns the host's JSON object into a `Call` (the command, working directory, permission
mode, and how to answer with a rewrite of it) or None when the payload is not the host's shell
tool. Every answer copies the tool input and replaces only `command`. `no_opinion` is what the
host reads when rtk has nothing to say: None means empty stdout; Cursor and Gemini need `{}`.

`permission(call, decision)` is the host's rule (spec/hooks.md): "allow" when the host would run
X without asking (its allow rules, its read-only set, the payload's mode) and honours allow;
"ask" when an ask rule matched and the host honours ask; None to rewrite with no decision (the
host then asks about the rtk form); SKIP to give no opinion at all (the host decides on X).
Standard library only (the hook path).
"""
from __future__ import annotations

import os

from rtk import quickjson
from rtk.agent import permissions

TYPE_CHECKING = False  # no `typing` at start-up: this runs before every agent command
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from rtk.agent.rewrite import Decision

    JsonObject = dict[str, Any]
    Answer = JsonObject | None
    Permission = str | None

REASON = "RTK auto-rewrite"
SKIP = "skip"
BASH = frozenset({"Bash"})
COPILOT_SHELL_TOOLS = frozenset({"Bash", "bash", "runTerminalCommand"})


class Call:
    """A shell command a host asked about; `answer(rewritten, permission)` builds the host's reply."""

    __slots__ = ("_respond", "command", "cwd", "mode")

    def __init__(self, command: str, cwd: str | None, respond: Callable[[str, Permission], JsonObject],
                 mode: str = "") -> None:
        self.command, self.cwd, self.mode = command, cwd, mode
        self._respond = respond

    def answer(self, rewritten: str, permission: Permission) -> JsonObject:
        return self._respond(rewritten, permission)


class Host:
    """An agent host: its name (also the rewrite engine's rule set), adapter and permission rule."""

    __slots__ = ("extract", "name", "no_opinion", "permission", "sample")

    def __init__(self, name: str, no_opinion: Answer, extract: Callable[[JsonObject], Call | None],
                 sample: Callable[[str, str], JsonObject],
                 permission: Callable[[Call, Decision], Permission]) -> None:
        self.name, self.no_opinion, self.extract = name, no_opinion, extract
        self.sample, self.permission = sample, permission


def shell_command(tool_input: object) -> str | None:
    """The non-empty string `command` of a tool input object, else None."""
    if not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command")
    return command if isinstance(command, str) and command.strip() else None


def _text(payload: JsonObject, key: str) -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else ""


def _with_command(tool_input: JsonObject, command: str) -> JsonObject:
    return {**tool_input, "command": command}


def _tool_call(payload: JsonObject, tools: frozenset[str],
               respond: Callable[[JsonObject, str, Permission], JsonObject]) -> Call | None:
    """The usual shape: `tool_name` names the shell tool, `tool_input.command` holds the command."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or tool not in tools:
        return None
    tool_input = payload.get("tool_input")
    command = shell_command(tool_input)
    if command is None:
        return None
    assert isinstance(tool_input, dict)
    return Call(command, _text(payload, "cwd") or None, lambda new, p: respond(tool_input, new, p),
                _text(payload, "permission_mode"))


def claude_answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    out: JsonObject = {"hookEventName": "PreToolUse"}
    if permission:
        out["permissionDecision"] = permission
        out["permissionDecisionReason"] = REASON
    out["updatedInput"] = _with_command(tool_input, command)
    return {"hookSpecificOutput": out}


def _cursor_answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    return {"continue": True, "permission": "allow" if permission == "allow" else "ask",
            "updated_input": _with_command(tool_input, command)}


def _gemini_answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    """Gemini ignores `decision: allow` and hangs on `ask`: the rewrite alone."""
    return {"hookSpecificOutput": {"tool_input": _with_command(tool_input, command)}}


def _copilot_cli_answer(args: JsonObject, command: str, permission: Permission) -> JsonObject:
    out: JsonObject = {}
    if permission:
        out["permissionDecision"] = permission
        out["permissionDecisionReason"] = REASON
    out["modifiedArgs"] = _with_command(args, command)
    return out


def extract_claude(payload: JsonObject) -> Call | None:
    return _tool_call(payload, BASH, claude_answer)


def extract_cursor(payload: JsonObject) -> Call | None:
    return _tool_call(payload, frozenset({"Shell"}), _cursor_answer)


def extract_gemini(payload: JsonObject) -> Call | None:
    return _tool_call(payload, frozenset({"run_shell_command"}), _gemini_answer)


def extract_codex(payload: JsonObject) -> Call | None:
    if payload.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    return _tool_call(payload, BASH, claude_answer)


def extract_copilot(payload: JsonObject) -> Call | None:
    """Copilot CLI sends `toolName` + `toolArgs` (a JSON string or an object); the VS Code-compatible
    shape (a PascalCase event in the hook file) is Claude's."""
    if "toolName" in payload or "toolArgs" in payload:
        return _copilot_cli_call(payload)
    return _tool_call(payload, COPILOT_SHELL_TOOLS, claude_answer)


def _copilot_cli_call(payload: JsonObject) -> Call | None:
    if payload.get("toolName") != "bash":
        return None
    args = payload.get("toolArgs")
    if isinstance(args, str):
        try:
            args = quickjson.loads(args)
        except (ValueError, RecursionError):
            return None
    command = shell_command(args)
    if command is None:
        return None
    assert isinstance(args, dict)
    return Call(command, _text(payload, "cwd") or None, lambda new, p: _copilot_cli_answer(args, new, p))


# -- the permission rule of each host -----------------------------------------------------------

def claude_permission(call: Call, decision: Decision) -> Permission:
    """Allow rules, bypassPermissions, or Claude's read-only set: allow. An ask rule: ask (so an
    allow rule for `rtk ...` cannot skip the prompt X would get). Otherwise no decision."""
    if decision.verdict == permissions.ASK:
        return "ask"
    if decision.verdict == permissions.ALLOW or call.mode == "bypassPermissions":
        return "allow"
    from rtk.agent import readonly

    if call.mode in readonly.CLAUDE_MODES and readonly.claude_covers(
            call.command, decision.segments, call.cwd or os.getcwd()):
        return "allow"
    return None


def copilot_permission(call: Call, decision: Decision) -> Permission:
    """Copilot does not read Claude's ask rules itself: an ask match leaves X to Copilot."""
    if decision.verdict == permissions.ASK:
        return SKIP
    if decision.verdict == permissions.ALLOW:
        return "allow"
    from rtk.agent import readonly

    if readonly.copilot_covers(call.command, decision.segments, call.cwd or os.getcwd()):
        return "allow"
    return None


def codex_permission(call: Call, decision: Decision) -> Permission:
    """Codex applies a rewrite only with allow, and re-applies its own approval policy and sandbox
    to the rewritten command; a prompt or forbidden rule on X: no answer."""
    return SKIP if decision.verdict == permissions.ASK else "allow"


def gemini_permission(call: Call, decision: Decision) -> Permission:
    """Gemini checks its policy on the rewritten command: rewrite only when `rtk X` gets the
    verdict X gets (an allow rule for X that does not cover `rtk X` would turn a run into a
    denial, an allow rule for `rtk` would turn a denial into a run)."""
    from rtk.agent.rewrite import decide

    again = decide(decision.command, "gemini", cwd=call.cwd)
    return None if again.verdict == decision.verdict else SKIP


def cursor_permission(call: Call, decision: Decision) -> Permission:
    return "allow" if decision.verdict == permissions.ALLOW else None


def _pre_tool_use(tool: str) -> Callable[[str, str], JsonObject]:
    return lambda command, cwd: {"hook_event_name": "PreToolUse", "tool_name": tool,
                                 "tool_input": {"command": command}, "cwd": cwd}


HOSTS: dict[str, Host] = {
    "claude": Host("claude", None, extract_claude, _pre_tool_use("Bash"), claude_permission),
    "cursor": Host("cursor", {}, extract_cursor, lambda command, cwd: {
        "hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": command}},
        cursor_permission),
    "gemini": Host("gemini", {}, extract_gemini, lambda command, cwd: {
        "hook_event_name": "BeforeTool", "cwd": cwd, "tool_name": "run_shell_command",
        "tool_input": {"command": command}}, gemini_permission),
    "codex": Host("codex", None, extract_codex, _pre_tool_use("Bash"), codex_permission),
    "copilot": Host("copilot", None, extract_copilot, lambda command, cwd: {
        "toolName": "bash", "toolArgs": quickjson.dumps({"command": command}, ensure_ascii=True), "cwd": cwd},
        copilot_permission),
}
