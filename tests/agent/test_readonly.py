"""The hosts' read-only sets as rtk claims them: never more than the host auto-approves."""
from __future__ import annotations

from pathlib import Path

import pytest

from rtk.agent import readonly
from rtk.agent.rewrite import decide


def claude(command: str, cwd: Path) -> bool:
    decision = decide(command, None, cwd=str(cwd))
    return readonly.claude_covers(command, decision.segments, str(cwd))


def copilot(command: str, cwd: Path) -> bool:
    decision = decide(command, None, cwd=str(cwd))
    return readonly.copilot_covers(command, decision.segments, str(cwd))


@pytest.mark.parametrize("command", [
    "git status", "git status --short", "git status -sb", "git log -n 5", "git log --oneline -20",
    "git log --format=%H main", "git diff --stat HEAD~1", "git diff -- src", "git show HEAD",
    "git branch", "git branch -a", "git branch --merged main", "git tag -l",
    "git log | head -5", "git status 2>&1", "git diff >/dev/null", "ls", "ls -la src", "find . -name x",
    "grep -rn TODO src", "grep -A3 x f", "rg -n x", "cat README.md", "wc -l a b", "tree -L 2",
    "docker ps -a", "gh pr list --limit 5", "git status && git diff",
])
def test_claude_read_only(command: str, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    assert claude(command, tmp_path), command


@pytest.mark.parametrize("command", [
    "git commit -m x", "git push", "git branch new-feature", "git tag v1", "git log --format=mine",
    "git log --show-signature", "git log --format=%G?", "git diff --output=x", "git -C x status",
    "/usr/bin/git status", "git status $X", "FOO=1 git status", "timeout 5 git status",
    "cd src && git status", "git status &", "(git status)", "git status > out", "ls /etc", "cat ../x",
    "cat ~/.ssh/id_rsa", "find . -exec rm {} +", "find . -delete", "grep -f /etc/passwd x",
    "docker ps -H tcp://x", "gh pr view https://github.com/a/b/pull/1", "git log -n x", "git status -z",
    "cargo test", "git remote add x y", "tail -f log", "pytest", "echo $(git push)", "git config user.name x",
    "git log --pretty=format:%H --output=f",
])
def test_claude_not_read_only(command: str, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    if command == "tail -f log":  # tail takes any arguments in Claude's set: -f is read-only too
        assert claude(command, tmp_path)
        return
    assert not claude(command, tmp_path), command


def test_a_symlink_out_of_the_working_directory_is_a_path_outside(tmp_path: Path) -> None:
    (tmp_path / "out").symlink_to("/etc")
    assert not claude("ls out", tmp_path)
    assert not claude("cat out/hostname", tmp_path)


@pytest.mark.parametrize("planted", ["HEAD", "objects", "refs"])
def test_git_bare_repository_gate(tmp_path: Path, planted: str) -> None:
    """Claude asks for git commands where HEAD/objects/refs sit outside a .git directory."""
    assert claude("git status", tmp_path)
    (tmp_path / planted).mkdir()
    assert not claude("git status", tmp_path)
    assert claude("ls", tmp_path)


def test_git_dir_that_is_a_file_or_symlink(tmp_path: Path) -> None:
    (tmp_path / ".git").write_text("gitdir: /elsewhere\n")
    assert not claude("git status", tmp_path)


@pytest.mark.parametrize(("command", "covered"), [
    ("git status", True), ("git status --short", True), ("git log --oneline", True), ("git branch", True),
    ("git log -n 5", False), ("git log main", False), ("git diff", False), ("ls", False),
    ("git status && git log", False), ("git branch x", False), ("git status | head", False),
])
def test_copilot_claims_only_plain_git_reads(command: str, covered: bool, tmp_path: Path) -> None:
    assert copilot(command, tmp_path) is covered


def test_data_names_the_host_version() -> None:
    from rtk.agent import readonly_data

    assert readonly_data.VERSION.count(".") == 2
    assert "git status" in readonly_data.FLAG_COMMANDS and "cat" in readonly_data.ANY_ARGS
    assert "sed" not in readonly_data.FLAG_COMMANDS  # its extra test is not reproduced: left out
