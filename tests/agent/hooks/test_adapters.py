"""The host adapters and the decision mapping, with the engine injected (no engine details)."""
from __future__ import annotations

import json
from typing import Any, NamedTuple

import pytest

from rtk.agent import hooks
from rtk.agent.hosts import HOSTS


class FakeDecision(NamedTuple):
    code: int
    command: str
    reasons: tuple[str, ...] = ()


class Engine:
    """Answers every command with one fixed verdict and records what it was asked."""

    def __init__(self, code: int, rewrite: str) -> None:
        self.decision = FakeDecision(code, rewrite)
        self.calls: list[tuple[str, str | None, str | None]] = []

    def __call__(self, command: str, host: str | None = "claude", *, cwd: str | None = None) -> FakeDecision:
        self.calls.append((command, host, cwd))
        return self.decision


def answer_for(host: str, payload: Any, code: int, rewrite: str) -> hooks.Outcome:
    return hooks.respond(HOSTS[host], payload, Engine(code, rewrite))


REWRITES = {
    "claude": ({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                       "permissionDecisionReason": "RTK auto-rewrite",
                                       "updatedInput": {"command": "rtk git status"}}},
               {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "permissionDecisionReason": "RTK auto-rewrite",
                                       "updatedInput": {"command": "rtk git status"}}}),
    "cursor": ({"continue": True, "permission": "allow", "updated_input": {"command": "rtk git status"}},
               {"continue": True, "permission": "ask", "updated_input": {"command": "rtk git status"}}),
    "gemini": ({"decision": "allow", "hookSpecificOutput": {"tool_input": {"command": "rtk git status"}}},
               {"hookSpecificOutput": {"tool_input": {"command": "rtk git status"}}}),
    "copilot": ({"permissionDecision": "allow", "permissionDecisionReason": "RTK auto-rewrite",
                 "modifiedArgs": {"command": "rtk git status"}},
                {"permissionDecisionReason": "RTK auto-rewrite", "modifiedArgs": {"command": "rtk git status"}}),
}
REWRITES["codex"] = REWRITES["claude"]


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize(("code", "allowed"), [(0, True), (3, False)])
def test_rewrite_answer_shapes(host: str, code: int, allowed: bool) -> None:
    engine = Engine(code, "rtk git status")
    outcome = hooks.respond(HOSTS[host], HOSTS[host].sample("git status", "/p"), engine)
    assert outcome.answer == REWRITES[host][0 if allowed else 1]
    assert outcome.audit == ("rewrite" if allowed else "ask", "git status", "rtk git status")
    assert engine.calls[0][:2] == ("git status", host)


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize(("code", "rewrite", "action"), [
    (1, "", "skip:defer"), (2, "", "skip:deny_rule"), (3, "git status", "skip:none"),
    (0, "git status", "skip:none"), (7, "rtk git status", "skip:defer"), (3, "", "skip:defer")])
def test_no_opinion_verdicts(host: str, code: int, rewrite: str, action: str) -> None:
    outcome = answer_for(host, HOSTS[host].sample("git status", "/p"), code, rewrite)
    assert outcome.answer == HOSTS[host].no_opinion
    assert outcome.audit == (action, "git status", "")


def test_no_opinion_is_empty_for_claude_codex_copilot_and_braces_for_cursor_gemini() -> None:
    assert {name: hooks.render(host.no_opinion) for name, host in HOSTS.items()} == {
        "claude": "", "codex": "", "copilot": "", "cursor": "{}\n", "gemini": "{}\n"}


def test_cwd_of_the_payload_reaches_the_engine() -> None:
    engine = Engine(3, "rtk pytest")
    hooks.respond(HOSTS["claude"], {"tool_name": "Bash", "tool_input": {"command": "pytest"},
                                    "cwd": "/work/proj"}, engine)
    assert engine.calls == [("pytest", "claude", "/work/proj")]


@pytest.mark.parametrize("payload", [
    None, [], "x", 3, {}, {"tool_name": "Bash"}, {"tool_name": "Bash", "tool_input": None},
    {"tool_name": "Bash", "tool_input": {"command": "   "}},
    {"tool_name": "Bash", "tool_input": {"command": None}},
    {"tool_name": ["Bash"], "tool_input": {"command": "git status"}},
    {"tool_name": "Read", "tool_input": {"command": "git status"}},
])
def test_unusable_payloads_never_reach_the_engine(payload: Any) -> None:
    engine = Engine(0, "rtk git status")
    outcome = hooks.respond(HOSTS["claude"], payload, engine)
    assert outcome.answer is None and outcome.audit is None and engine.calls == []


def test_codex_ignores_other_events() -> None:
    payload = {"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}
    assert answer_for("codex", payload, 0, "rtk ls").answer is None


def test_copilot_detects_both_shapes_and_keeps_args() -> None:
    cli = {"toolName": "bash", "toolArgs": json.dumps({"command": "git status", "description": "d"})}
    assert answer_for("copilot", cli, 3, "rtk git status").answer == {
        "permissionDecisionReason": "RTK auto-rewrite",
        "modifiedArgs": {"command": "rtk git status", "description": "d"}}
    vscode = {"tool_name": "runTerminalCommand", "tool_input": {"command": "git status", "explanation": "e"}}
    answer = answer_for("copilot", vscode, 3, "rtk git status").answer
    assert answer is not None
    assert answer["hookSpecificOutput"]["updatedInput"] == {"command": "rtk git status", "explanation": "e"}


@pytest.mark.parametrize("args", ["{not json", "[1]", json.dumps({"cmd": "ls"}), "null"])
def test_copilot_cli_bad_args_give_no_opinion(args: str) -> None:
    assert answer_for("copilot", {"toolName": "bash", "toolArgs": args}, 0, "rtk ls").answer is None


def test_tool_input_keys_and_their_order_are_kept() -> None:
    tool_input = {"description": "d", "command": "git log", "timeout": 5, "x": {"y": [1]}}
    payload = {"tool_name": "Bash", "tool_input": tool_input}
    answer = answer_for("claude", payload, 3, "rtk git log").answer
    assert answer is not None
    updated = answer["hookSpecificOutput"]["updatedInput"]
    assert list(updated.items()) == [("description", "d"), ("command", "rtk git log"), ("timeout", 5),
                                     ("x", {"y": [1]})]
    assert tool_input["command"] == "git log"


@pytest.mark.parametrize(("raw", "value", "problem"), [
    (b"", None, False), (b" \n\t", None, False), (b"\xef\xbb\xbf\xef\xbb\xbf{}", {}, False),
    (b"\xef\xbb\xbf  [1] \n", [1], False), (b"{", None, True), (b"\xff\xfe{}", None, True),
    (b"[" * 100_000, None, True), (b"1" * 5000, None, True), (b"NaN", "nan", False),
])
def test_parse_payload(raw: bytes, value: Any, problem: bool) -> None:
    parsed, message = hooks.parse_payload(raw)
    assert (message is not None) == problem
    assert (str(parsed) if value == "nan" else parsed) == value


def test_over_one_mib_is_refused_before_parsing() -> None:
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": "git status", "pad": "x" * 2**20}})
    parsed, message = hooks.parse_payload(payload.encode())
    assert parsed is None and message is not None and "1048576" in message


def test_lone_surrogate_in_answer_stays_valid_json() -> None:
    text = hooks.render({"updated_input": {"command": "rtk echo \ud800"}})
    assert text.endswith("\n") and "\\ud800" in text
    text.encode("utf-8")
