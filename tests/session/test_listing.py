"""`rtk session` and the memory row of `rtk gain`, through the real rtk."""
from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import rtk_executable
from tests.session.helpers import git_repo, shown


def rtk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*rtk_executable(), *args], capture_output=True, text=True, check=False, timeout=120)


def test_nothing_yet_says_so() -> None:
    done = rtk("session")
    assert done.returncode == 0 and done.stdout == "" and "holds nothing yet" in done.stderr
    assert rtk("session", "nope").returncode == 1


def test_a_session_lists_its_calls_and_gain_counts_them(tmp_path: Path) -> None:
    repo = git_repo(tmp_path)
    for _ in range(3):
        shown(repo, "git status", session="3f9a-session")
    listing = rtk("session").stdout
    assert listing.startswith("claude 3f9a-session main: 3 calls, 2 from memory, ")
    calls = rtk("session", "3f9a").stdout.splitlines()
    assert calls[0] == "claude 3f9a-session main:"
    assert [line.split()[2] for line in calls[1:]] == ["first", "repeat", "repeat"]
    assert all("git status" in line for line in calls[1:])
    assert "note: session memory: 2 calls answered from memory in 1 context," in rtk("gain").stdout
