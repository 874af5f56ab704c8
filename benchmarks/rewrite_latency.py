#!/usr/bin/env python3
"""Median wall time of `rtk rewrite "git status && cargo test"` beside `python -c pass`.

Usage: rewrite_latency.py [--rtk PATH] [--runs N]. Both run with the interpreter of the `rtk`
script, alternating run by run so machine drift hits both alike. Target (issue 8): the rewrite
takes at most 40 ms and at most 2x the interpreter's own start.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from script_info import interpreter_of, script_note

COMMAND = "git status && cargo test"


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(cases: dict[str, list[str]], runs: int, env: dict[str, str]) -> tuple[dict[str, float], dict[str, float]]:
    """Median wall and median child CPU time (ms) per case; CPU time shrugs off a loaded machine."""
    wall: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, argv in cases.items():
            start, start_cpu = time.perf_counter(), _child_cpu()
            subprocess.run(argv, capture_output=True, env=env, check=False)
            wall[name].append(time.perf_counter() - start)
            cpu[name].append(_child_cpu() - start_cpu)
    return ({name: statistics.median(v) * 1000 for name, v in wall.items()},
            {name: statistics.median(v) * 1000 for name, v in cpu.items()})


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtk", default=shutil.which("rtk") or "rtk")
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--no-bytecode", action="store_true",
                    help="keep PYTHONDONTWRITEBYTECODE as set (every run compiles rtk from source)")
    args = ap.parse_args()
    py = interpreter_of(args.rtk)
    tmp = tempfile.mkdtemp()
    env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp, HOME=tmp)
    if not args.no_bytecode:
        # As installed: byte-compiled modules (kept out of the tree in a private cache dir).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")
    cases = {
        "python -c pass": [py, "-c", "pass"],
        "rtk rewrite": [args.rtk, "rewrite", COMMAND],
        "python -m rtk rewrite": [py, "-m", "rtk", "rewrite", COMMAND],
    }
    print(script_note(args.rtk))
    measure(cases, 2, env)  # warm-up: fills the bytecode cache
    med, cpu = measure(cases, args.runs, env)
    for name, value in med.items():
        print(f"{name:24} {value:7.1f} ms wall  {cpu[name]:7.1f} ms cpu")
    ratio = med["rtk rewrite"] / med["python -c pass"]
    print(f"rewrite / python start   {ratio:7.2f}x wall  {cpu['rtk rewrite'] / cpu['python -c pass']:7.2f}x cpu")
    ok = med["rtk rewrite"] <= 40 and ratio <= 2
    print("target (<= 40 ms and <= 2x):", "met" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
