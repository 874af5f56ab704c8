"""The child's process group, on real processes: signals reach the whole command, the grace kill
takes the whole group, nothing is left when rtk exits, and the exit code is the child's own."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import rtk_executable

PY = sys.executable
# A shell with two background grandchildren, which prints their pids and waits for them.
TWO_GRANDCHILDREN = "sleep 300 & echo $!; sleep 301 & echo $!; wait"
# A child that ignores SIGTERM, as does its grandchild (an ignored signal stays ignored across exec).
IGNORES_TERM = ("import os, signal, subprocess, time\n"
                "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                "worker = subprocess.Popen(['sleep', '120'])\n"
                "print(os.getpid(), worker.pid, flush=True)\n"
                "time.sleep(120)")
HANDLES_INT = ("import signal, sys, time\n"
               "signal.signal(signal.SIGINT, lambda *_: sys.exit(2))\n"
               "print('ready', flush=True)\n"
               "time.sleep(60)")


def start(*argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*rtk_executable(), *argv], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)


def read_pids(proc: subprocess.Popen[bytes], lines: int = 1) -> list[int]:
    assert proc.stdout is not None
    return [int(word) for _ in range(lines) for word in proc.stdout.readline().split()]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:  # a zombie still answers kill(0)
            return stat.read().rsplit(") ", 1)[-1][:1] != "Z"
    except FileNotFoundError:
        return False


def gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(alive(pid) for pid in pids)


def kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_forwarded_signal_reaches_the_grandchildren(sig: int) -> None:
    proc = start("sh", "-c", TWO_GRANDCHILDREN)
    pids = read_pids(proc, 2)
    try:
        proc.send_signal(sig)
        code = proc.wait(timeout=30)
        assert gone_within(pids, 5), "a grandchild outlived the signal"
        assert code == 128 + sig  # sh died of it: its own status
    finally:
        kill_all(pids)


def test_a_child_ignoring_term_is_killed_with_its_group_after_the_grace_period() -> None:
    proc = start(PY, "-c", IGNORES_TERM)
    pids = read_pids(proc)
    try:
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 128 + signal.SIGKILL  # the child's own status
        assert time.monotonic() - started >= 4  # it had the grace period first
        assert gone_within(pids, 5), "the grandchild ignoring SIGTERM survived the group kill"
    finally:
        kill_all(pids)


def test_a_child_that_handles_sigint_gives_its_own_exit_code() -> None:
    proc = start(PY, "-c", HANDLES_INT)
    assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 2  # pytest does exactly this: exit 2, not 130


def test_a_child_that_dies_of_the_signal_gives_128_plus_n() -> None:
    proc = start(PY, "-c", "import time; print('ready', flush=True); time.sleep(60)")
    assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGTERM


def test_a_leftover_holding_rtks_stdin_is_stopped() -> None:
    """No orphans for what still holds rtk's pipes or terminal: here rtk's stdin (a pipe)."""
    proc = subprocess.Popen([*rtk_executable(), "sh", "-c", "exec 3<&0; sleep 300 <&3 >/dev/null 2>&1 & echo $!"],
                            stdout=subprocess.PIPE, stdin=subprocess.PIPE)
    pids = read_pids(proc)
    try:
        assert proc.wait(timeout=30) == 0
        assert gone_within(pids, 2), "a job holding rtk's stdin outlived rtk"
    finally:
        kill_all(pids)


def test_a_leftover_holding_rtks_stdin_and_ignoring_term_is_killed_too() -> None:
    script = "exec 3<&0; trap '' TERM; sleep 300 <&3 >/dev/null 2>&1 & echo $!"
    proc = subprocess.Popen([*rtk_executable(), "sh", "-c", script], stdout=subprocess.PIPE, stdin=subprocess.PIPE)
    pids = read_pids(proc)
    try:
        assert proc.wait(timeout=30) == 0
        assert gone_within(pids, 3)
    finally:
        kill_all(pids)


# -- issue 35, item 2: nohup, background jobs, signals inherited as ignored ---------------------

def test_a_job_put_in_the_background_with_its_output_elsewhere_outlives_the_command() -> None:
    """As in a shell: `cmd >/dev/null 2>&1 &` holds nothing of rtk's, so rtk leaves it running."""
    proc = start("sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $!")
    pids = read_pids(proc)
    try:
        assert proc.wait(timeout=30) == 0
        time.sleep(0.8)  # past the leftover grace period
        assert all(alive(pid) for pid in pids), "a detached background job was killed"
    finally:
        kill_all(pids)


