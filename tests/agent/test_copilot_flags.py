"""Copilot CLI's --deny-tool/--allow-tool flags, read from its command line by the hook."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from rtk.agent import copilot_flags
from tests.conftest import rtk_executable


@pytest.mark.parametrize(("argv", "rules"), [
    (["copilot", "--deny-tool", "shell(git push)"], [("deny", "git push")]),
    (["copilot", "--deny-tool=shell(git:*)", "-p", "x"], [("deny", "git")]),
    (["copilot", "--allow-tool", "shell(git status)", "write", "shell", "--model", "x"],
     [("allow", "git status"), ("allow", None)]),
    (["copilot", "--deny-tool", "shell(rm),shell(git push)"], [("deny", "rm"), ("deny", "git push")]),
    (["copilot", "-p", "shell(git push)"], []),
])
def test_parse(argv: list[str], rules: list[tuple[str, str | None]]) -> None:
    assert copilot_flags.parse(argv) == rules


def test_no_copilot_among_the_ancestors_means_no_rules() -> None:
    assert copilot_flags.shell_rules() == []  # pytest's ancestors are no Copilot


def test_the_hook_under_copilot_steps_aside_for_its_deny_tool() -> None:
    """A process named copilot with --deny-tool runs the hook, as Copilot CLI does."""
    payload = json.dumps({"toolName": "bash", "toolArgs": {"command": "git push origin main"}})
    hook = " ".join(rtk_executable()) + " hook copilot"
    script = f"exec -a copilot bash -c '{hook}; true' --deny-tool 'shell(git push)'"  # a real parent
    env = {**os.environ, "PATH": os.path.dirname(rtk_executable()[0]) + os.pathsep + os.environ["PATH"]}
    denied = subprocess.run(["bash", "-c", script], input=payload, capture_output=True, text=True,
                            env=env, timeout=60, check=False)
    assert denied.returncode == 0 and denied.stdout == ""
    allowed = subprocess.run(["bash", "-c", script.replace("git push", "git fetch")], input=payload,
                             capture_output=True, text=True, env=env, timeout=60, check=False)
    assert json.loads(allowed.stdout)["modifiedArgs"]["command"] == "rtk git push origin main"
