"""Nothing said before a boundary is referred to after it: Claude's PreCompact and SessionStart
hooks end every context of their session; a compaction in the transcript, or a transcript that
shrank or was replaced, ends it where no hook fired."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.session.helpers import git_repo, hook, payload, shown


@pytest.mark.parametrize("event", [
    payload("PreCompact", trigger="auto"), payload("PreCompact", trigger="manual"),
    payload("SessionStart", source="compact"), payload("SessionStart", source="clear"),
    payload("SessionStart", source="resume"), payload("SessionStart", source="startup"),
    payload("Interrupt", source="user", reason="rewind"),
])
def test_a_boundary_hook_ends_every_context_of_the_session(tmp_path: Path, event: dict) -> None:
    repo = git_repo(tmp_path)
    for agent in (None, "a1"):
        shown(repo, "git status", agent=agent)
    shown(repo, "git status", session="other")
    assert hook(event) is None  # no opinion: the host goes on as it would
    for agent in (None, "a1"):
        assert "module_29.py" in shown(repo, "git status", agent=agent)
    assert "ran again" in shown(repo, "git status", session="other")


def _transcript(path: Path, *records: dict) -> None:
    with path.open("a") as handle:
        for record in records:
            handle.write(json.dumps(record) + "\n")


def test_a_compaction_in_the_transcript_is_a_boundary(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    transcript = tmp_path / "t.jsonl"
    _transcript(transcript, {"type": "user", "uuid": "u1", "message": {"content": "hi"}})
    shown(repo, "git status", transcript=str(transcript))
    _transcript(transcript, {"type": "assistant", "uuid": "u2"})
    assert "ran again" in shown(repo, "git status", transcript=str(transcript))
    _transcript(transcript, {"type": "system", "subtype": "compact_boundary", "uuid": "u3"},
                {"type": "user", "isCompactSummary": True, "uuid": "u4"})
    assert "module_29.py" in shown(repo, "git status", transcript=str(transcript))
    assert "ran again" in shown(repo, "git status", transcript=str(transcript))


def test_a_transcript_that_shrank_or_was_replaced_is_a_boundary(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    transcript = tmp_path / "t.jsonl"
    _transcript(transcript, *({"type": "user", "uuid": f"u{i}"} for i in range(5)))
    shown(repo, "git status", transcript=str(transcript))
    transcript.write_text('{"type": "user"}\n')  # rewritten shorter
    assert "module_29.py" in shown(repo, "git status", transcript=str(transcript))
    replacement = tmp_path / "t2.jsonl"
    _transcript(replacement, *({"type": "user", "uuid": f"u{i}"} for i in range(9)))
    replacement.replace(transcript)  # another file under the same name
    assert "module_29.py" in shown(repo, "git status", transcript=str(transcript))


def test_rtk_session_lists_the_boundary(tmp_path: Path) -> None:
    from rtk.session import listing

    repo = git_repo(tmp_path)
    shown(repo, "git status")
    shown(repo, "git status")
    hook(payload("PreCompact", trigger="auto"))
    lines = listing.calls("s1")
    assert lines[0] == "claude s1 main:"
    assert [line.split()[2] for line in lines[1:]] == ["first", "repeat", "boundary"]


def test_a_stopped_turn_is_no_boundary(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    shown(repo, "git status")
    assert hook(payload("Interrupt", source="user", reason="stop")) is None
    assert "ran again" in shown(repo, "git status")
