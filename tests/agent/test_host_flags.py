"""Permission rules on a host's own command line (Copilot's --deny-tool/--allow-tool, Claude's
--disallowedTools/--allowedTools, Gemini's --allowed-tools), read by the hook from its ancestors."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from rtk.agent import host_flags
from tests.conftest import rtk_executable

COPILOT = host_flags.HOSTS["copilot"]
CLAUDE = host_flags.HOSTS["claude"]


@pytest.mark.parametrize(("argv", "spec", "rules"), [
    (["copilot", "--deny-tool", "shell(git push)"], COPILOT, [("deny", "git push")]),
    (["copilot", "--deny-tool=shell(git:*)", "-p", "x"], COPILOT, [("deny", "git:*")]),
    (["copilot", "--allow-tool", "shell(git status)", "write", "shell", "--model", "x"], COPILOT,
     [("allow", "git status"), ("allow", None)]),
    (["copilot", "--deny-tool", "shell(rm),shell(git push)"], COPILOT, [("deny", "rm"), ("deny", "git push")]),
    (["copilot", "-p", "shell(git push)"], COPILOT, []),
    (["claude", "-p", "x", "--disallowedTools", "Bash(git push:*) Edit", "Bash(rm:*)"], CLAUDE,
     [("deny", "git push:*"), ("deny", "rm:*")]),
    (["claude", "--allowed-tools=Bash(git status),Read"], CLAUDE, [("allow", "git status")]),
])
def test_parse(argv: list[str], spec: tuple, rules: list[tuple[str, str | None]]) -> None:
    assert host_flags.parse(argv, spec[1], spec[2]) == rules


def test_no_host_among_the_ancestors_means_no_rules() -> None:
    assert host_flags.tool_rules("copilot") == [] and host_flags.tool_rules("claude") == []


def _under(name: str, flags: str, host: str, payload: dict) -> str:
    """Run `rtk hook HOST` as a child of a process called NAME with FLAGS, as the host does."""
    hook = " ".join(rtk_executable()) + f" hook {host}"
    script = f"exec -a {name} bash -c '{hook}; true' {flags}"  # `; true`: bash stays the parent
    env = {**os.environ, "PATH": os.path.dirname(rtk_executable()[0]) + os.pathsep + os.environ["PATH"]}
    proc = subprocess.run(["bash", "-c", script], input=json.dumps(payload), capture_output=True, text=True,
                          env=env, timeout=60, check=False)
    assert proc.returncode == 0
    return proc.stdout


def test_the_hook_under_copilot_never_rewrites_whatever_its_flags() -> None:
    """Copilot CLI takes the post path only: its --deny-tool / --allow-tool apply to the command as
    typed, since the pre hook never changes it."""
    payload = {"toolName": "bash", "toolArgs": {"command": "git push origin main"}}
    assert _under("copilot", "--deny-tool 'shell(git push)'", "copilot", payload) == ""
    assert _under("copilot", "--allow-tool 'shell(git push)'", "copilot", payload) == ""


def test_the_hook_under_claude_steps_aside_for_its_disallowed_tools() -> None:
    payload = {"tool_name": "Bash", "tool_input": {"command": "git push origin main"}}
    assert _under("claude", "-p x --disallowedTools 'Bash(git push:*)'", "claude", payload) == ""
    allowed = _under("claude", "--allowedTools 'Bash(git push:*)'", "claude", payload)
    assert json.loads(allowed)["hookSpecificOutput"]["permissionDecision"] == "allow"


def test_claude_settings_option_adds_its_rules(tmp_path) -> None:
    payload = {"tool_name": "Bash", "tool_input": {"command": "git push origin main"}}
    inline = json.dumps({"permissions": {"deny": ["Bash(git push:*)"]}})
    assert _under("claude", f"--settings '{inline}'", "claude", payload) == ""
    path = tmp_path / "extra.json"
    path.write_text(inline)
    assert _under("claude", f"--settings={path}", "claude", payload) == ""
    assert _under("claude", "--settings '{\"permissions\": {}}'", "claude", payload) != ""
