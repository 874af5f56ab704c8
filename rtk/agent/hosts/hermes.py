"""Hermes Agent (hermes-agent 0.19 on PyPI): the post path, through a plugin (install/hermes.py)
whose `transform_tool_result` hook hands each `terminal` result to `rtk hook hermes` and returns
rtk's answer, which replaces the result the model reads (read from Hermes' code: the first string a
hook returns wins). The result is Hermes' JSON text `{"output": "..", "exit_code": N, ..}`; rtk
answers `{"result": "<the same JSON, output replaced>"}`. Hermes cuts long outputs itself
(`... [OUTPUT TRUNCATED - N chars omitted out of M total] ...`) and keeps no file of the whole:
such a result is left as Hermes made it, never summarised as if it were whole.
Standard library only (the hook path).
"""
from __future__ import annotations

from rtk import quickjson
from rtk.agent.hosts.base import EVERY, Finished, Host, no_call, no_rewrite, shell_command, text_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject

TRUNCATED = "... [OUTPUT TRUNCATED - "


def finished(payload: JsonObject) -> Finished | None:
    if payload.get("hook_event_name") != "transform_tool_result" or payload.get("tool_name") != "terminal":
        return None
    command, result = shell_command(payload.get("args")), payload.get("result")
    if command is None or not isinstance(result, str):
        return None
    try:
        data = quickjson.loads(result)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("output"), str) or data.get("error"):
        return None
    code = data.get("exit_code")
    if not isinstance(code, int) or isinstance(code, bool) or code < 0 or TRUNCATED in data["output"]:
        return None  # not run to its end (timeout, background), or cut by Hermes: its own text stays
    return Finished(command, text_of(payload, "cwd") or None, data["output"], code,
                    lambda new: {"result": quickjson.dumps({**data, "output": new}, ensure_ascii=False)})


def sample(command: str, cwd: str) -> JsonObject:
    return {"hook_event_name": "transform_tool_result", "tool_name": "terminal", "args": {"command": command},
            "cwd": cwd, "result": quickjson.dumps({"output": "", "exit_code": 0})}


HOST = Host("hermes", None, no_call, sample, no_rewrite, finished=finished, post_scope=EVERY)
