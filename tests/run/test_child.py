"""The posix_spawn child: its exit status as Popen reports it, timed waits, one reaper at a time."""
from __future__ import annotations

import os
import threading

import pytest

from rtk.run.child import Child, ChildTimeout, spawn, which


def start(*argv: str) -> Child:
    read, write = os.pipe()
    try:
        return spawn(which(argv[0]) or argv[0], list(argv), None, {1: write, 2: write})
    finally:
        os.close(write)
        os.close(read)


def test_exit_codes_and_signals_read_as_popen_returncodes() -> None:
    assert start("sh", "-c", "exit 3").wait() == 3
    assert start("sh", "-c", "kill -KILL $$").wait() == -9


def test_a_timed_wait_raises_then_the_child_can_still_be_reaped() -> None:
    child = start("sleep", "30")
    with pytest.raises(ChildTimeout):
        child.wait(0.2)
    child.kill()
    assert child.wait(10) == -9 and child.poll() == -9


def test_a_timed_wait_returns_when_the_child_exits() -> None:
    assert start("sh", "-c", "sleep 0.1; exit 4").wait(30) == 4


def test_a_waiting_thread_and_the_main_thread_share_the_child() -> None:
    child = start("sleep", "0.3")
    waiter = threading.Thread(target=child.wait)
    waiter.start()
    assert child.poll() is None  # the thread is reaping: poll never blocks
    assert child.wait(30) == 0
    waiter.join(10)
    assert child.returncode == 0


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the signal mask from /proc (Linux)")
def test_python_ignoring_sigpipe_is_not_passed_on() -> None:
    read, write = os.pipe()
    child = spawn("/bin/sh", ["sh", "-c", "grep -E '^SigIgn' /proc/self/status"], None, {1: write})
    os.close(write)
    with os.fdopen(read, "rb") as out:
        line = out.read().decode()
    child.wait()
    mask = int(line.split()[1], 16) if line else 0
    assert not mask & (1 << 12), line  # SIGPIPE (13) back to its default, as Popen restores it