def test_nohup_server_in_a_script_survives_the_script(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    script = f"nohup {PY} -c 'import time; print(\"up\", flush=True); time.sleep(300)' >{log} 2>&1 & echo $!"
    proc = start("bash", "-c", script)
    pids = read_pids(proc)
    try:
        assert proc.wait(timeout=30) == 0
        time.sleep(0.8)
        assert all(alive(pid) for pid in pids), "the nohup'd server died with the script"
        assert log.read_text().strip() == "up"
    finally:
        kill_all(pids)


def _sig_ignored(status_line: bytes, sig: int) -> bool:
    return bool(int(status_line.strip(), 16) & (1 << (sig - 1)))


# what the child ignores, then 30 lines so rtk's hold ends at once, then a pause for the signal
REPORTS_SIGIGN = ("import time\n"
                  "print(open('/proc/self/status').read().split('SigIgn:')[1].split()[0])\n"
                  "print('\\n'.join(f'filler {i}' for i in range(30)), flush=True)\n"
                  "time.sleep(2)\nprint('done', flush=True)")


def test_nohup_rtk_survives_sighup_to_its_group_and_so_does_the_child() -> None:
    """`nohup rtk X`: rtk keeps the inherited SIG_IGN (no handler, nothing forwarded); X ignores it too."""
    proc = subprocess.Popen(["nohup", *rtk_executable(), PY, "-c", REPORTS_SIGIGN], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
    assert proc.stdout is not None
    ignored = proc.stdout.readline()
    os.killpg(proc.pid, signal.SIGHUP)  # the terminal hung up: rtk's whole job gets it
    rest, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0 and rest.strip().endswith(b"done")
    assert _sig_ignored(ignored, signal.SIGHUP)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGQUIT])
def test_signals_inherited_as_ignored_stay_ignored(sig: int) -> None:
    """`rtk X &` in a script: SIGINT and SIGQUIT arrive ignored; rtk and X keep them so."""
    name = signal.Signals(sig).name[3:]
    # `trap '' SIG` then exec: the ignore is inherited, as by a background job of a script
    proc = subprocess.Popen(["sh", "-c", f"trap '' {name}; exec \"$@\"", "sh", *rtk_executable(), PY, "-c",
                             REPORTS_SIGIGN], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    ignored = proc.stdout.readline()
    proc.send_signal(sig)
    rest, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0 and rest.strip().endswith(b"done")
    assert _sig_ignored(ignored, sig)


def test_a_signal_not_ignored_is_still_forwarded() -> None:
    proc = start(PY, "-c", REPORTS_SIGIGN)
    assert proc.stdout is not None
    ignored = proc.stdout.readline()
    assert not _sig_ignored(ignored, signal.SIGHUP)
    proc.send_signal(signal.SIGHUP)
    assert proc.wait(timeout=30) == 128 + signal.SIGHUP


def test_the_child_leads_a_group_of_its_own() -> None:
    code = "import os; print(os.getpid(), os.getpgrp(), os.getppid())"
    result = subprocess.run([*rtk_executable(), PY, "-c", code], capture_output=True, timeout=30,
                            stdin=subprocess.DEVNULL, check=False)
    pid, pgrp, _ = (int(word) for word in result.stdout.split())
    assert pid == pgrp and pgrp != os.getpgrp()
