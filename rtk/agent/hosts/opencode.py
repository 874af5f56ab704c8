"""OpenCode: a plugin (`rtk init --agent opencode`) hands every bash tool result to `rtk hook
opencode` from `tool.execute.after` and sets `output.output` to the `output` rtk answers; empty
stdout keeps the original. The plugin sends
`{"hook_event_name":"tool.execute.after","tool":..,"args":{"command":..},"cwd":..,"exit":N,"output":".."}`.
The hook sees failures too (`exit` is the exit code), so every routed command takes this path;
OpenCode cuts outputs over ~51 KB and names the file that holds all of it ("Full output saved to:"),
followed by the end of the output. That file can still be short of its last writes when the hook
runs (seen with 1.18.33: 180,224 of 258,418 bytes): rtk summarises it only when it ends with the
end OpenCode showed; otherwise OpenCode's own text stays.
Standard library only (the hook path).
"""
from __future__ import annotations

from rtk.agent.hosts.base import (
    EVERY,
    Finished,
    Host,
    no_call,
    no_rewrite,
    saved_path_after,
    shell_command,
    text_of,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject

SAVED = "Full output saved to: "


def finished(payload: JsonObject) -> Finished | None:
    if payload.get("hook_event_name") != "tool.execute.after" or payload.get("tool") != "bash":
        return None
    command, output, code = shell_command(payload.get("args")), payload.get("output"), payload.get("exit")
    if command is None or not isinstance(output, str):
        return None
    exit_code = code if isinstance(code, int) and not isinstance(code, bool) else 0
    saved = saved_path_after(output, SAVED)
    tail = output[output.find("\n", output.rfind(SAVED)) + 1:] if saved else ""
    return Finished(command, text_of(payload, "cwd") or None, output, exit_code,
                    lambda new: {"output": new}, saved=saved, saved_tail=tail)


def sample(command: str, cwd: str) -> JsonObject:
    return {"hook_event_name": "tool.execute.after", "tool": "bash", "args": {"command": command},
            "cwd": cwd, "exit": 0, "output": ""}


HOST = Host("opencode", None, no_call, sample, no_rewrite, finished=finished, post_scope=EVERY)
