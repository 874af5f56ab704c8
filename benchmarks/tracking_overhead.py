#!/usr/bin/env python3
"""What tracking costs a command: median wall time of `rtk CMD` with tracking on vs RTK_TRACK=0.

Usage: tracking_overhead.py [--rtk PATH] [--runs N] [--big MB]. Runs in the current directory
(use a git repo so `git status` means something). On and off alternate run by run so machine
drift hits both alike; a private XDG_DATA_HOME keeps the real history clean. Also reports how
long after rtk exits the row is in the database (the detached worker's latency), and, with
--big, the same comparison on a large output (`rtk proxy cat FILE`: spooling to disk).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time
from pathlib import Path


def timed(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return (time.perf_counter() - t0) * 1000


def rows(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db, timeout=30) as conn:
        try:
            return int(conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


def compare(name: str, argv: list[str], env_on: dict[str, str], runs: int) -> None:
    env_off = dict(env_on, RTK_TRACK="0")
    for _ in range(3):  # warm caches and start the worker
        timed(argv, env_on)
        timed(argv, env_off)
    on, off = [], []
    for _ in range(runs):
        on.append(timed(argv, env_on))
        off.append(timed(argv, env_off))
    med_on, med_off = statistics.median(on), statistics.median(off)
    paired = statistics.median(a - b for a, b in zip(on, off, strict=True))
    print(f"{name}: tracking on {med_on:.1f} ms, off {med_off:.1f} ms (median of {runs}), "
          f"difference {med_on - med_off:+.1f} ms, median paired difference {paired:+.1f} ms; "
          f"p90 on {sorted(on)[int(runs * 0.9)]:.1f} / off {sorted(off)[int(runs * 0.9)]:.1f} ms")


def wait_worker_gone(queue: Path, timeout: float = 300) -> None:
    """A worker holds the queue lock while it lives (it lingers, and may have a backlog)."""
    import fcntl

    if not (queue / "worker.lock").exists():
        return
    fd = os.open(queue / "worker.lock", os.O_RDWR)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                time.sleep(0.05)
    finally:
        os.close(fd)  # drops the probe lock at once


def record_latency(argv: list[str], env: dict[str, str], db: Path, tries: int) -> None:
    """Time from rtk's exit until its row is in the database, cold worker and warm worker."""
    queue = db.parent / "track-queue"
    for label, linger in (("cold worker", "0"), ("warm worker", "10")):
        delays = []
        for _ in range(tries):
            while any(queue.glob("*.job")) or any(queue.glob("*.claimed-*")):
                time.sleep(0.05)  # let the backlog drain first
            if linger == "0":
                wait_worker_gone(queue)
            before = rows(db)
            subprocess.run(argv, stdout=subprocess.DEVNULL, env=dict(env, RTK_TRACK_LINGER=linger), check=False)
            t0 = time.perf_counter()
            while rows(db) <= before and time.perf_counter() - t0 < 60:
                time.sleep(0.005)
            delays.append((time.perf_counter() - t0) * 1000)
        print(f"row recorded after rtk exits ({label}): median {statistics.median(delays):.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtk", default=shutil.which("rtk") or "rtk")
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--big", type=int, default=0, help="also time a MB-sized output (spooled)")
    args = ap.parse_args()
    data = Path(tempfile.mkdtemp())
    env = dict(os.environ, XDG_DATA_HOME=str(data), XDG_CONFIG_HOME=str(data))
    env.pop("RTK_TRACK", None)
    env.pop("RTK_TRACK_SYNC", None)
    compare("rtk git status", [args.rtk, "git", "status"], env, args.runs)
    record_latency([args.rtk, "git", "status"], env, data / "rtk" / "history.db", 5)
    if args.big:
        big = data / "big.txt"
        line = b"src/module/file.py:123: warning: something noteworthy happened here, again\n"
        big.write_bytes(line * (args.big * 1024 * 1024 // len(line)))
        compare(f"rtk proxy cat ({args.big} MB)", [args.rtk, "proxy", "cat", str(big)], env,
                max(5, args.runs // 4))
    wait_worker_gone(data / "rtk" / "track-queue")
    print(f"rows recorded: {rows(data / 'rtk' / 'history.db')}")
    shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
