"""An agent session played through `rtk hook claude`, beside the same session run raw.

The project is real code: the installed click package's source, copied into a git repository
with a few tests of its IntRange clamping. Two identical copies are made; in one every command
runs as typed, in the other as Claude Code would with rtk's two hooks: runners (pytest) rewritten to `rtk X` by
PreToolUse, readers (git status, diff, log) run as typed and their output replaced by PostToolUse. The
session: git status, git diff, pytest (a bug was introduced: fails), the fix, pytest again
(passes), git log, git commit. Each step must give the same exit code; the rewritten output must
name every failing test id and every touched file the raw output names, and the two
repositories must end on the same commit.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import rtk_executable

CLAMP = "        return bound + dir\n"
BROKEN = "        return bound - dir\n"
TESTS = '''
import click
import pytest
from click.testing import CliRunner


@click.command()
@click.option("--count", type=click.IntRange(0, 10, clamp=True, min_open=True))
def cli(count):
    click.echo(f"count={count}")


@pytest.mark.parametrize(("value", "expect"), [("5", 5), ("0", 1), ("-3", 1), ("11", 10)])
def test_clamped_count(value, expect):
    result = CliRunner().invoke(cli, ["--count", value])
    assert result.output == f"count={expect}\\n"


def test_help_names_the_option():
    assert "--count" in CliRunner().invoke(cli, ["--help"]).output
'''
FIXED_DATE = "2026-01-02T03:04:05+00:00"


def git_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(HOME=str(home), GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="Agent", GIT_AUTHOR_EMAIL="agent@example.com",
               GIT_COMMITTER_NAME="Agent", GIT_COMMITTER_EMAIL="agent@example.com",
               GIT_AUTHOR_DATE=FIXED_DATE, GIT_COMMITTER_DATE=FIXED_DATE, PYTHONDONTWRITEBYTECODE="1",
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return env


def make_project(root: Path, env: dict[str, str]) -> Path:
    import click

    source = Path(click.__file__).parent / "types.py"
    if CLAMP not in source.read_text():
        pytest.skip(f"click at {source.parent} has no `{CLAMP.strip()}` line to break")
    project = root / "project"
    shutil.copytree(source.parent, project / "src" / "click", ignore=shutil.ignore_patterns("__pycache__"))
    (project / "tests").mkdir()
    (project / "tests" / "test_clamp.py").write_text(TESTS)
    (project / "pytest.ini").write_text("[pytest]\npythonpath = src\naddopts = -p no:cacheprovider\n")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "import click sources"]):
        subprocess.run(["git", *args], cwd=project, env=env, check=True, capture_output=True)
    return project


def claude_hook(payload: dict[str, object], env: dict[str, str]) -> dict | None:
    """`rtk hook claude`'s answer to one payload, as Claude Code reads it (None: no opinion)."""
    result = subprocess.run([*rtk_executable(), "hook", "claude"], input=json.dumps(payload), env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["hookSpecificOutput"] if result.stdout.strip() else None


def rewritten(command: str, env: dict[str, str]) -> str:
    """What Claude Code would run: the hook's updatedInput, or the command itself (no opinion)."""
    answer = claude_hook({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}},
                         env)
    return command if answer is None else answer["updatedInput"]["command"]


def replaced(command: str, output: str, cwd: Path, env: dict[str, str]) -> str | None:
    """What Claude Code's PostToolUse hook puts in place of a command's merged output, or None."""
    answer = claude_hook({"hook_event_name": "PostToolUse", "tool_name": "Bash", "cwd": str(cwd),
                          "tool_input": {"command": command},
                          "tool_response": {"stdout": output, "stderr": "", "interrupted": False, "isImage": False}},
                         env)
    return None if answer is None else answer["updatedToolOutput"]["stdout"]


def run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def edit(projects: tuple[Path, Path], old: str, new: str) -> None:
    for project in projects:
        path = project / "src" / "click" / "types.py"
        path.write_text(path.read_text().replace(old, new, 1))


