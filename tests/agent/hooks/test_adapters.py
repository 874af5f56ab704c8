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
    verdict: str = "default"
    segments: tuple = ()


class Engine:
    """Answers every command with one fixed verdict and records what it was asked."""

    def __init__(self, code: int, rewrite: str, verdict: str = "default") -> None:
        self.decision = FakeDecision(code, rewrite, (), verdict)
        self.calls: list[tuple[str, str | None, str | None]] = []

    def __call__(self, command: str, host: str | None = "claude", *, cwd: str | None = None,
                 program: str = "rtk") -> FakeDecision:
        self.calls.append((command, host, cwd))
        return self.decision


def answer_for(host: str, payload: Any, code: int, rewrite: str, verdict: str = "default") -> hooks.Outcome:
    return hooks.respond(HOSTS[host], payload, Engine(code, rewrite, verdict))


def _claude(decision: str | None) -> dict:
    out: dict = {"hookEventName": "PreToolUse"}
    if decision:
        out |= {"permissionDecision": decision, "permissionDecisionReason": "RTK auto-rewrite"}
    return {"hookSpecificOutput": {**out, "updatedInput": {"command": "rtk cargo test"}}}


CURSOR_ALLOW = {"continue": True, "permission": "allow", "updated_input": {"command": "rtk cargo test"}}
CURSOR_ASK = {"continue": True, "permission": "ask", "updated_input": {"command": "rtk cargo test"}}
GEMINI = {"hookSpecificOutput": {"tool_input": {"command": "rtk cargo test"}}}
# verdict -> (answer, audit action) per host: spec/hooks.md, "for rtk X the outcome the host gives X"
ANSWERS = {
    "claude": {"allow": (_claude("allow"), "rewrite"), "default": (_claude(None), "ask"),
               "ask": (_claude("ask"), "ask")},
    # Codex and Gemini re-check the rtk form with the real engine (no rules here: default), so a
    # verdict of allow for X that the rtk form does not share gives no answer
    "codex": {"allow": (None, "skip:defer"), "default": (_claude("allow"), "rewrite"),
              "ask": (None, "skip:defer")},
    "cursor": {"allow": (CURSOR_ALLOW, "rewrite"), "default": (CURSOR_ASK, "ask"),
               "ask": (CURSOR_ASK, "ask")},
    "gemini": {"allow": ({}, "skip:defer"), "default": (GEMINI, "ask"), "ask": ({}, "skip:defer")},
}


PRE_HOSTS = list(ANSWERS)  # Copilot CLI and OpenCode rewrite nothing: they take the post path only


@pytest.mark.parametrize("host", PRE_HOSTS)
@pytest.mark.parametrize(("code", "verdict"), [(0, "allow"), (3, "default"), (3, "ask")])
def test_answer_per_host_and_verdict(host: str, code: int, verdict: str) -> None:
    """Gemini re-checks the rtk form with the real engine (no rules here: default): it rewrites
    only when the verdicts agree."""
    engine = Engine(code, "rtk cargo test", verdict)
    outcome = hooks.respond(HOSTS[host], HOSTS[host].sample("cargo test", "/p"), engine)
    answer, action = ANSWERS[host][verdict]
    assert outcome.answer == answer
    assert outcome.audit == (action, "cargo test", "rtk cargo test" if action in ("rewrite", "ask") else "")
    assert engine.calls[0][:2] == ("cargo test", host)


@pytest.mark.parametrize("host", PRE_HOSTS)
@pytest.mark.parametrize(("code", "rewrite", "action"), [
    (1, "", "skip:defer"), (2, "", "skip:deny_rule"), (3, "cargo test", "skip:none"),
    (0, "cargo test", "skip:none"), (7, "rtk cargo test", "skip:defer"), (3, "", "skip:defer")])
def test_no_opinion_verdicts(host: str, code: int, rewrite: str, action: str) -> None:
    outcome = answer_for(host, HOSTS[host].sample("cargo test", "/p"), code, rewrite)
    assert outcome.answer == HOSTS[host].no_opinion
    assert outcome.audit == (action, "cargo test", "")


@pytest.mark.parametrize("host", ["copilot", "opencode"])
def test_post_only_hosts_never_ask_the_engine_before_a_command(host: str) -> None:
    engine = Engine(0, "rtk cargo test", "allow")
    outcome = hooks.respond(HOSTS[host], HOSTS[host].sample("cargo test", "/p"), engine)
    assert outcome.answer is None and outcome.audit is None and engine.calls == []


