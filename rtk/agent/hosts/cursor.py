"""Cursor: preToolUse for the `Shell` tool; `{}` is its "no opinion" (it needs JSON on every path)."""
from __future__ import annotations

from rtk.agent import permissions
from rtk.agent.hosts.base import Call, Host, tool_call, with_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject, Permission
    from rtk.agent.rewrite import Decision


def answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    return {"continue": True, "permission": "allow" if permission == "allow" else "ask",
            "updated_input": with_command(tool_input, command)}


def extract(payload: JsonObject) -> Call | None:
    return tool_call(payload, frozenset({"Shell"}), answer)


def permission(call: Call, decision: Decision) -> Permission:
    return "allow" if decision.verdict == permissions.ALLOW else None


def sample(command: str, cwd: str) -> JsonObject:
    return {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": command}}


HOST = Host("cursor", {}, extract, sample, permission)
