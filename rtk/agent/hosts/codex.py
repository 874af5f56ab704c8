"""Codex CLI: PreToolUse rewrites in Claude's shape, always with allow (Codex applies
`updatedInput` only with it, and re-applies its own approval policy and sandbox to the rewritten
command, so allow widens nothing). Codex cannot replace an output after the fact: no post path."""
from __future__ import annotations

from rtk.agent import permissions
from rtk.agent.hosts.base import BASH, SKIP, Call, Host, claude_answer, pre_tool_use, tool_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject, Permission
    from rtk.agent.rewrite import Decision


def extract(payload: JsonObject) -> Call | None:
    if payload.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    return tool_call(payload, BASH, claude_answer)


def permission(call: Call, decision: Decision) -> Permission:
    """A prompt or forbidden rule on X: no answer, Codex decides on X itself. Codex also picks the
    sandbox from its own rules: a `prefix_rule` allowing X (run outside the read-only sandbox)
    does not cover `rtk X`, which would then run sandboxed (pytest: "No usable temporary
    directory"), so where the rtk form's verdict differs from X's, no answer either."""
    if decision.verdict == permissions.ASK:
        return SKIP
    if decision.verdict == permissions.ALLOW:
        from rtk.agent.rewrite import decide

        if decide(decision.command, "codex", cwd=call.cwd).verdict != decision.verdict:
            return SKIP
    return "allow"


HOST = Host("codex", None, extract, pre_tool_use("Bash"), permission)
