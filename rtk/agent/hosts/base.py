"""What every host adapter is made of: a shell command the host asked about (`Call`, the pre path),
an output the host captured (`Finished`, the post path), and the `Host` record tying a host's
payload readers, answer shapes and permission rule together.

An adapter turns the host's JSON object into a `Call` or a `Finished`, or None when the payload
is not about the host's shell tool. Every pre-path answer copies the tool input and replaces only
`command`. `no_opinion` is what the host reads when rtk has nothing to say: None means empty
stdout; Cursor and Gemini need `{}`.

`permission(call, decision)` is the host's rule (spec/hooks.md): "allow" when the host would run
X without asking because of the user's own allow rules or the payload's permission mode (never a
copy of a host's built-in read-only set); "ask" when an ask rule matched and the host honours
ask; None to rewrite with no decision (the host then asks about the rtk form); SKIP to give no
opinion at all (the host decides on X).

`post_scope` says which routed commands a host hands to the post path instead of rewriting them:
READERS (the commands that read, which a host may run without asking: Claude Code, whose post
hook fires only for successful commands) or EVERY (Copilot, OpenCode: their post hooks see
failures too, so nothing is rewritten at all). Standard library only (the hook path).
"""
from __future__ import annotations

TYPE_CHECKING = False  # no `typing` at start-up: this runs before every agent command
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from rtk.agent.rewrite import Decision

    JsonObject = dict[str, Any]
    Answer = JsonObject | None
    Permission = str | None

REASON = "RTK auto-rewrite"
SKIP = "skip"
READERS, EVERY = "readers", "every"
BASH = frozenset({"Bash"})


class Call:
    """A shell command a host asked about; `answer(rewritten, permission)` builds the host's reply."""

    __slots__ = ("_respond", "command", "cwd", "mode")

    def __init__(self, command: str, cwd: str | None, respond: Callable[[str, Permission], JsonObject],
                 mode: str = "") -> None:
        self.command, self.cwd, self.mode = command, cwd, mode
        self._respond = respond

    def answer(self, rewritten: str, permission: Permission) -> JsonObject:
        return self._respond(rewritten, permission)


class Finished:
    """A command the host ran under its own rules, with what it printed (stdout and stderr merged,
    as the host shows them): `text` as the host passed it, `saved` the file holding all of it when
    the host cut it, `exit_code` as far as the host tells, `frame(body)` the whole text the model
    reads when rtk's body replaces the command's output (a host may wrap it, Copilot's exit line),
    `answer(text)` the host's replacement answer. `preview_limit`: the host shows the model only a
    short preview of outputs over this many characters (Claude Code: 30,000), 0 when it does not."""

    __slots__ = ("_respond", "command", "context", "cwd", "exit_code", "frame", "partial", "preview_limit",
                 "saved", "saved_tail", "text")

    def __init__(self, command: str, cwd: str | None, text: str, exit_code: int,
                 respond: Callable[[str], JsonObject], *, saved: str | None = None,
                 frame: Callable[[str], str] | None = None, preview_limit: int = 0,
                 saved_tail: str = "") -> None:
        self.command, self.cwd, self.text, self.exit_code = command, cwd, text, exit_code
        self.saved, self.preview_limit = saved, preview_limit
        self.saved_tail = saved_tail  # the end of the output as the host showed it: the file must end so
        self.partial = False  # set when the saved file turned out short of that end (audit: post:partial)
        self.context: object = None  # the conversation context, when the host names it (rtk.session)
        self.frame: Callable[[str], str] = frame or _same
        self._respond = respond

    def answer(self, text: str) -> JsonObject:
        return self._respond(text)


def _same(text: str) -> str:
    return text


class Host:
    """An agent host: its name (also the rewrite engine's rule set), adapters and permission rule."""

    __slots__ = ("extract", "finished", "name", "no_opinion", "permission", "post_scope", "sample")

    def __init__(self, name: str, no_opinion: Answer, extract: Callable[[JsonObject], Call | None],
                 sample: Callable[[str, str], JsonObject],
                 permission: Callable[[Call, Decision], Permission], *,
                 finished: Callable[[JsonObject], Finished | None] | None = None,
                 post_scope: str | None = None) -> None:
        self.name, self.no_opinion, self.extract = name, no_opinion, extract
        self.sample, self.permission = sample, permission
        self.finished, self.post_scope = finished, post_scope


def shell_command(tool_input: object) -> str | None:
    """The non-empty string `command` of a tool input object, else None."""
    if not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command")
    return command if isinstance(command, str) and command.strip() else None


def text_of(payload: JsonObject, key: str) -> str:
    value = payload.get(key)
    return value if isinstance(value, str) else ""


def with_command(tool_input: JsonObject, command: str) -> JsonObject:
    return {**tool_input, "command": command}


def tool_call(payload: JsonObject, tools: frozenset[str],
              respond: Callable[[JsonObject, str, Permission], JsonObject]) -> Call | None:
    """The usual shape: `tool_name` names the shell tool, `tool_input.command` holds the command."""
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or tool not in tools:
        return None
    tool_input = payload.get("tool_input")
    command = shell_command(tool_input)
    if command is None:
        return None
    assert isinstance(tool_input, dict)
    return Call(command, text_of(payload, "cwd") or None, lambda new, p: respond(tool_input, new, p),
                text_of(payload, "permission_mode"))


def claude_answer(tool_input: JsonObject, command: str, permission: Permission) -> JsonObject:
    """Claude Code's PreToolUse shape (Codex and Copilot's VS Code payloads take it too)."""
    out: JsonObject = {"hookEventName": "PreToolUse"}
    if permission:
        out["permissionDecision"] = permission
        out["permissionDecisionReason"] = REASON
    out["updatedInput"] = with_command(tool_input, command)
    return {"hookSpecificOutput": out}


def pre_tool_use(tool: str) -> Callable[[str, str], JsonObject]:
    """`rtk hook check`'s sample payload in Claude's PreToolUse shape."""
    return lambda command, cwd: {"hook_event_name": "PreToolUse", "tool_name": tool,
                                 "tool_input": {"command": command}, "cwd": cwd}


def verdict_kept(host: str) -> Callable[[Call, Decision], Permission]:
    """The rule of hosts that re-check their own rules on the rewritten command and read no
    decision rtk could give (Gemini, Droid): rewrite, with no decision, when `rtk X` gets X's
    verdict under the host's rules; an allow rule for X that does not cover `rtk X` would turn a
    run into a refusal. An allow rule the user wrote for the rtk form itself (`rtk`, `rtk git`)
    while X has none is the user's own word that rtk may run: rewrite then too. Otherwise no
    opinion: the host decides on X as typed."""

    def permission(call: Call, decision: Decision) -> Permission:
        from rtk.agent import permissions
        from rtk.agent.rewrite import decide

        again = decide(decision.command, host, cwd=call.cwd).verdict
        if again == decision.verdict or (again == permissions.ALLOW and decision.verdict == permissions.DEFAULT):
            return None
        return SKIP

    return permission


def no_call(payload: JsonObject) -> Call | None:
    """For hosts that send rtk finished commands only (their plugins hook the result): no pre path."""
    return None


def no_rewrite(call: Call, decision: Decision) -> Permission:
    """For hosts whose commands all take the post path: the pre path never rewrites."""
    return SKIP


def saved_path_after(text: str, marker: str) -> str | None:
    """The file path a host names after `marker` when it cut a long output (to the line's end)."""
    at = text.rfind(marker)
    words = text[at + len(marker):].split(None, 1) if at >= 0 else []
    path = words[0].rstrip(".,;:)") if words else ""
    return path if path.startswith("/") else None
