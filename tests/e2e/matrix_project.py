"""The project the host matrix (test_host_matrix_e2e.py) works in: real code (modules of the running
Python's standard library) in a git repository with 40 commits, a ~200 KB uncommitted refactor (so
`git diff` is big), a ~200 KB module to `cat`, a submodule whose pinned commit moved (so `git diff
--submodule=short` has its own line), and a test file with one failing test. Built once per test
session and copied for every host run, so each run starts from the same bytes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

STDLIB = Path(sysconfig.get_paths()["stdlib"])
PACKAGES = ("email", "json", "logging", "http")  # committed one file a commit: > 30 commits
BIG_FILE = "lib/decimal_impl.py"  # _pydecimal.py, ~230 KB
DIFF_TARGET = 200_000  # bytes of `git diff` the refactor aims at
FAILING_TEST = '''"""The project's tests: one of them fails (the matrix's failing pytest)."""
import json


def test_round_trip():
    assert json.loads(json.dumps({"a": [1, 2]})) == {"a": [1, 2]}


def test_separators():
    assert json.dumps([1, 2], separators=(",", ":")) == "[1, 2]"
'''


def git(cwd: Path, env: dict[str, str], *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def git_env(root: Path) -> dict[str, str]:
    """A fixed identity and no user/system git config, so every run sees the same repository."""
    root.mkdir(parents=True, exist_ok=True)
    config = root / "gitconfig"
    config.write_text(
        "[user]\n\tname = E2E\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n"
        "[protocol \"file\"]\n\tallow = always\n"
    )
    return {**os.environ, "GIT_CONFIG_GLOBAL": str(config), "GIT_CONFIG_NOSYSTEM": "1"}


def build(root: Path) -> Path:
    """The work tree under root/work (git config in root/gitconfig); returns the work tree."""
    env = git_env(root)
    work = root / "work"
    work.mkdir(parents=True)
    git(work, env, "init", "-q")
    for package in PACKAGES:
        for module in sorted((STDLIB / package).glob("*.py")):
            target = work / "lib" / package / module.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(module, target)
            git(work, env, "add", str(target.relative_to(work)))
            git(work, env, "commit", "-q", "-m", f"lib: add {package}/{module.name}")
    shutil.copyfile(STDLIB / "_pydecimal.py", work / BIG_FILE)
    (work / "tests").mkdir()
    (work / "tests" / "test_codec.py").write_text(FAILING_TEST)
    git(work, env, "add", BIG_FILE, "tests")
    git(work, env, "commit", "-q", "-m", "decimal and tests")
    _submodule(root, work, env)
    _refactor(work, env)
    return work


def _submodule(root: Path, work: Path, env: dict[str, str]) -> None:
    """vendor/codecs pinned at its first commit, its checkout one commit ahead."""
    upstream = root / "upstream"
    upstream.mkdir()
    git(upstream, env, "init", "-q")
    shutil.copyfile(STDLIB / "codecs.py", upstream / "codecs.py")
    git(upstream, env, "add", "codecs.py")
    git(upstream, env, "commit", "-q", "-m", "codecs")
    git(work, env, "submodule", "add", "-q", str(upstream), "vendor/codecs")
    git(work, env, "commit", "-q", "-m", "vendor: codecs as a submodule")
    checkout = work / "vendor" / "codecs"
    shutil.copyfile(STDLIB / "base64.py", checkout / "base64.py")
    git(checkout, env, "add", "base64.py")
    git(checkout, env, "commit", "-q", "-m", "base64")


def _refactor(work: Path, env: dict[str, str]) -> None:
    """`self` renamed to `this` across the email package, file by file until the diff is ~200 KB."""
    for module in sorted((work / "lib" / "email").glob("*.py")) + sorted((work / "lib" / "logging").glob("*.py")):
        module.write_text(module.read_text().replace("self", "this"))
        if len(git(work, env, "diff")) >= DIFF_TARGET:
            return
