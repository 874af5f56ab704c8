"""Trae (ByteDance's IDE): PreToolUse for its `RunCommand` tool in Claude's shape, in
`~/.trae/hooks.json` or a project's `.trae/hooks.json`, as the Rust rtk 1.1.0 installs and answers
it (`updatedInput`, no decision). Trae is not a package rtk can run here: this follows the Rust
rtk's code, not a test against Trae itself (docs/hooks.md says so). Trae keeps its command
allow-list in the IDE, where rtk cannot read it, so the rewrite carries no decision: Trae decides
on `rtk X` by its own rules. Standard library only (the hook path).
"""
from __future__ import annotations

from rtk.agent.hosts.base import Call, Host, pre_tool_use, tool_call, with_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject, Permission
    from rtk.agent.rewrite import Decision


def answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": with_command(tool_input, command)}}


def extract(payload: JsonObject) -> Call | None:
    if payload.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    return tool_call(payload, frozenset({"RunCommand"}), answer)


def permission(call: Call, decision: Decision) -> Permission:
    return None


HOST = Host("trae", None, extract, pre_tool_use("RunCommand"), permission)
