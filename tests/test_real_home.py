"""The suite never touches the user's own rtk data: HOME and the XDG dirs are the test's, and the
end-of-run check (tests/conftest.py) sees any file created, changed or deleted under the real ones."""
from __future__ import annotations

import os
import pwd
import subprocess
import sys
import time
from pathlib import Path

from tests import real_home
from tests.conftest import rtk_executable


def test_home_and_the_rtk_dirs_are_the_tests_own(tmp_path: Path) -> None:
    real = Path(pwd.getpwuid(os.getuid()).pw_dir)
    base = tmp_path.parent.parent  # the run's temporary root: each test has a home of its own there
    for var in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        assert Path(os.environ[var]).is_relative_to(base), (var, os.environ[var])
        assert not Path(os.environ[var]).is_relative_to(real) or real.is_relative_to(base)
    assert Path(os.environ["XDG_DATA_HOME"]).is_relative_to(tmp_path)
    assert Path(os.environ["HOME"]).is_dir() and not any(Path(os.environ["HOME"]).iterdir())


def test_a_run_of_rtk_records_into_the_tests_data_dir_only(tmp_path: Path) -> None:
    """What test_files_e2e.py once did: an environment copied from os.environ, no rtk dir named."""
    environ = dict(os.environ)
    done = subprocess.run([*rtk_executable(), "seq", "1", "3"], capture_output=True, text=True, check=False,
                          timeout=60, env=environ)
    assert done.returncode == 0 and done.stdout == "1\n2\n3\n", done.stdout
    data = Path(environ["XDG_DATA_HOME"]) / "rtk"
    assert data.is_relative_to(tmp_path) and any(data.rglob("*")), data
    assert not any(Path(environ["HOME"]).rglob("rtk*"))


def test_the_check_sees_files_created_changed_and_deleted(tmp_path: Path) -> None:
    environ = {"HOME": str(tmp_path)}
    data = tmp_path / ".local" / "share" / "rtk"
    data.mkdir(parents=True)
    (data / "kept").write_text("a")
    (data / "gone").write_text("b")
    before = real_home.snapshot(real_home.watched_paths(environ))
    (data / "kept").write_text("a longer text")
    (data / "gone").unlink()
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text("{}")
    (tmp_path / ".claude" / "projects").mkdir()  # a host's own files are not rtk's: not watched
    (tmp_path / ".claude" / "projects" / "t.jsonl").write_text("{}")
    after = real_home.snapshot(real_home.watched_paths(environ))
    assert real_home.changes(before, after) == [
        f"changed {data / 'kept'}", f"created {tmp_path / '.claude' / 'settings.json'}", f"deleted {data / 'gone'}"]


def test_the_toolchains_keep_their_own_state_when_home_moves(tmp_path: Path) -> None:
    real = tmp_path / "real"
    (real / ".rustup").mkdir(parents=True)
    (real / ".npmrc").write_text("fund=false\n")
    pins = real_home.toolchain_pins({"HOME": str(real), "CARGO_HOME": "/opt/cargo"})
    assert pins["RUSTUP_HOME"] == str(real / ".rustup") and pins["NPM_CONFIG_USERCONFIG"] == str(real / ".npmrc")
    assert "CARGO_HOME" not in pins  # set by the user: theirs stands
    moved = real_home.redirected({"HOME": str(real)}, tmp_path / "run")
    assert moved["HOME"] == str(tmp_path / "run" / "home") and Path(moved["HOME"]).is_dir()


def test_a_change_fails_the_run_in_ci_or_when_asked() -> None:
    assert real_home.strict({"CI": "true"}) and real_home.strict({"RTK_TEST_STRICT_HOME": "1"})
    assert not real_home.strict({}) and not real_home.strict({"CI": "false", "RTK_TEST_STRICT_HOME": "0"})


def test_the_snapshot_waits_for_a_tracking_worker_busy_in_the_real_data_dir(tmp_path: Path) -> None:
    """CI runs `rtk git log` just before the suite: its worker's writes are not the suite's."""
    queue = tmp_path / "rtk" / "track-queue"
    queue.mkdir(parents=True)
    lock = queue / "worker.lock"
    lock.touch()
    code = (f"import os, time; fd = os.open({str(lock)!r}, os.O_WRONLY); "
            "os.lockf(fd, os.F_LOCK, 0); print('held', flush=True); time.sleep(1.0)")
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    started = time.monotonic()
    real_home.settle(tmp_path / "rtk", timeout=20)
    waited = time.monotonic() - started
    holder.wait(timeout=10)
    assert holder.returncode == 0 and waited > 0.3  # it waited for the lock to be let go
    real_home.settle(tmp_path / "nothing-here", timeout=20)  # no data dir: nothing to wait for
