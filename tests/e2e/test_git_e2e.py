"""`rtk git ...` for real: a temporary repository, the real git, the installed rtk executable."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import rtk_executable

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture
def git_env(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "gitconfig"
    config.write_text("[user]\n\tname = E2E Tester\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n")
    return {**os.environ, "GIT_CONFIG_GLOBAL": str(config), "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C",
            "LC_ALL": "C", "GIT_CEILING_DIRECTORIES": str(tmp_path), "GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z",
            "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z"}


def git(cwd: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def rtk(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*rtk_executable(), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.fixture
def repo(tmp_path: Path, git_env: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    for i in range(5):
        (root / "src" / f"mod{i}.py").write_text("".join(f"VALUE_{n} = {n}\n" for n in range(30)))
    git(root, git_env, "init", "-q")
    git(root, git_env, "add", ".")
    git(root, git_env, "commit", "-q", "-m", "Initial import")
    return root


def test_status_groups_files_without_hints(repo: Path, git_env: dict[str, str]) -> None:
    (repo / "src" / "mod0.py").write_text("changed\n")
    (repo / "src" / "new.py").write_text("new\n")
    git(repo, git_env, "add", "src/new.py")
    (repo / "notes.txt").write_text("x\n")
    result = rtk(repo, git_env, "git", "status")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["branch main", "staged:", "A src/new.py", "unstaged:",
                                          "M src/mod0.py", "untracked:", "notes.txt"]


def test_status_of_a_clean_tree(repo: Path, git_env: dict[str, str]) -> None:
    result = rtk(repo, git_env, "git", "status")
    assert (result.returncode, result.stdout) == (0, "clean (branch main)\n")


def test_status_outside_a_repository_keeps_gits_error(tmp_path: Path, git_env: dict[str, str]) -> None:
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    result = rtk(outside, git_env, "git", "status")
    assert result.returncode == 128
    assert "fatal: not a git repository" in result.stderr
    assert "rtk recall" not in result.stdout


def test_log_one_line_per_commit_and_a_cap(repo: Path, git_env: dict[str, str]) -> None:
    for i in range(59):
        git(repo, git_env, "commit", "-q", "--allow-empty", "-m", f"Change number {i}", "-m", "Body text.")
    result = rtk(repo, git_env, "git", "log")
    lines = result.stdout.splitlines()
    assert result.returncode == 0
    assert lines[0] == "2026-01-02:"  # every commit of the day below its date
    assert re.fullmatch(r"[0-9a-f]{7} E2E Tester: Change number 58", lines[1])
    assert lines[51] == "... 10 more commits"
    assert re.fullmatch(r"\[full output: rtk recall [0-9a-f]+\]", lines[52])
    recalled = subprocess.run([*rtk_executable(), "recall", lines[52].split()[-1][:-1]], cwd=repo, env=git_env,
                              capture_output=True, text=True, timeout=60, check=False)
    assert "Initial import" in recalled.stdout


def test_diff_names_the_file_with_counts(repo: Path, git_env: dict[str, str]) -> None:
    path = repo / "src" / "mod1.py"
    path.write_text(path.read_text().replace("VALUE_10 = 10", "VALUE_10 = 1000"))
    result = rtk(repo, git_env, "git", "diff")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[:-1] == ["src/mod1.py (+1 -1)", "@@ -8,7 +8,7 @@ VALUE_6 = 6",
                          " VALUE_9 = 9", "-VALUE_10 = 10", "+VALUE_10 = 1000", " VALUE_11 = 11"]
    assert re.fullmatch(r"\[full output: rtk recall [0-9a-f]+\]", lines[-1])  # context lines left out (issue 34)


def test_commit_success_and_nothing_to_commit(repo: Path, git_env: dict[str, str]) -> None:
    (repo / "src" / "extra.py").write_text("x = 1\n")
    git(repo, git_env, "add", "src/extra.py")
    result = rtk(repo, git_env, "git", "commit", "-m", "Add extra module")
    assert result.returncode == 0
    # `ok commit [main 1a2b3c4] Add extra module (1 file, +1)`, or git's own three lines when
    # that is not clearly smaller (the runner's never-larger rule)
    assert re.search(r"\[\S+ [0-9a-f]{7,}\] Add extra module", result.stdout)
    assert "src/extra.py" in result.stdout and len(result.stdout.splitlines()) <= 3
    again = rtk(repo, git_env, "git", "commit", "-m", "Nothing")
    assert again.returncode == 1
    assert "nothing to commit, working tree clean" in again.stdout
    assert "last 40 lines" not in again.stdout
