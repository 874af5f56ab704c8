"""One adapter per agent host: which payloads ask about a shell command, and the exact answer shapes.

Sans-I/O and standard library only (it runs before every agent command). An adapter turns the
host's JSON object into a `Call` (the command, the working directory, and how to answer with a
rewrite of it) or None when the payload is not the host's shell tool. Every answer copies the
tool input and replaces only `command`, so the host's other keys (description, timeout, ...) pass
through unchanged. `no_opinion` is what the host must read when rtk has nothing to say: None means
empty stdout (Claude, Codex, Copilot); Cursor and Gemini need `{}`.
"""
from __future__ import annotations

from rtk.agent import hook_json

TYPE_CHECKING = False  # no `typing` at start-up: this runs before every agent command
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    JsonObject = dict[str, Any]
    Answer = JsonObject | None
REASON = "RTK auto-rewrite"
BASH = frozenset({"Bash"})
COPILOT_SHELL_TOOLS = frozenset({"Bash", "bash", "runTerminalCommand"})


class Call:
    """A shell command a host asked about; `answer(rewritten, allow)` builds the host's reply."""

    __slots__ = ("_respond", "command", "cwd")

    def __init__(self, command: str, cwd: str | None, respond: Callable[[str, bool], JsonObject]):
        self.command = command
        self.cwd = cwd
        self._respond = respond

    def answer(self, rewritten: str, allow: bool) -> JsonObject:
        return self._respond(rewritten, allow)


class Host:
    """An agent host: its name (also the rewrite engine's rule set) and its adapter."""

    __slots__ = ("extract", "name", "no_opinion", "sample")

    def __init__(self, name: str, no_opinion: Answer, extract: Callable[[JsonObject], Call | None],
                 sample: Callable[[str, str], JsonObject]):
        self.name = name
        self.no_opinion = no_opinion
        self.extract = extract
        self.sample = sample


def shell_command(tool_input: object) -> str | None:
    """The non-empty string `command` of a tool input object, else None."""
    if not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command")
    return command if isinstance(command, str) and command.strip() else None


def _cwd(payload: JsonObject) -> str | None:
    cwd = payload.get("cwd")
    return cwd if isinstance(cwd, str) and cwd else None


def _with_command(tool_input: JsonObject, command: str) -> JsonObject:
    return {**tool_input, "command": command}


def _tool_call(payload: JsonObject, tools: frozenset[str],
               respond: Callable[[JsonObject, str, bool], JsonObject]) -> Call | None:
    """The usual shape: `tool_name` names the shell tool, `tool_input.command` holds the command."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or tool not in tools:
        return None
    tool_input = payload.get("tool_input")
    command = shell_command(tool_input)
    if command is None:
        return None
    assert isinstance(tool_input, dict)
    return Call(command, _cwd(payload), lambda new, allow: respond(tool_input, new, allow))


def claude_answer(tool_input: JsonObject, command: str, allow: bool) -> JsonObject:
    out: JsonObject = {"hookEventName": "PreToolUse"}
    if allow:
        out["permissionDecision"] = "allow"
    out["permissionDecisionReason"] = REASON
    out["updatedInput"] = _with_command(tool_input, command)
    return {"hookSpecificOutput": out}


def _cursor_answer(tool_input: JsonObject, command: str, allow: bool) -> JsonObject:
    return {"continue": True, "permission": "allow" if allow else "ask",
            "updated_input": _with_command(tool_input, command)}


def _gemini_answer(tool_input: JsonObject, command: str, allow: bool) -> JsonObject:
    out: JsonObject = {"decision": "allow"} if allow else {}
    out["hookSpecificOutput"] = {"tool_input": _with_command(tool_input, command)}
    return out


def _copilot_cli_answer(args: JsonObject, command: str, allow: bool) -> JsonObject:
    out: JsonObject = {"permissionDecision": "allow"} if allow else {}
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
    """VS Code sends the Claude shape; Copilot CLI sends `toolName` + `toolArgs` (a JSON string)."""
    if "toolName" in payload or "toolArgs" in payload:
        return _copilot_cli_call(payload)
    return _tool_call(payload, COPILOT_SHELL_TOOLS, claude_answer)


def _copilot_cli_call(payload: JsonObject) -> Call | None:
    if payload.get("toolName") != "bash":
        return None
    args = payload.get("toolArgs")
    if isinstance(args, str):
        try:
            args = hook_json.loads(args)
        except (ValueError, RecursionError):
            return None
    command = shell_command(args)
    if command is None:
        return None
    assert isinstance(args, dict)
    return Call(command, _cwd(payload), lambda new, allow: _copilot_cli_answer(args, new, allow))


def _pre_tool_use(tool: str) -> Callable[[str, str], JsonObject]:
    return lambda command, cwd: {"hook_event_name": "PreToolUse", "tool_name": tool,
                                 "tool_input": {"command": command}, "cwd": cwd}


HOSTS: dict[str, Host] = {
    "claude": Host("claude", None, extract_claude, _pre_tool_use("Bash")),
    "cursor": Host("cursor", {}, extract_cursor, lambda command, cwd: {
        "hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": command}}),
    "gemini": Host("gemini", {}, extract_gemini, lambda command, cwd: {
        "hook_event_name": "BeforeTool", "cwd": cwd, "tool_name": "run_shell_command",
        "tool_input": {"command": command}}),
    "codex": Host("codex", None, extract_codex, _pre_tool_use("Bash")),
    "copilot": Host("copilot", None, extract_copilot, lambda command, cwd: {
        "toolName": "bash", "toolArgs": hook_json.dumps({"command": command}, ensure_ascii=True), "cwd": cwd}),
}
