"""Gemini CLI: BeforeTool for `run_shell_command`. Gemini merges `hookSpecificOutput.tool_input`
over the model's arguments and checks its policy on the rewritten command; it ignores `allow` and
hangs on `ask`, so the answer is the rewrite alone, given only when `rtk X` gets the verdict X
gets from the allow-lists rtk can read (settings, policy files, and `--allowed-tools` on the
command line of the Gemini process the hook runs under, read by host_flags), or when the user's
own allow rule for `rtk` covers the rtk form. AfterTool can only append or turn a result into an
error: no post path."""
from __future__ import annotations

from rtk.agent.hosts.base import SKIP, Call, Host, tool_call, with_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject, Permission
    from rtk.agent.rewrite import Decision


def answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    return {"hookSpecificOutput": {"tool_input": with_command(tool_input, command)}}


def extract(payload: JsonObject) -> Call | None:
    return tool_call(payload, frozenset({"run_shell_command"}), answer)


def permission(call: Call, decision: Decision) -> Permission:
    """Rewrite when `rtk X` gets X's verdict: an allow rule for X that does not cover `rtk X`
    would turn a run into a denial. An allow rule the user wrote for the rtk form
    (`run_shell_command(rtk)`) while X has none is the user's own word that rtk may run: rewrite
    (Gemini itself then allows it, as it would `rtk X` typed by the model)."""
    from rtk.agent import permissions
    from rtk.agent.rewrite import decide

    again = decide(decision.command, "gemini", cwd=call.cwd).verdict
    if again == decision.verdict or (again == permissions.ALLOW and decision.verdict == permissions.DEFAULT):
        return None
    return SKIP


def sample(command: str, cwd: str) -> JsonObject:
    return {"hook_event_name": "BeforeTool", "cwd": cwd, "tool_name": "run_shell_command",
            "tool_input": {"command": command}}


HOST = Host("gemini", {}, extract, sample, permission)
