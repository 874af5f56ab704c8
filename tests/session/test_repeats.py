"""Exact repeats on both paths: one line that says the command ran again just now and printed
exactly what call N printed, with the recall id of this run; never when anything changed."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import rtk_executable
from tests.session.helpers import PYTHON, git_repo, pytest_project, rtk_run, shown

PYTEST = f"{PYTHON} -m pytest -q -p no:cacheprovider"


def test_a_repeated_git_status_is_one_line_naming_the_call_and_the_recall_id(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    first = shown(repo, "git status")
    second = shown(repo, "git status")
    assert "module_29.py" in first
    assert second.startswith("[rtk: `git status` ran again just now (exit 0) and printed exactly what call 1")
    assert second.count("\n") == 0
    assert not any(word in second.lower() for word in ("cache", "skipped", "not run"))
    recall_id = second.rsplit("rtk recall ", 1)[1].rstrip("]")
    again = subprocess.run([*rtk_executable(), "recall", recall_id], capture_output=True, text=True, check=True)
    assert "module_29.py" in again.stdout


def test_a_change_between_two_runs_prints_the_output_again(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    shown(repo, "git status")
    (repo / "module_30.py").write_text("new\n")
    second = shown(repo, "git status")
    assert "module_30.py" in second and "ran again" not in second


@pytest.mark.parametrize(("first", "second"), [
    ({"session": "s1"}, {"session": "s2"}),  # parallel sessions
    ({"session": "s1"}, {"session": "s1", "agent": "a1"}),  # the main agent and a subagent
    ({"session": "s1", "agent": "a1"}, {"session": "s1", "agent": "a2"}),  # two subagents
])
def test_contexts_never_refer_to_each_other(tmp_path: Path, first: dict, second: dict) -> None:
    repo = git_repo(tmp_path)
    shown(repo, "git status", **first)
    assert "module_29.py" in shown(repo, "git status", **second)
    assert "ran again" in shown(repo, "git status", **second)
    assert "ran again" in shown(repo, "git status", **first)


def test_memory_off_prints_every_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTK_SESSION_MEMORY", "0")
    repo = git_repo(tmp_path)
    assert shown(repo, "git status") == shown(repo, "git status")


def test_no_session_id_no_memory(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    assert shown(repo, "git status", session="") == shown(repo, "git status", session="")


def test_a_rerun_test_suite_on_the_pre_path(tmp_path: Path) -> None:
    project = pytest_project(tmp_path)
    first = rtk_run(project, PYTEST)
    assert first.returncode == 1 and "FAILED test_calc.py::test_add" in first.stdout
    again = rtk_run(project, PYTEST)
    assert again.returncode == 1
    assert again.stdout.startswith("[rtk: ") and "ran again just now (exit 1)" in again.stdout
    assert "printed exactly what call 1 printed" in again.stdout


def test_pytest_delta_keeps_every_failing_id_and_the_fresh_counts(tmp_path: Path) -> None:
    project = pytest_project(tmp_path)
    rtk_run(project, PYTEST)
    (project / "calc.py").write_text((project / "calc.py").read_text().replace("a - b", "a + b"))
    delta = rtk_run(project, PYTEST).stdout
    assert "FAILED test_calc.py::test_mul  [unchanged since call 1" in delta
    assert "test_calc.py::test_add, test_calc.py::test_add_zero" in delta  # named: no longer failing
    assert "pytest: 1 failed, 3 passed" in delta
    assert "the table of 3 is wrong" not in delta  # the body the model has already read
    assert "[rtk: unchanged = printed exactly as shown above by call 1 at " in delta


def test_a_changed_failure_prints_in_full(tmp_path: Path) -> None:
    project = pytest_project(tmp_path)
    rtk_run(project, PYTEST)
    (project / "calc.py").write_text((project / "calc.py").read_text().replace("a + b", "a * b + 1"))
    out = rtk_run(project, PYTEST).stdout
    assert "FAILED test_calc.py::test_mul\n" in out and "the table of 3 is wrong" in out
    assert "FAILED test_calc.py::test_add  [unchanged since call 1" in out


def test_an_unknown_agent_gets_no_memory_on_the_pre_path(tmp_path: Path) -> None:
    """`rtk X` that no hook call rewrote cannot tell main agent from subagent: no memory."""
    project = pytest_project(tmp_path)
    env = dict(os.environ, CLAUDECODE="1", CLAUDE_CODE_SESSION_ID="s1")
    for _ in range(2):
        run = subprocess.run([*rtk_executable(), *PYTEST.split()], cwd=project, capture_output=True, text=True,
                             env=env, check=False)
        assert "FAILED test_calc.py::test_mul" in run.stdout and "the table of 3 is wrong" in run.stdout
        assert "ran again" not in run.stdout and "unchanged since" not in run.stdout


def test_git_diff_names_a_hunk_shown_before_under_its_file(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"], cwd=repo, check=True)
    body = "".join(f"def function_{i}(value):\n    return value + {i}\n\n" for i in range(12))
    for name in ("module_03.py", "module_07.py"):
        (repo / name).write_text(body)
    shown(repo, "git diff")
    (repo / "module_07.py").write_text(body.replace("value + 5\n", "value + 50\n"))
    again = shown(repo, "git diff")
    assert "module_03.py (" in again and "  [unchanged since call 1]" in again  # the same hunk, named
    assert "def function_11" not in again.split("module_07.py", 1)[0]
    assert "value + 50" in again  # the changed file in full
