#!/usr/bin/env python3
"""`rtk hook claude` with 200 TOML filter files installed, beside `python -c pass`.

Usage: hook_latency_filters.py [--rtk PATH] [--runs N] [--files N].
The user's filter dir gets N files (default 200), each one filter in the Rust rtk's format, half
matched by `match_command` regexes and half by `match` words, with strip rules and an inline
test, so the hook path must consult every filter's matchers. The first (warm-up) run builds the
index; the measured runs read it. Payloads: a command no TOML filter serves (`git status && cargo
test`), and one that a TOML filter serves (`tool137 --x`, whose regex the hook must then run).
Target (issue 17): within 2x the interpreter's own start.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys

from hook_latency import PAYLOAD, environment, measure
from script_info import interpreter_of, script_note

FILTER = '''schema_version = 1

[filters.tool{n}]
description = "tool{n}: drop its progress lines"
{matcher}
strip_ansi = true
strip_lines_matching = ["^\\\\s*$", "^\\\\[tool{n}\\\\] progress", "^Downloading "]
max_lines = 200
on_empty = "tool{n}: ok"

[[tests.tool{n}]]
name = "progress dropped"
input = "[tool{n}] progress 1\\nresult\\n"
expected = "result"
'''


def install_filters(config_home: str, count: int) -> None:
    folder = os.path.join(config_home, "rtk", "filters")
    os.makedirs(folder, exist_ok=True)
    for n in range(count):
        matcher = f'match_command = "^tool{n}\\\\b"' if n % 2 else f'match = ["tool{n} *"]'
        with open(os.path.join(folder, f"tool{n}.toml"), "w", encoding="utf-8") as handle:
            handle.write(FILTER.format(n=n, matcher=matcher))


def payload(command: str) -> bytes:
    return json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": {"command": command}}).encode()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtk", default=shutil.which("rtk") or "rtk")
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--files", type=int, default=200)
    args = ap.parse_args()
    py = interpreter_of(args.rtk)
    env = environment(True)
    install_filters(env["XDG_CONFIG_HOME"], args.files)
    cases = {
        "python -c pass": ([py, "-c", "pass"], b""),
        "rtk hook claude": ([args.rtk, "hook", "claude"], PAYLOAD),
        "rtk hook claude (toml)": ([args.rtk, "hook", "claude"], payload("tool137 --x")),
    }
    times, cpu = measure(cases, args.runs, env)
    print(script_note(args.rtk))
    print(f"filter files: {args.files}, runs: {args.runs}, load average: {os.getloadavg()[0]:.2f}")
    for name, values in times.items():
        p90 = statistics.quantiles(values, n=10)[-1]
        print(f"{name:24} median {statistics.median(values):6.1f} ms   p90 {p90:6.1f} ms"
              f"   cpu {statistics.median(cpu[name]):6.1f} ms")
    base, base_cpu = statistics.median(times["python -c pass"]), statistics.median(cpu["python -c pass"])
    worst = max(statistics.median(times[n]) for n in cases if n != "python -c pass")
    worst_cpu = max(statistics.median(cpu[n]) for n in cases if n != "python -c pass")
    print(f"hook / python start      {worst / base:6.2f}x wall, {worst_cpu / base_cpu:.2f}x cpu")
    ok = worst <= 2 * base
    print("target (<= 2x):", "met" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
