"""Whose context a call is: payload ids on the post path; on the pre path the session from
CLAUDE_CODE_SESSION_ID and the agent from the one hook call that rewrote the command."""
from __future__ import annotations

import pytest

from rtk.session import identity
from rtk.session.identity import Context, from_claude_payload, from_run, note_rewrite

ENV = {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "s1"}


def test_the_agent_comes_from_the_rewrite_that_named_the_command() -> None:
    note_rewrite(Context("claude", "s1", "a7", "/t.jsonl"), [["cd", "src"], ["pytest", "-q"]])
    found = from_run(["pytest", "-q"], ENV)
    assert found is not None and (found.session, found.agent, found.transcript) == ("s1", "a7", "/t.jsonl")
    assert from_run(["pytest", "-q"], ENV) is None  # taken: a second run needs a second rewrite


def test_two_agents_running_the_same_command_at_once_get_no_memory() -> None:
    note_rewrite(Context("claude", "s1"), [["pytest", "-q"]])
    note_rewrite(Context("claude", "s1", "a1"), [["pytest", "-q"]])
    assert from_run(["pytest", "-q"], ENV) is None


def test_a_rewrite_that_never_ran_is_forgotten() -> None:
    note_rewrite(Context("claude", "s1", "a1"), [["pytest"]], now=1000.0)
    assert from_run(["pytest"], ENV, now=1000.0 + identity.PENDING_SECONDS + 1) is None


@pytest.mark.parametrize("env", [{}, {"CLAUDECODE": "1"}, {"CLAUDE_CODE_SESSION_ID": "s1"},
                                 {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "a|b"}])
def test_no_session_in_the_environment_no_memory(env: dict) -> None:
    note_rewrite(Context("claude", "s1"), [["pytest"]])
    assert from_run(["pytest"], env) is None


def test_another_sessions_rewrite_does_not_count() -> None:
    note_rewrite(Context("claude", "s2"), [["pytest"]])
    assert from_run(["pytest"], ENV) is None


@pytest.mark.parametrize(("fields", "key"), [
    ({"session_id": "s1"}, "claude|s1|main"),
    ({"session_id": "s1", "agent_id": "a1", "agent_type": "Explore"}, "claude|s1|a1"),
    ({"session_id": ""}, None), ({"session_id": 3}, None), ({}, None),
    ({"session_id": "s1", "agent_id": 5}, None), ({"session_id": "s1", "agent_id": ""}, None),
    ({"session_id": "s|1"}, None),
])
def test_payload_identity(fields: dict, key: str | None) -> None:
    found = from_claude_payload(fields)
    assert (found.key if found else None) == key
