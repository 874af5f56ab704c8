"""Session memory through the real Claude Code (fake model on 127.0.0.1, `rtk init` as a user runs
it): what the model reads when it reruns a command, rereads a file with the Read tool, reruns the
tests after an edit, and after the session is resumed (a boundary: SessionStart, source resume)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.fake_model_server import ReadingModel
from tests.e2e.hosts import INSTALL, hermetic_env, host_bin, init_hook, merge_json, version

CLAUDE = host_bin("claude")
pytestmark = pytest.mark.skipif(not CLAUDE.exists() or not version(CLAUDE), reason=f"Claude Code is not installed: {INSTALL}")
SOURCE = "".join(f"def function_{i}(value):\n    return value * {i}\n\n" for i in range(80))
TEST = ("from mod import function_3\n\n\n" + "".join(
    f"def test_{i}():\n    assert function_3({i}) == {3 * i + 1}, 'function_3 is off by one for {i}: ' + 'x' * 60\n\n\n"
    for i in range(4)))


def run_claude(work: Path, env: dict[str, str], commands: list[str], resume: str | None = None) -> tuple[str, list[str]]:
    with ReadingModel(commands, work) as model:
        argv = [str(CLAUDE), "-p", "go on" if resume else "work", "--permission-mode", "default", "--output-format",
                "json", "--max-turns", str(len(commands) + 2), *(["--resume", resume] if resume else [])]
        proc = subprocess.run(argv, cwd=work, env={**env, "ANTHROPIC_BASE_URL": model.url, "PWD": str(work)},
                              capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL, check=False)
        assert proc.returncode == 0, proc.stderr[-2000:]
        return json.loads(proc.stdout)["session_id"], model.results()


def test_repeats_rereads_and_a_boundary_through_claude_code(tmp_path: Path) -> None:
    env = hermetic_env(tmp_path)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env["PATH"]
    init_hook(env)
    merge_json(tmp_path / "home" / ".claude" / "settings.json", {"permissions": {"allow": [
        "Bash(python -m pytest:*)", "Bash(git status)", "Bash(sed -i:*)", "Read"]}})
    work = tmp_path / "work"
    work.mkdir()
    (work / "mod.py").write_text(SOURCE)
    (work / "test_mod.py").write_text(TEST)
    for i in range(40):  # a status long enough that a line saying "the same" is shorter
        (work / f"notes_{i:02d}.txt").write_text("x\n")
    subprocess.run(["git", "init", "-q"], cwd=work, env=env, check=True)
    pytest_line = "python -m pytest -q -p no:cacheprovider test_mod.py"
    first = ["git status", "git status", "READ mod.py", "READ mod.py", pytest_line, pytest_line,
             "sed -i 's/value \\* 3$/value * 3 + 1/' mod.py", "READ mod.py", pytest_line]
    session, _ = run_claude(work, env, first)
    _, results = run_claude(work, env, [*first, "git status", "READ mod.py"], resume=session)
    status, status_again, read, reread, tests, rerun, _, read_edited, fixed, after_resume, read_resumed = results
    assert "mod.py" in status and status_again.startswith("[rtk: `git status` ran again just now (exit 0)")
    assert "function_79" in read
    assert "read again just now" in reread and "unchanged since call" in reread and "function_79" not in reread
    assert "FAILED test_mod.py::test_1" in tests
    assert "ran again just now (exit 1)" in rerun and "printed exactly what call" in rerun
    assert "value * 3 + 1" in read_edited and "read again" not in read_edited  # changed: whole
    assert fixed.startswith("pytest: 4 passed")  # the counts, fresh
    assert "mod.py" in after_resume and "ran again" not in after_resume  # nothing refers back past the boundary
    assert "function_79" in read_resumed
