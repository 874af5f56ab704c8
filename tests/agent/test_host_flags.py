"""Permission rules on a host's own command line (Copilot's --deny-tool/--allow-tool, Claude's
--disallowedTools/--allowedTools, Gemini's --allowed-tools), read by the hook from its ancestors."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

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


GEMINI_SHELL = {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": "git status"}}


@pytest.mark.parametrize(("flags", "stdout"), [
    # the flag allows `git status` and nothing else: `rtk git status` would be denied, so no opinion
    ("-p x --allowed-tools 'run_shell_command(git status)'", "{}\n"),
    ("--allowed-tools='run_shell_command(git status),run_shell_command(ls)'", "{}\n"),
    # the user allowed rtk itself: the rewrite runs where Gemini's own rule lets it
    ("--allowed-tools 'run_shell_command(rtk)'",
     '{"hookSpecificOutput":{"tool_input":{"command":"rtk git status"}}}\n'),
    # both forms allowed: the same verdict, the rewrite
    ("--allowed-tools 'run_shell_command(git status)' 'run_shell_command(rtk git status)'",
     '{"hookSpecificOutput":{"tool_input":{"command":"rtk git status"}}}\n'),
    # an excluded shell: Gemini's own deny applies to the command as typed
    ("--allowed-tools 'run_shell_command(rtk)' --exclude-tools run_shell_command", "{}\n"),
])
def test_the_hook_under_gemini_reads_its_allowed_tools(flags: str, stdout: str) -> None:
    assert _under("gemini", flags, "gemini", GEMINI_SHELL) == stdout


@pytest.mark.parametrize(("args", "argv"), [
    ("node /opt/gemini -p x --allowed-tools run_shell_command(git status)",
     ["node", "/opt/gemini", "-p", "x", "--allowed-tools", "run_shell_command(git status)"]),
    ("gemini --allowed-tools run_shell_command(git status),run_shell_command(ls -la)",
     ["gemini", "--allowed-tools", "run_shell_command(git status),run_shell_command(ls -la)"]),
    ("copilot --deny-tool shell(git push) -p x", ["copilot", "--deny-tool=shell", "shell(git push)", "-p", "x"]),
])
def test_a_ps_line_keeps_parenthesised_entries_whole(args: str, argv: list[str]) -> None:
    """macOS has no /proc: `ps -o args=` loses the quoting, parentheses keep an entry whole."""
    assert host_flags.ps_argv(args) == argv


def test_the_ps_path_reads_a_real_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The path macOS takes, run here with the real `ps` on a child of this process."""
    if shutil.which("ps") is None:
        pytest.skip("no ps here")
    child = subprocess.Popen([sys.executable, "-c", "import time; print(1, flush=True); time.sleep(30)",
                              "--allowed-tools", "run_shell_command(git status)"], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline()  # started: its argv is its own
        monkeypatch.setattr(host_flags.os.path, "isdir", lambda path: False)
        found = host_flags._process(child.pid)
    finally:
        child.kill()
        child.wait()
    assert found is not None and found[1] == os.getpid()
    assert found[0][-2:] == ["--allowed-tools", "run_shell_command(git status)"]
