"""Driving session memory as Claude Code does: hook payloads in-process (`rtk hook claude`'s own
`handle`), `rtk X` as a real process with Claude's environment, real tools (git, pytest, cat)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from rtk.__main__ import _post_filter
from rtk.agent import hooks
from rtk.agent.hosts import HOSTS
from tests.conftest import rtk_executable

CLAUDE = HOSTS["claude"]


def payload(event: str, session: str = "s1", agent: str | None = None, **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"session_id": session, "transcript_path": "", "hook_event_name": event,
                            "permission_mode": "bypassPermissions", **fields}
    if agent:
        data.update(agent_id=agent, agent_type="general-purpose")
    return data


def hook(data: dict[str, Any]) -> dict[str, Any] | None:
    """`rtk hook claude` on one payload, in this process (cwd is restored by the caller's fixture)."""
    outcome = hooks.handle(CLAUDE, json.dumps(data).encode(), post=_post_filter)
    return outcome.answer


def shown(cwd: Path, command: str, session: str = "s1", agent: str | None = None,
          transcript: str = "") -> str:
    """A command Claude ran itself (a reader), through the PostToolUse hook: what the model reads."""
    words = command.split()
    done = subprocess.run(words, cwd=cwd, capture_output=True, text=True, check=False)
    data = payload("PostToolUse", session, agent, cwd=str(cwd), tool_name="Bash", transcript_path=transcript,
                   tool_input={"command": command},
                   tool_response={"stdout": done.stdout + done.stderr, "stderr": "", "interrupted": False,
                                  "isImage": False})
    answer = hook(data)
    return answer["hookSpecificOutput"]["updatedToolOutput"]["stdout"] if answer else done.stdout + done.stderr


def rtk_run(cwd: Path, command: str, session: str = "s1", agent: str | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A runner as Claude runs it: PreToolUse rewrites it (and notes the agent), then `rtk X` runs
    with CLAUDECODE=1 and CLAUDE_CODE_SESSION_ID in its environment."""
    answer = hook(payload("PreToolUse", session, agent, cwd=str(cwd), tool_name="Bash",
                          tool_input={"command": command}))
    rewritten = answer["hookSpecificOutput"]["updatedInput"]["command"] if answer else command
    assert rewritten.startswith("rtk "), rewritten
    full = dict(os.environ, CLAUDECODE="1", CLAUDE_CODE_SESSION_ID=session, **(env or {}))
    return subprocess.run([*rtk_executable(), *rewritten.split()[1:]], cwd=cwd, capture_output=True,
                          text=True, env=full, check=False, timeout=120)


def git_repo(root: Path, files: int = 30) -> Path:
    repo = root / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    for i in range(files):
        (repo / f"module_{i:02d}.py").write_text(f"VALUE_{i} = {i}\n")
    return repo


PYTEST_PROJECT = {
    "calc.py": "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a + b\n",
    "test_calc.py": (
        "from calc import add, mul\n\n\n"
        "def test_add():\n    assert add(1, 2) == 3\n\n\n"
        "def test_add_zero():\n    assert add(0, 5) == 5\n\n\n"
        "def test_mul():\n    table = {i: mul(i, 3) for i in range(8)}\n"
        "    assert table == {i: i * 3 for i in range(8)}, 'the table of 3 is wrong'\n\n\n"
        "def test_ok():\n    assert True\n"),
}


def pytest_project(root: Path) -> Path:
    project = root / "proj"
    project.mkdir()
    for name, text in PYTEST_PROJECT.items():
        (project / name).write_text(text)
    return project


PYTHON = sys.executable
