"""Factory Droid: PreToolUse for the `Execute` tool, in Claude's shape (read from droid 0.215's
own code). Droid applies `hookSpecificOutput.updatedInput` with no decision and then runs its own
checks on the rewritten command: its block list, its allow and deny lists, and its autonomy level
against the risk level the model gave (`riskLevel`, kept as the model wrote it). `allow` is
"allow-bypass" there (every check skipped), so rtk never answers it. Droid's PostToolUse can only
add context or block, never replace an output: no post path.

Droid's default allow list holds readers (`git status`, `ls`, ...): they run silently as typed and
their rtk form would not, so the hook leaves them to Droid (`verdict_kept`, droid_rules.py).
Standard library only (the hook path).
"""
from __future__ import annotations

from rtk.agent.hosts.base import Call, Host, pre_tool_use, tool_call, verdict_kept, with_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject, Permission

EXECUTE = frozenset({"Execute"})


def answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": with_command(tool_input, command)}}


def extract(payload: JsonObject) -> Call | None:
    if payload.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    return tool_call(payload, EXECUTE, answer)


HOST = Host("droid", None, extract, pre_tool_use("Execute"), verdict_kept("droid"))
