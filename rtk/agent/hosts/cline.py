"""Cline CLI (3.x): a `PreToolUse` hook script (`~/.cline/hooks/PreToolUse.sh`, which Cline runs
with bash) answers its `tool_call` payload for the `run_commands` tool (read from Cline 3.0.65's
code): `{"hookName":"tool_call","tool_call":{"name":"run_commands","input":{"commands":["git status"]}},
"workspaceRoots":[..],..}` -> `{"overrideInput":{"commands":["rtk git status"]}}`, which replaces
the tool's input. Cline's `tool_result` hook can only add context: no post path. Cline approves
tools as a whole (its CLI's `--auto-approve`, on by default, is one switch for all tools): no rule
of Cline's tells `git status` from `rtk git status`, so the rewrite carries no decision. A call of several commands is left as it is (their outputs are one list).
Standard library only (the hook path).
"""
from __future__ import annotations

from rtk.agent.hosts.base import Call, Host

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject, Permission
    from rtk.agent.rewrite import Decision

TOOL = "run_commands"


def extract(payload: JsonObject) -> Call | None:
    call = payload.get("tool_call")
    if payload.get("hookName") != "tool_call" or not isinstance(call, dict) or call.get("name") != TOOL:
        return None
    tool_input = call.get("input")
    commands = tool_input.get("commands") if isinstance(tool_input, dict) else None
    if not isinstance(commands, list) or len(commands) != 1:
        return None
    command = commands[0]
    if not isinstance(command, str) or not command.strip():
        return None
    assert isinstance(tool_input, dict)
    return Call(command, _cwd(payload), lambda new, permission: {"overrideInput": {**tool_input, "commands": [new]}})


def _cwd(payload: JsonObject) -> str | None:
    roots = payload.get("workspaceRoots")
    root = roots[0] if isinstance(roots, list) and roots else None
    return root if isinstance(root, str) and root else None


def permission(call: Call, decision: Decision) -> Permission:
    return None


def sample(command: str, cwd: str) -> JsonObject:
    return {"hookName": "tool_call", "workspaceRoots": [cwd],
            "tool_call": {"id": "call_1", "name": TOOL, "input": {"commands": [command]}}}


HOST = Host("cline", None, extract, sample, permission)
