"""The post path (spec/post-path.md): which lines take it, each host's payload reader and answer,
and `rtk hook <host>` run as the host runs it on outputs captured from real commands."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rtk.agent import hooks
from rtk.agent.hosts import EVERY, HOSTS, READERS
from rtk.agent.hosts.copilot import split_exit_line
from rtk.agent.post_lines import routed_argv
from tests.agent.hooks.conftest import run_hook

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(("command", "readers", "every"), [
    ("git status", ["git", "status"], ["git", "status"]),
    ("cd src && git diff --stat", ["git", "diff", "--stat"], ["git", "diff", "--stat"]),
    ("GIT_PAGER=cat git -C repo log -n 5", ["git", "-C", "repo", "log", "-n", "5"],
     ["git", "-C", "repo", "log", "-n", "5"]),
    ("timeout 30 grep -rn TODO src", ["grep", "-rn", "TODO", "src"], ["grep", "-rn", "TODO", "src"]),
    ("sed -n 1,40p rtk/config.py", ["sed", "-n", "1,40p", "rtk/config.py"], ["sed", "-n", "1,40p", "rtk/config.py"]),
    ("git stash list", ["git", "stash", "list"], ["git", "stash", "list"]),
    ("cargo test", None, ["cargo", "test"]),  # a runner: Claude rewrites it before it runs
    ("git commit -m x", None, ["git", "commit", "-m", "x"]),
    ("git stash", None, ["git", "stash"]),
    ("git branch -D old", None, ["git", "branch", "-D", "old"]),
    ("git status && git log -1", None, None),  # two outputs merged: not one tool's
    ("git diff | head -40", None, None),
    ("grep -rn x . | wc -l", None, None),
    ("git diff > out.patch", None, None),
    ("cat $(git ls-files)", None, None),
    ("echo hi; ls", None, None),
    ("rtk git status", None, None),
    ("RTK_DISABLED=1 git status", None, None),
])
def test_which_lines_take_the_post_path(command: str, readers: list[str] | None, every: list[str] | None) -> None:
    assert routed_argv(command, READERS) == readers
    assert routed_argv(command, EVERY) == every
    assert routed_argv(command, None) is None


@pytest.mark.parametrize(("text", "body", "code", "framed"), [
    ("a\nb\n<shellId: 0 completed with exit code 1>", "a\nb", 1, "X\n<shellId: 0 completed with exit code 1>"),
    ("<shellId: 3 completed with exit code 0>\na\n", "a\n", 0, "<shellId: 3 completed with exit code 0>\nX"),
    ("no exit line at all", "no exit line at all", 0, "X"),
    ("a <shellId: 1 completed with exit code 2> b", "a <shellId: 1 completed with exit code 2> b", 2, "X"),
    ("a\n<shellId: 0 completed with exit code x>", "a\n<shellId: 0 completed with exit code x>", 0, "X"),
])
def test_copilot_exit_line_is_read_and_put_back_where_it_was(text: str, body: str, code: int, framed: str) -> None:
    got_body, got_code, frame = split_exit_line(text)
    assert (got_body, got_code, frame("X")) == (body, code, framed)


def _claude(command: str, stdout: str, **response: object) -> dict:
    return {"session_id": "s", "cwd": str(ROOT), "permission_mode": "default", "hook_event_name": "PostToolUse",
            "tool_name": "Bash", "tool_input": {"command": command, "description": "d"}, "tool_use_id": "t",
            "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False, **response}}


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout


needs_history = pytest.mark.skipif(not (ROOT / ".git").exists() or len(_git("rev-list", "--max-count=300", "HEAD")
                                                                       .split()) < 300 if (ROOT / ".git").exists()
                                   else True, reason="needs this checkout's git history (300 commits)")


@needs_history
def test_claude_reads_the_persisted_file_and_answers_without_its_path(tmp_path: Path, hermetic_rtk: Path) -> None:
    """Past 30,000 chars Claude passes the start and a file with all of it; the answer must
    summarise the whole (its last commit included), fit Claude's limit, name the recall id, and
    never echo persistedOutputPath (Claude would show its 2 KB preview of the file instead)."""
    whole = _git("log", "-n", "300", "--stat")
    assert len(whole) > 30_000
    saved = tmp_path / "toolu_1.txt"
    saved.write_text(whole)
    payload = _claude("git log -n 300 --stat", whole[:30_000], persistedOutputPath=str(saved),
                      persistedOutputSize=len(whole))
    result = run_hook("claude", json.dumps(payload).encode(), {"RTK_TRACK_SYNC": "1"})
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)["hookSpecificOutput"]
    assert answer["hookEventName"] == "PostToolUse"
    updated = answer["updatedToolOutput"]
    assert "persistedOutputPath" not in updated and "persistedOutputSize" not in updated
    assert updated["stderr"] == "" and updated["interrupted"] is False
    last_commit = _git("log", "-n", "300", "--format=%h")[:-1].split("\n")[-1]
    if "a map (the host would show its first 2 KB)]" in updated["stdout"]:  # a reader's map (issue 40)
        assert f"{len(whole):,} chars" in updated["stdout"]  # the whole file, past what `stdout` held
        assert whole.rstrip().split("\n")[-1] in updated["stdout"]  # and its end
    else:
        assert last_commit in updated["stdout"]  # from the file, past what `stdout` held
    assert len(updated["stdout"]) < 30_000
    runs = _history(hermetic_rtk)
    assert [(via, command) for via, command, _ in runs] == [("post:claude", "git log -n 300 --stat")]
    assert runs[0][2] is not None  # the baseline is Claude's preview, not the whole output


def _history(home: Path) -> list[tuple[str, str, int | None]]:
    db = next(home.rglob("history.db"), None) or next(home.rglob("*.db"))
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT via, command, baseline_tokens FROM runs").fetchall()


def test_claude_output_that_would_not_shrink_is_kept(hermetic_rtk: Path) -> None:
    payload = _claude("ls", "README.md\nrtk\n")
    result = run_hook("claude", json.dumps(payload).encode())
    assert (result.returncode, result.stdout) == (0, b"")


@pytest.mark.parametrize("response", [{"interrupted": True}, {"isImage": True}, {"stdout": 3}])
def test_claude_unusable_responses_get_no_opinion(response: dict) -> None:
    payload = _claude("git log -n 3", "x\n" * 100)
    payload["tool_response"].update(response)
    assert HOSTS["claude"].finished(payload) is None


def test_a_symlinked_or_missing_saved_file_falls_back_to_the_text(tmp_path: Path) -> None:
    from rtk.run.post import _saved_chunks

    target = tmp_path / "real.txt"
    target.write_text("secret\n")
    (tmp_path / "link.txt").symlink_to(target)
    assert _saved_chunks(str(tmp_path / "link.txt")) is None
    assert _saved_chunks(str(tmp_path / "missing.txt")) is None
    assert _saved_chunks(str(tmp_path)) is None
    assert _saved_chunks(str(target)) == [b"secret\n"]


def test_a_failing_post_filter_keeps_the_hosts_output(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(host: str, done: object, argv: list[str]) -> str | None:
        from rtk.run.post import filter_finished

        monkeypatch.setattr("rtk.run.post._filter", lambda *a: (_ for _ in ()).throw(RuntimeError("boom")))
        return filter_finished(host, done, argv)  # type: ignore[arg-type]

    payload = _claude("git log -n 3", "commit abc\n" * 200)
    outcome = hooks.handle(HOSTS["claude"], json.dumps(payload).encode(), post=broken)
    assert outcome.answer is None and outcome.audit == ("post:keep", "git log -n 3", "")


def test_opencode_reads_its_saved_file(tmp_path: Path) -> None:
    saved = tmp_path / "tool_x"
    saved.write_text("full\n")
    payload = {"hook_event_name": "tool.execute.after", "tool": "bash", "args": {"command": "ls -la"},
               "cwd": "/", "exit": 2, "output": f"part\n\n...output truncated...\n\nFull output saved to: {saved}\n"}
    done = HOSTS["opencode"].finished(payload)
    assert done is not None and (done.saved, done.exit_code) == (str(saved), 2)
    assert done.answer("x") == {"output": "x"}
    assert HOSTS["opencode"].finished({**payload, "exit": True}).exit_code == 0  # type: ignore[union-attr]


def test_the_post_hook_keeps_heavy_modules_away(tmp_path: Path) -> None:
    """The post hook runs after every shell command: no trio, click, tiktoken or sqlite3 in the
    hook process (tokens are counted by the tracking worker)."""
    payload = _claude("git log -n 40 --stat", _git("log", "-n", "40", "--stat"))
    probe = (
        "import sys, io, json\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({json.dumps(payload).encode()!r}))\n"
        "from rtk.__main__ import main\n"
        "code = main(['hook', 'claude'])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('trio', 'click', 'tiktoken', 'tiktoken_ext', 'sqlite3', '_sqlite3', 'pexpect'))\n"
        "print(json.dumps([code, heavy]), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False,
                            env={**os.environ, "RTK_TRACK_LINGER": "0.2"})
    code, heavy = json.loads(result.stderr.splitlines()[-1])
    assert code == 0 and heavy == []
    assert "updatedToolOutput" in result.stdout


@needs_history
def test_copilot_saved_output_is_summarised_whole_and_counted_against_its_notice(
        tmp_path: Path, hermetic_rtk: Path) -> None:
    """Copilot passes a short notice naming the file that holds a long output: rtk filters the file
    (the answer may be longer than the notice, never longer than the output) and counts its
    saving against what Copilot would have shown, the notice."""
    whole = _git("log", "-n", "300", "--stat")
    saved = tmp_path / "copilot-tool-output-1.txt"
    saved.write_text(whole)
    notice = (f"Output too large to read at once ({len(whole) / 1024:.1f} KB). Saved to: {saved}\n"
              "<shellId: 0 completed with exit code 0>")
    payload = {"sessionId": "s", "cwd": str(ROOT), "toolName": "bash", "toolArgs": {"command": "git log -n 300 --stat"},
               "toolResult": {"resultType": "success", "textResultForLlm": notice}}
    result = run_hook("copilot", json.dumps(payload).encode(), {"RTK_TRACK_SYNC": "1"})
    text = json.loads(result.stdout)["modifiedResult"]["textResultForLlm"]
    assert len(notice) < len(text) < len(whole)
    assert text.endswith("\n<shellId: 0 completed with exit code 0>")
    last_commit = _git("log", "-n", "300", "--format=%h")[:-1].split("\n")[-1]
    assert last_commit in text
    (via, command, baseline), = _history(hermetic_rtk)
    assert (via, command) == ("post:copilot", "git log -n 300 --stat") and baseline is not None and baseline < 100


def _opencode_cut(whole: str, saved: Path, kept: int) -> dict:
    """OpenCode's text for a cut output: the notice, then the end of the output."""
    tail = whole[-51_000:]
    saved.write_text(whole[:kept])
    return {"hook_event_name": "tool.execute.after", "tool": "bash", "args": {"command": "git log -n 300 --stat"},
            "cwd": str(ROOT), "exit": 0,
            "output": f"...output truncated...\nFull output saved to: {saved}\n{tail[tail.find(chr(10)) + 1:]}"}


