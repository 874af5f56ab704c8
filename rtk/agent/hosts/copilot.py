"""GitHub Copilot CLI: the post path only (`postToolUse` -> `modifiedResult`, spec/post-path.md).
Copilot's post hook fires for failing commands too, so every routed command takes it and nothing
of Copilot's permission logic is ever involved: its pre-tool payloads get no opinion.

The event name's case in the hook file selects the payload: camelCase gives Copilot's own shape
(`toolName`, `toolArgs`, `toolResult.textResultForLlm`), PascalCase the VS Code-compatible one
(`tool_name`, `tool_input`, `tool_result.text_result_for_llm`). The exit code is only in the text
(`<shellId: 0 completed with exit code 1>`), which the replacement keeps where it was. Past its
limit Copilot passes a notice naming a file that holds the whole output ("Saved to: /tmp/...").

VS Code's agent hooks send Claude's PreToolUse shape with the tool `run_in_terminal`: those get
Claude's pre path (runners rewritten, allow only from the user's rules).
Standard library only (the hook path).
"""
from __future__ import annotations

from rtk import quickjson
from rtk.agent import permissions
from rtk.agent.hosts.base import (
    EVERY,
    SKIP,
    Call,
    Finished,
    Host,
    claude_answer,
    saved_path_after,
    shell_command,
    text_of,
    tool_call,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtk.agent.hosts.base import JsonObject, Permission
    from rtk.agent.rewrite import Decision

VSCODE_TERMINAL = frozenset({"run_in_terminal", "runTerminalCommand"})  # VS Code's terminal tools
SHELL_TOOLS = frozenset({"bash", "Bash", "run_in_terminal", "runTerminalCommand"})
EXIT_OPEN, EXIT_WORDS = "<shellId: ", " completed with exit code "
SAVED = "Saved to: "


def extract(payload: JsonObject) -> Call | None:
    """Only VS Code's terminal tool is rewritten before it runs; Copilot CLI's own shapes are not."""
    if "toolName" in payload or "toolArgs" in payload:
        return None
    if payload.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    return tool_call(payload, VSCODE_TERMINAL, claude_answer)


def permission(call: Call, decision: Decision) -> Permission:
    """VS Code does not read Claude's ask rules itself: an ask match leaves X to it."""
    if decision.verdict == permissions.ASK:
        return SKIP
    return "allow" if decision.verdict == permissions.ALLOW else None


def finished(payload: JsonObject) -> Finished | None:
    if "toolName" in payload or "toolResult" in payload:
        return _finished(payload, payload.get("toolName"), _args(payload.get("toolArgs")),
                         payload.get("toolResult"), ("resultType", "textResultForLlm"))
    if payload.get("hook_event_name") not in ("PostToolUse", "postToolUse"):
        return None
    return _finished(payload, payload.get("tool_name"), payload.get("tool_input"),
                     payload.get("tool_result"), ("result_type", "text_result_for_llm"))


def _args(args: object) -> object:
    if isinstance(args, str):
        try:
            return quickjson.loads(args)
        except (ValueError, RecursionError):
            return None
    return args


def _finished(payload: JsonObject, tool: object, args: object, result: object,
              keys: tuple[str, str]) -> Finished | None:
    command = shell_command(args)
    if tool not in SHELL_TOOLS or command is None or not isinstance(result, dict):
        return None
    kind, text = result.get(keys[0]), result.get(keys[1])
    if kind not in (None, "success") or not isinstance(text, str):
        return None  # denied, rejected, or a tool error: nothing of the command's to replace
    body, code, frame = split_exit_line(text)
    return Finished(command, text_of(payload, "cwd") or None, body, code,
                    lambda new: {"modifiedResult": {"textResultForLlm": new, "resultType": "success"}},
                    saved=saved_path_after(body, SAVED), frame=frame)


def split_exit_line(text: str) -> tuple[str, int, Callable[[str], str]]:
    """(the output without Copilot's exit line, the exit code, how to put the line back)."""
    start = text.rfind(EXIT_OPEN)
    end = text.find(">", start) if start >= 0 else -1
    words = text[start:end] if end > 0 else ""
    code_text = words.rpartition(EXIT_WORDS)[2] if EXIT_WORDS in words else ""
    if not code_text.lstrip("-").isdecimal():
        return text, 0, _keep
    line, before, after = text[start:end + 1], text[:start], text[end + 1:]
    if not after.strip():
        return before.rstrip("\n"), int(code_text), lambda body: f"{body.rstrip(chr(10))}\n{line}{after}"
    if not before.strip():
        return after.lstrip("\n"), int(code_text), lambda body: f"{before}{line}\n{body}"
    return text, int(code_text), _keep


def _keep(body: str) -> str:
    return body


HOST = Host("copilot", None, extract, lambda command, cwd: {
    "toolName": "bash", "toolArgs": quickjson.dumps({"command": command}, ensure_ascii=True), "cwd": cwd,
    "toolResult": {"resultType": "success", "textResultForLlm": ""}},
    permission, finished=finished, post_scope=EVERY)
