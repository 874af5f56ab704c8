"""`rtk init --agent codex` writes the rtk form of the user's Codex allow rules beside them, so a
command a prefix_rule lets run outside Codex's sandbox is still allowed once rewritten to `rtk X`
(without the twin the hook gives no answer: Codex would run `rtk X` sandboxed)."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.agent.hooks.conftest import run_hook
from tests.conftest import rtk_executable

RULES = 'prefix_rule(\n    pattern = ["pytest"],\n    decision = "allow",\n)\n' \
        'prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")\n' \
        'prefix_rule(pattern=["cargo", ["test", "build"]], decision="allow")\n'


def init(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "CODEX_HOME": str(home / ".codex")}
    return subprocess.run([*rtk_executable(), "init", "-g", "--agent", "codex", *args], env=env, cwd=home,
                          capture_output=True, text=True, timeout=60, check=False)


def codex_answer(home: Path, command: str) -> dict | None:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(home),
               "tool_input": {"command": command}}
    result = run_hook("codex", json.dumps(payload).encode(), {"HOME": str(home), "CODEX_HOME": str(home / ".codex")})
    return json.loads(result.stdout) if result.stdout.strip() else None


def test_twins_let_an_allowed_command_be_rewritten_and_uninstall_removes_them(tmp_path: Path) -> None:
    rules = tmp_path / ".codex" / "rules"
    rules.mkdir(parents=True)
    (rules / "default.rules").write_text(RULES)
    assert codex_answer(tmp_path, "pytest tests") is None  # before: the rtk form would run sandboxed
    result = init(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "2 rtk-form twins of your Codex allow rules" in result.stdout
    twins = (rules / "rtk-twins.rules").read_text()
    assert twins.count("prefix_rule(") == 2 and '"pytest"]' in twins and '["build", "test"]' in twins
    assert "push" not in twins  # only allow rules get a twin
    answer = codex_answer(tmp_path, "pytest tests")
    assert answer is not None and answer["hookSpecificOutput"]["permissionDecision"] == "allow"
    assert answer["hookSpecificOutput"]["updatedInput"]["command"].endswith("rtk pytest tests")
    assert "already" in init(tmp_path).stdout  # a second init changes nothing
    assert init(tmp_path, "--uninstall").returncode == 0
    assert sorted(p.name for p in rules.iterdir()) == ["default.rules"]
    assert (rules / "default.rules").read_text() == RULES


def test_no_allow_rules_no_twins_file(tmp_path: Path) -> None:
    rules = tmp_path / ".codex" / "rules"
    rules.mkdir(parents=True)
    (rules / "default.rules").write_text('prefix_rule(pattern=["git", "push"], decision="forbidden")\n')
    (rules / "broken.rules").write_text("prefix_rule(pattern=")
    assert init(tmp_path).returncode == 0
    assert not (rules / "rtk-twins.rules").exists()
