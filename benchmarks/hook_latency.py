#!/usr/bin/env python3
"""Median wall time of `rtk hook claude` on a typical payload beside `python -c pass`.

Usage: hook_latency.py [--rtk PATH] [--runs N] [--no-bytecode] [--imports].
Every case runs with the interpreter of the `rtk` script, alternating run by run so machine drift
hits all alike, in a temporary HOME (no real agent settings). An installed rtk has its bytecode
compiled; a development shell often sets PYTHONDONTWRITEBYTECODE=1, which makes every run compile
every module again. So by default the runs use a private PYTHONPYCACHEPREFIX, warmed up first
(`--no-bytecode` measures the compile-every-time case instead). `--imports` prints the slowest
imports of one hook run (-X importtime, cumulative microseconds).
Target (issue 9): at most 40 ms and at most 2x the interpreter's own start.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from script_info import interpreter_of, script_note

PAYLOAD = json.dumps({
    "session_id": "5f1c", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
    "hook_event_name": "PreToolUse", "tool_name": "Bash",
    "tool_input": {"command": "cargo build && cargo test", "description": "Build and tests",
                   "timeout": 120000},
}).encode()
NO_REWRITE = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                         "tool_input": {"command": "echo hello"}}).encode()


def environment(bytecode: bool) -> dict[str, str]:
    tmp = tempfile.mkdtemp(prefix="rtk-hook-bench-")
    env = dict(os.environ, HOME=tmp, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp)
    for var in ("RTK_HOOK_AUDIT", "RTK_AUDIT_DIR", "RTK_CONFIG_DIR"):
        env.pop(var, None)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def measure(cases: dict[str, tuple[list[str], bytes]], runs: int,
            env: dict[str, str]) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall and CPU (user + sys of the child) milliseconds per run; CPU barely moves with load."""
    for argv, data in cases.values():  # warm-up: bytecode written, page cache filled
        subprocess.run(argv, input=data, capture_output=True, env=env, check=False)
    wall: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, (argv, data) in cases.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, input=data, capture_output=True, env=env, check=False)
            wall[name].append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
    return wall, cpu


def slowest_imports(rtk: str, env: dict[str, str], count: int = 12) -> list[str]:
    result = subprocess.run([interpreter_of(rtk), "-X", "importtime", rtk, "hook", "claude"],
                            input=PAYLOAD, capture_output=True, env=env, check=False)
    rows = []
    for line in result.stderr.decode().splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return [f"{micros:8} us {name}" for micros, name in sorted(rows, reverse=True)[:count]]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtk", default=shutil.which("rtk") or "rtk")
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--no-bytecode", action="store_true")
    ap.add_argument("--imports", action="store_true")
    args = ap.parse_args()
    py = interpreter_of(args.rtk)
    env = environment(not args.no_bytecode)
    cases = {
        "python -c pass": ([py, "-c", "pass"], b""),
        "rtk hook claude": ([args.rtk, "hook", "claude"], PAYLOAD),
        "rtk hook claude (none)": ([args.rtk, "hook", "claude"], NO_REWRITE),
        "rtk hook cursor": ([args.rtk, "hook", "cursor"], PAYLOAD.replace(b'"Bash"', b'"Shell"')),
    }
    times, cpu = measure(cases, args.runs, env)
    print(script_note(args.rtk))
    print(f"bytecode: {'compiled (installed rtk)' if not args.no_bytecode else 'none (compiled every run)'}"
          f", runs: {args.runs}, load average: {os.getloadavg()[0]:.2f}")
    for name, values in times.items():
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"{name:24} median {statistics.median(values):6.1f} ms   p90 {p90:6.1f} ms"
              f"   cpu {statistics.median(cpu[name]):6.1f} ms")
    hook = statistics.median(times["rtk hook claude"])
    ratio = hook / statistics.median(times["python -c pass"])
    cpu_ratio = statistics.median(cpu["rtk hook claude"]) / statistics.median(cpu["python -c pass"])
    print(f"hook / python start      {ratio:6.2f}x wall, {cpu_ratio:.2f}x cpu")
    ok = hook <= 40 and ratio <= 2
    print("target (<= 40 ms and <= 2x):", "met" if ok else "MISSED")
    if args.imports:
        print("\n".join(slowest_imports(args.rtk, env)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