@needs_history
@pytest.mark.parametrize(("kept", "replaced"), [(None, True), (-30_000, False), (-120_000, False)])
def test_opencode_saved_file_short_of_its_end_is_left_alone(
        tmp_path: Path, kept: int | None, replaced: bool) -> None:
    """OpenCode 1.18.33 can run the hook before its saved file has its last writes: a file that does
    not end with the end OpenCode showed is never summarised as the whole output (not even where
    they overlap: repetitive output would find a wrong place to join)."""
    whole = _git("log", "-n", "300", "--stat")
    assert len(whole) > 200_000
    payload = _opencode_cut(whole, tmp_path / "tool_1", len(whole) if kept is None else len(whole) + kept)
    result = run_hook("opencode", json.dumps(payload).encode())
    assert result.returncode == 0
    if not replaced:
        assert result.stdout == b""
        return
    text = json.loads(result.stdout)["output"]
    last_commit = _git("log", "-n", "300", "--format=%h")[:-1].split("\n")[-1]
    first_commit = _git("log", "-n", "1", "--format=%h").strip()
    assert last_commit in text and first_commit in text and len(text) < len(whole)


def test_an_output_the_host_keeps_is_not_counted_as_saved(hermetic_rtk: Path) -> None:
    """No replacement, no record: the filtered bytes the pipeline made were never shown."""
    payload = _claude("ls", "README.md\nrtk\n")
    result = run_hook("claude", json.dumps(payload).encode(), {"RTK_TRACK_SYNC": "1"})
    assert result.stdout == b""
    assert not list(hermetic_rtk.rglob("*history*.db"))
