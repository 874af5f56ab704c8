"""`rtk hook-audit` reads back what `rtk hook` wrote to hook-audit.log, through the real hook."""
from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from rtk.agent import audit_report
from rtk.agent.hooks import audit_line
from tests.conftest import rtk_executable


def _hook(command: str, env: dict[str, str]) -> None:
    payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}})
    subprocess.run([*rtk_executable(), "hook", "claude"], input=payload, text=True, capture_output=True,
                   env=env, check=True)


def test_summary_of_real_hook_decisions(tmp_path: Path) -> None:
    env = {**os.environ, "RTK_HOOK_AUDIT": "1", "HOME": str(tmp_path)}
    for command in ("cargo test", "cargo test -q", "git status", "ls | wc -l", "echo hi"):
        _hook(command, env)
    proc = subprocess.run([*rtk_executable(), "hook-audit", "--format", "json"], capture_output=True, text=True,
                          env=env, check=True)
    data = json.loads(proc.stdout)
    assert data["decisions"] == 5
    assert dict(data["top_rewritten"])["cargo test"] == 2
    assert data["actions"]["skip:post"] == 1  # git status: the post path replaces its output
    assert sum(data["actions"].values()) == 5
    text = subprocess.run([*rtk_executable(), "hook-audit"], capture_output=True, text=True, env=env, check=True).stdout
    assert text.startswith("hook audit: 5 decisions in the last 7 days")


def test_escaped_fields_round_trip() -> None:
    line = audit_line("2026-12-01T10:00:00", "rewrite", "printf 'a|b\\n' | cat", "rtk x")
    entry = audit_report.parse_line(line)
    assert entry is not None and entry.original == "printf 'a|b\\n' | cat" and entry.action == "rewrite"


def test_since_bounds_the_entries(tmp_path: Path) -> None:
    log = tmp_path / "hook-audit.log"
    old = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(time.time() - 30 * 86400))
    new = time.strftime("%Y-%m-%dT%H:%M:%S")
    log.write_text(audit_line(old, "rewrite", "git log", "rtk git log") + audit_line(new, "skip:defer", "ls", "")
                   + "garbage line\n")
    assert [e.action for e in audit_report.read_entries(str(log), 7)] == ["skip:defer"]
    assert len(audit_report.read_entries(str(log), 0)) == 2


def test_no_log_is_one_line_and_exit_0(tmp_path: Path) -> None:
    proc = subprocess.run([*rtk_executable(), "hook-audit"], capture_output=True, text=True,
                          env={**os.environ, "RTK_AUDIT_DIR": str(tmp_path / "none")}, check=False)
    assert proc.returncode == 0 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1