class Session:
    def __init__(self, raw: Path, rtk: Path, env: dict[str, str]) -> None:
        self.raw, self.rtk, self.env = raw, rtk, env
        self.raw_chars = self.rtk_chars = 0

    def step(self, command: str) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
        """Run as Claude Code would with both hooks: a runner rewritten before it runs, a reader
        run as typed and its (successful) output replaced after (the post path)."""
        via_hook = rewritten(command, self.env)
        raw, rtk = run(command, self.raw, self.env), run(via_hook, self.rtk, self.env)
        assert rtk.returncode == raw.returncode, (command, raw.stdout, rtk.stdout, rtk.stderr)
        if via_hook == command:
            text = replaced(command, rtk.stdout + rtk.stderr, self.rtk, self.env) if rtk.returncode == 0 else None
            assert text is not None or rtk.returncode != 0, f"neither path took `{command}`"
            rtk = subprocess.CompletedProcess(rtk.args, rtk.returncode, text if text is not None else rtk.stdout,
                                              "" if text is not None else rtk.stderr)
        self.raw_chars += len(raw.stdout + raw.stderr)
        self.rtk_chars += len(rtk.stdout + rtk.stderr)
        return raw, rtk


def failing_ids(raw_output: str) -> list[str]:
    return re.findall(r"^FAILED (\S+)", raw_output, re.MULTILINE)


def counts(output: str) -> str:
    """`2 failed, 3 passed` from pytest's stats line (raw) or rtk's summary line."""
    found = re.findall(r"^(?:pytest: )?((?:\d+ \w+, )*\d+ \w+) in [\d.]+s", output, re.MULTILINE)
    return found[-1] if found else ""


@pytest.fixture
def session(tmp_path: Path) -> Session:
    if shutil.which("git") is None or shutil.which("bash") is None:
        pytest.skip("git and bash are needed to play the session")
    home = tmp_path / "home"
    home.mkdir()
    env = git_env(home)
    env.update({k: v for k, v in os.environ.items() if k.startswith("RTK_")})  # the hermetic data dirs
    project = make_project(tmp_path, env)
    raw, rtk = tmp_path / "raw", tmp_path / "rtk"
    shutil.copytree(project, raw, symlinks=True)
    shutil.copytree(project, rtk, symlinks=True)
    return Session(raw, rtk, env)


def test_an_agent_session_through_the_claude_hook_matches_the_raw_run(session: Session) -> None:
    projects = (session.raw, session.rtk)
    edit(projects, CLAMP, "        # an open bound moves one step inside the range\n" + BROKEN)

    raw, rtk = session.step("git status")
    assert "src/click/types.py" in raw.stdout and "src/click/types.py" in rtk.stdout
    assert "branch main" in rtk.stdout

    raw, rtk = session.step("git diff")
    assert "src/click/types.py" in rtk.stdout
    assert BROKEN.strip() in raw.stdout and BROKEN.strip() in rtk.stdout

    raw, rtk = session.step("python -m pytest -q")
    assert raw.returncode == 1
    ids = failing_ids(raw.stdout)
    assert ids == ["tests/test_clamp.py::test_clamped_count[0-1]", "tests/test_clamp.py::test_clamped_count[-3-1]"]
    for test_id in ids:
        assert test_id in rtk.stdout
    assert counts(raw.stdout) == "2 failed, 3 passed" and counts(rtk.stdout) == counts(raw.stdout)
    for location in set(re.findall(r"^(tests/test_clamp\.py:\d+): AssertionError", raw.stdout, re.MULTILINE)):
        assert location in rtk.stdout
    assert len(rtk.stdout) < len(raw.stdout)

    edit(projects, BROKEN, CLAMP)
    raw, rtk = session.step("python -m pytest -q")
    assert raw.returncode == 0 and counts(rtk.stdout) == counts(raw.stdout) == "5 passed"
    assert not failing_ids(rtk.stdout)

    raw, rtk = session.step("git log -n 5")
    assert "import click sources" in raw.stdout and "import click sources" in rtk.stdout

    raw, rtk = session.step('git commit -am "types: say why an open bound moves inside"')
    assert "[main " in raw.stdout and "[main " in rtk.stdout
    assert "types: say why an open bound moves inside" in rtk.stdout

    heads = [run("git rev-parse HEAD", project, session.env).stdout for project in projects]
    assert heads[0] == heads[1] and len(heads[0].strip()) == 40
    assert session.rtk_chars < session.raw_chars