def test_no_opinion_is_empty_for_claude_codex_copilot_opencode_and_braces_for_cursor_gemini() -> None:
    assert {name: hooks.render(host.no_opinion) for name, host in HOSTS.items()} == {
        "claude": "", "codex": "", "copilot": "", "cursor": "{}\n", "gemini": "{}\n", "opencode": "", "droid": "", "kilo": "", "trae": "", "cline": "", "hermes": ""}


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


def test_copilot_cli_pre_payloads_get_no_opinion_and_vscode_terminal_gets_claudes_pre_path() -> None:
    """Copilot CLI takes the post path only; VS Code's `run_in_terminal` (Claude's shape) is
    rewritten before it runs, keeping the other keys of its input."""
    cli = {"toolName": "bash", "toolArgs": json.dumps({"command": "cargo test", "description": "d"})}
    assert answer_for("copilot", cli, 3, "rtk cargo test").answer is None
    as_object = {"toolName": "bash", "toolArgs": {"command": "cargo test", "description": "d"}}
    assert answer_for("copilot", as_object, 0, "rtk cargo test", "allow").answer is None
    vscode = {"hook_event_name": "PreToolUse", "tool_name": "run_in_terminal",
              "tool_input": {"command": "cargo test", "explanation": "e"}}
    answer = answer_for("copilot", vscode, 3, "rtk cargo test").answer
    assert answer is not None
    assert answer["hookSpecificOutput"]["updatedInput"] == {"command": "rtk cargo test", "explanation": "e"}
    assert "permissionDecision" not in answer["hookSpecificOutput"]
    allowed = answer_for("copilot", vscode, 0, "rtk cargo test", "allow").answer
    assert allowed is not None and allowed["hookSpecificOutput"]["permissionDecision"] == "allow"
    reader = {**vscode, "tool_input": {"command": "git status"}}
    assert answer_for("copilot", reader, 3, "rtk git status").answer is None  # VS Code may run it silently


@pytest.mark.parametrize("args", ["{not json", "[1]", json.dumps({"cmd": "ls"}), "null"])
def test_copilot_cli_bad_args_give_no_opinion(args: str) -> None:
    assert answer_for("copilot", {"toolName": "bash", "toolArgs": args}, 0, "rtk ls").answer is None


def test_tool_input_keys_and_their_order_are_kept() -> None:
    tool_input = {"description": "d", "command": "pytest -x", "timeout": 5, "x": {"y": [1]}}
    payload = {"tool_name": "Bash", "tool_input": tool_input}
    answer = answer_for("claude", payload, 3, "rtk pytest -x").answer
    assert answer is not None
    updated = answer["hookSpecificOutput"]["updatedInput"]
    assert list(updated.items()) == [("description", "d"), ("command", "rtk pytest -x"), ("timeout", 5),
                                     ("x", {"y": [1]})]
    assert tool_input["command"] == "pytest -x"


@pytest.mark.parametrize(("raw", "value", "problem"), [
    (b"", None, False), (b" \n\t", None, False), (b"\xef\xbb\xbf\xef\xbb\xbf{}", {}, False),
    (b"\xef\xbb\xbf  [1] \n", [1], False), (b"{", None, True), (b"\xff\xfe{}", None, True),
    (b"[" * 100_000, None, True), (b"1" * 5000, None, True), (b"NaN", None, True),
    (b'{"a": Infinity}', None, True), (b"[-Infinity]", None, True),
])
def test_parse_payload(raw: bytes, value: Any, problem: bool) -> None:
    parsed, message = hooks.parse_payload(raw)
    assert (message is not None) == problem
    assert parsed == value


def test_over_one_mib_is_refused_before_parsing() -> None:
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": "git status", "pad": "x" * 2**20}})
    parsed, message = hooks.parse_payload(payload.encode())
    assert parsed is None and message is not None and "1048576" in message


def test_lone_surrogate_in_answer_stays_valid_json() -> None:
    text = hooks.render({"updated_input": {"command": "rtk echo \ud800"}})
    assert text.endswith("\n") and "\\ud800" in text
    text.encode("utf-8")


@pytest.mark.parametrize("host", PRE_HOSTS)
def test_a_huge_command_is_left_to_the_host_without_lexing(host: str) -> None:
    """100,000 words would take the lexer seconds: past the cap the engine is not even asked."""
    command = "git status " + " ".join(f"w{i}" for i in range(100_000))
    engine = Engine(3, "rtk " + command)
    outcome = hooks.respond(HOSTS[host], HOSTS[host].sample(command, "/p"), engine)
    assert outcome.answer == HOSTS[host].no_opinion
    assert outcome.audit is not None and outcome.audit[0] == "skip:defer"
    assert engine.calls == []
