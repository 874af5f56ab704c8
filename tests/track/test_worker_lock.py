"""The worker lock is what keeps one tracking worker per queue: a run probes it to decide whether to
start one. It is a POSIX record lock (os.lockf, so the run path needs no `fcntl`): held by one
process, refused to every other, free again when its holder unlocks, closes or dies."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rtk.track.queue import LOCK_NAME, try_lock, unlock

HOLD = """
import os, sys
from rtk.track.queue import try_lock
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
print("held" if try_lock(fd) else "refused", flush=True)
sys.stdin.readline()  # hold it until the test says
"""


def _holder(path: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def _probe(path: Path) -> bool:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        return try_lock(fd)
    finally:
        os.close(fd)


def test_a_held_lock_is_refused_to_another_process_and_free_once_its_holder_leaves(tmp_path: Path) -> None:
    lock = tmp_path / LOCK_NAME
    holder = _holder(lock)
    try:
        assert not _probe(lock)
        assert not _probe(lock)  # a refused probe takes nothing
    finally:
        holder.communicate("\n", timeout=30)
    assert _probe(lock)


def test_a_killed_holder_frees_the_lock(tmp_path: Path) -> None:
    lock = tmp_path / LOCK_NAME
    holder = _holder(lock)
    holder.kill()
    holder.wait(timeout=30)
    assert _probe(lock)


def test_unlock_frees_it_for_others_while_the_holder_keeps_its_descriptor(tmp_path: Path) -> None:
    lock = tmp_path / LOCK_NAME
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        assert try_lock(fd)
        assert try_lock(fd)  # a process's own lock is no obstacle to it
        holder = [sys.executable, "-c", HOLD, str(lock)]
        refused = subprocess.run(holder, input="\n", capture_output=True, text=True, timeout=30, check=False)
        assert refused.stdout == "refused\n"
        unlock(fd)
        taken = subprocess.run(holder, input="\n", capture_output=True, text=True, timeout=30, check=False)
        assert taken.stdout == "held\n"
    finally:
        os.close(fd)
