#!/usr/bin/env python3
"""The post hook beside the pre hook: wall and CPU of `rtk hook claude` on a PostToolUse payload
holding 1 KB, 30 KB and a 5 MB persisted output (real `git` output of this checkout), beside a
PreToolUse rewrite and `python -c pass`.

Usage: post_hook_latency.py [--rtk PATH] [--runs N]. The post hook runs after every shell command
of the agent, so what it costs beyond the pre hook is the filter's own work on the output (the
run path's pipeline); the tracking record goes to the detached worker (RTK_TRACK_LINGER short).
Every case alternates run by run in a temporary HOME, like hook_latency.py.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from hook_latency import environment, measure
from script_info import interpreter_of, script_note

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=True).stdout


def post_payload(command: str, stdout: str, saved: str | None = None) -> bytes:
    response: dict[str, object] = {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}
    if saved:
        response.update(persistedOutputPath=saved, persistedOutputSize=os.path.getsize(saved))
    return json.dumps({"session_id": "s", "cwd": ROOT, "hook_event_name": "PostToolUse", "tool_name": "Bash",
                       "tool_input": {"command": command}, "tool_response": response}).encode()


def cut(text: str, size: int) -> str:
    return text[:text.rfind("\n", 0, size) + 1]


def payloads(tmp: str) -> dict[str, bytes]:
    log_stat = git("log", "-n", "400", "--stat")
    small = cut(git("log", "-n", "40", "--oneline"), 1024)
    medium = cut(log_stat, 30_000)
    big = git("log", "-n", "2000", "-p")
    big = big[:5 * 1024 * 1024]
    saved = os.path.join(tmp, "persisted.txt")
    with open(saved, "w") as f:
        f.write(big)
    return {"post 1 KB (git log --oneline)": post_payload("git log -n 40 --oneline", small),
            "post 30 KB (git log --stat)": post_payload("git log -n 400 --stat", medium),
            f"post {len(big) >> 20} MB persisted (git log -p)": post_payload("git log -n 2000 -p", big[:30_000], saved)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtk", default=shutil.which("rtk") or "rtk")
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    py = interpreter_of(args.rtk)
    env = environment(True)
    env["RTK_TRACK_LINGER"] = "0.5"
    pre = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": ROOT,
                      "tool_input": {"command": "cargo test"}}).encode()
    cases = {"python -c pass": ([py, "-c", "pass"], b""), "pre hook (rewrite)": ([args.rtk, "hook", "claude"], pre)}
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in payloads(tmp).items():
            cases[name] = ([args.rtk, "hook", "claude"], data)
        times, cpu = measure(cases, args.runs, env)
    print(script_note(args.rtk))
    print(f"runs: {args.runs}, load average: {os.getloadavg()[0]:.2f}")
    pre_ms = statistics.median(times["pre hook (rewrite)"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:34} median {median:7.1f} ms  cpu {statistics.median(cpu[name]):7.1f} ms"
              f"  {median / pre_ms:5.2f}x the pre hook")
    return 0


if __name__ == "__main__":
    sys.exit(main())
