"""Claude Code: `rtk hook claude` answers PreToolUse (rewrite the runners) and PostToolUse (replace
what the commands that read printed), both for the `Bash` tool (spec/hooks.md, spec/post-path.md).

PostToolUse fires only for commands Claude counts as successful (exit 0, or a code it interprets,
like grep's 1 "No matches found"), with stdout and stderr merged in `stdout`. Past 30,000 chars
`stdout` holds the start and `persistedOutputPath` the whole output, and the model would get only
a ~2 KB preview: rtk reads the file and answers without that key (an answer keeping it is
ignored in favour of the preview). Standard library only (the hook path).
"""
from __future__ import annotations

from rtk.agent import permissions
from rtk.agent.hosts.base import (
    BASH,
    READERS,
    Call,
    Finished,
    Host,
    claude_answer,
    pre_tool_use,
    text_of,
    tool_call,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import JsonObject, Permission
    from rtk.agent.rewrite import Decision

PREVIEW_LIMIT = 30_000  # chars: longer outputs reach the model as a ~2 KB preview
PERSISTED = ("persistedOutputPath", "persistedOutputSize")


def extract(payload: JsonObject) -> Call | None:
    if payload.get("hook_event_name", "PreToolUse") != "PreToolUse":
        return None
    return tool_call(payload, BASH, claude_answer)


def finished(payload: JsonObject) -> Finished | None:
    """A PostToolUse payload of the Bash tool with a usable text output, else None."""
    if payload.get("hook_event_name") != "PostToolUse" or payload.get("tool_name") != "Bash":
        return None
    tool_input, response = payload.get("tool_input"), payload.get("tool_response")
    if not isinstance(tool_input, dict) or not isinstance(response, dict):
        return None
    command, stdout = tool_input.get("command"), response.get("stdout")
    if not isinstance(command, str) or not isinstance(stdout, str):
        return None
    if response.get("interrupted") is True or response.get("isImage") is True:
        return None
    stderr = response.get("stderr")
    text = stdout + ("\n" + stderr if isinstance(stderr, str) and stderr.strip() else "")
    saved = response.get("persistedOutputPath")
    interpreted = response.get("returnCodeInterpretation")
    done = Finished(command, text_of(payload, "cwd") or None, text, 1 if interpreted else 0,
                    lambda new: post_answer(response, new),
                    saved=saved if isinstance(saved, str) and saved else None, preview_limit=PREVIEW_LIMIT)
    from rtk.session.identity import from_claude_payload

    done.context = from_claude_payload(payload)  # session memory: whose context this output joins
    return done


def post_answer(response: JsonObject, text: str) -> JsonObject:
    """The tool response with rtk's text as its output: an object (a string does not replace),
    never `persistedOutputPath` (Claude would show its preview of the file instead)."""
    updated = {key: value for key, value in response.items() if key not in PERSISTED}
    updated.update(stdout=text, stderr="", interrupted=False)
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": updated}}


def permission(call: Call, decision: Decision) -> Permission:
    """The user's allow rules or bypassPermissions: allow. An ask rule: ask (so an allow rule for
    `rtk ...` cannot skip the prompt X would get). Otherwise no decision: Claude asks about the
    rtk form as it would have asked about X (the commands it runs silently take the post path)."""
    if decision.verdict == permissions.ASK:
        return "ask"
    if decision.verdict == permissions.ALLOW or call.mode == "bypassPermissions":
        return "allow"
    return None


HOST = Host("claude", None, extract, pre_tool_use("Bash"), permission, finished=finished, post_scope=READERS)
