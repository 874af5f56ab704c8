"""Factory Droid: PreToolUse for the `Execute` tool, in Claude's shape (read from droid 0.215's
own code). Droid applies `hookSpecificOutput.updatedInput` with no decision and then runs its own
checks on the rewritten command: its block list, its allow and deny lists, and its autonomy level
against the risk level the model gave (`riskLevel`, kept as the model wrote it). `allow` is
"allow-bypass" there (every check skipped), so rtk never answers it. Droid's PostToolUse can only
add context or block, never replace an output: no post path.

Droid's default allow list holds readers (`git status`, `ls`, ...): they run silently as typed and
their rtk form would not, so the hook leaves them to Droid (`verdict_kept`, droid_rules.py).

Droid drops the model's `riskLevel` from a command a hook changed (droid 0.215: "hook-modified"
input is checked afresh), so under an autonomy level (`auto-low`, `-medium`, `-high`: a command of
low enough risk runs silently) the rtk form would stop for approval where X ran: seen with the
real `droid exec`, which then ends ("insufficient permission to proceed"). There the rewrite is
given only when Droid's allow list covers the rtk form; in Droid's normal mode (`off`: it asks
about every command its allow list does not cover) as X's verdict allows.
Standard library only (the hook path).
"""
from __future__ import annotations

from rtk.agent.hosts.base import SKIP, Call, Host, pre_tool_use, tool_call, verdict_kept, with_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject, Permission
    from rtk.agent.rewrite import Decision

EXECUTE = frozenset({"Execute"})
ASKS_UNLISTED = frozenset({"off"})  # Droid's normal mode: every command off the allow list asks
_kept = verdict_kept("droid")


def answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": with_command(tool_input, command)}}


def extract(payload: JsonObject) -> Call | None:
    if payload.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    return tool_call(payload, EXECUTE, answer)


def permission(call: Call, decision: Decision) -> Permission:
    """Normal mode: rtk X keeps X's verdict under Droid's lists (`verdict_kept`). An autonomy mode
    (or a payload without a mode): only an allow list covering the rtk form keeps X's outcome."""
    if _kept(call, decision) == SKIP:
        return SKIP
    if call.mode in ASKS_UNLISTED:
        return None
    from rtk.agent import permissions
    from rtk.agent.rewrite import decide

    return None if decide(decision.command, "droid", cwd=call.cwd).verdict == permissions.ALLOW else SKIP


HOST = Host("droid", None, extract, lambda command, cwd: {**pre_tool_use("Execute")(command, cwd),
                                                            "permission_mode": "off"}, permission)
