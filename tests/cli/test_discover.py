"""`rtk discover` on Claude Code transcripts written in the documented JSONL shape (one object a
line: `assistant` lines with `tool_use` blocks, `user` lines with the matching `tool_result`)."""
from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from rtk.gain import discover, transcripts
from tests.conftest import ROOT, rtk_executable

GIT_STATUS = ROOT / "fixtures" / "git" / "status_dirty_mixed" / "raw.txt"  # a real `git status`


def _use(use_id: str, command: str, cwd: str, when: datetime) -> dict[str, object]:
    return {"type": "assistant", "cwd": cwd, "sessionId": "s1", "timestamp": when.isoformat().replace("+00:00", "Z"),
            "message": {"role": "assistant", "content": [
                {"type": "text", "text": "Let me look."},
                {"type": "tool_use", "id": use_id, "name": "Bash", "input": {"command": command, "description": "x"}}]}}


def _result(use_id: str, output: str, error: bool = False, as_blocks: bool = False) -> dict[str, object]:
    content: object = [{"type": "text", "text": output}] if as_blocks else output
    return {"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": use_id, "content": content, "is_error": error}]}}


@pytest.fixture
def claude_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    project = tmp_path / "claude" / "projects" / "-work-app"
    project.mkdir(parents=True)
    status = GIT_STATUS.read_text(encoding="utf-8", errors="replace")
    now = datetime.now(UTC)
    old = now - timedelta(days=90)
    lines = [
        _use("t1", "git status", "/work/app", now), _result("t1", status),
        _use("t2", "ls -la", "/work/app", now), _result("t2", "total 0\ndrwxr-xr-x 2 a a 40 . \n", as_blocks=True),
        _use("t3", "rtk cargo test", "/work/app", now), _result("t3", "cargo test: 3 passed"),
        _use("t4", "git status", "/work/app", old), _result("t4", status),
        _use("t5", "git status", "/elsewhere", now), _result("t5", status),
        {"type": "system", "subtype": "stop_hook_summary"},
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\nnot json at all\n"
    (project / "11111111-2222.jsonl").write_text(text, encoding="utf-8")
    return tmp_path / "claude" / "projects"


def test_calls_are_paired_with_their_results(claude_dir: Path) -> None:
    calls = list(transcripts.read_session(str(next(claude_dir.glob("*/*.jsonl")))))
    assert [c.command for c in calls] == ["git status", "ls -la", "rtk cargo test", "git status", "git status"]
    assert calls[1].output.startswith("total 0")
    assert calls[0].cwd == "/work/app" and calls[0].when is not None


def test_scope_by_days_and_project(claude_dir: Path) -> None:
    calls = list(transcripts.read_session(str(next(claude_dir.glob("*/*.jsonl")))))
    recent_here = [c for c in calls if discover.in_scope(c, discover.parse_window("30"), "/work/app")]
    assert [c.command for c in recent_here] == ["git status", "ls -la", "rtk cargo test"]
    assert len([c for c in calls if discover.in_scope(c, discover.parse_window("0"), None)]) == 5


@pytest.mark.parametrize(("text", "words", "days"), [
    ("7d", "the last 7 days", 7), ("7", "the last 7 days", 7), ("12h", "the last 12 hours", 0.5),
    ("2w", "the last 2 weeks", 14), ("1d", "the last 1 day", 1), ("0", "all time", 0),
    ("2026-11-01", "since 2026-11-01 00:00 UTC", None)])
def test_since_takes_the_forms_rtk_gain_takes(text: str, words: str, days: float | None) -> None:
    window = discover.parse_window(text)
    assert (window.words, window.days) == (words, days)


def test_a_bad_since_is_a_usage_error(claude_dir: Path) -> None:
    proc = subprocess.run([*rtk_executable(), "discover", "--since", "soon"], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 2 and proc.stderr.startswith("rtk: ") and len(proc.stderr.splitlines()) == 1


def test_json_report_counts_calls_tokens_and_the_saving(claude_dir: Path) -> None:
    proc = subprocess.run([*rtk_executable(), "discover", "--all", "--since", "0d", "--format", "json"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["commands"] == 5 and data["through_rtk"] == 1 and data["sessions"] == 1
    routed = {g["command"]: g for g in data["routable"]}
    assert routed["git status"]["calls"] == 3
    assert 0 < routed["git status"]["tokens_with_rtk"] < routed["git status"]["output_tokens"]
    assert data["routable_total"]["calls"] + data["unhandled_total"]["calls"] == 4


def test_text_report_names_the_commands(claude_dir: Path) -> None:
    proc = subprocess.run([*rtk_executable(), "discover", "--all", "--since", "0"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert "5 shell commands in 1 sessions" in proc.stdout
    assert "git status" in proc.stdout and "would have been saved" in proc.stdout


def test_missing_transcripts_are_one_line_and_exit_0(tmp_path: Path) -> None:
    proc = subprocess.run([*rtk_executable(), "discover"], capture_output=True, text=True, check=False,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "CLAUDE_CONFIG_DIR": str(tmp_path / "none")})
    assert proc.returncode == 0
    assert proc.stdout == "" and len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("rtk: ")
