"""Gemini CLI: BeforeTool for `run_shell_command`. Gemini merges `hookSpecificOutput.tool_input`
over the model's arguments and checks its policy on the rewritten command; it ignores `allow` and
hangs on `ask`, so the answer is the rewrite alone, given only when `rtk X` gets the verdict X
gets from the allow-lists rtk can read (settings, policy files, and `--allowed-tools` on the
command line of the Gemini process the hook runs under, read by host_flags), or when the user's
own allow rule for `rtk` covers the rtk form. AfterTool can only append or turn a result into an
error: no post path."""
from __future__ import annotations

from rtk.agent.hosts.base import Call, Host, tool_call, verdict_kept, with_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject, Permission


def answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    return {"hookSpecificOutput": {"tool_input": with_command(tool_input, command)}}


def extract(payload: JsonObject) -> Call | None:
    return tool_call(payload, frozenset({"run_shell_command"}), answer)


def sample(command: str, cwd: str) -> JsonObject:
    return {"hook_event_name": "BeforeTool", "cwd": cwd, "tool_name": "run_shell_command",
            "tool_input": {"command": command}}


HOST = Host("gemini", {}, extract, sample, verdict_kept("gemini"))
