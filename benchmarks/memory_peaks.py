#!/usr/bin/env python3
"""Peak memory of rtk on big outputs: each fixture family's largest capture, repeated, through
`rtk pipe --cmd` (the filter the runner would choose for that capture's command).

Usage: memory_peaks.py [--rtk PATH] [--mb N] [FAMILY ...]

Each case runs in its own process: its peak RSS is that process's `ru_maxrss` (this script only
streams the input in and counts the output, holding neither). Repeating one capture is the
shape that finds state which grows with the output (a list of every file, a table of every
row), the kind a real 2 GB output also makes grow. Target (issue 22): < 100 MB for 2 GB through
any filter; 200 MB per family (the default) is enough to see a growth that would cross it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PROBE = """
import resource, subprocess, sys, threading
rtk, cmd, code, raw, reps = sys.argv[1:6]
data = open(raw, "rb").read()
proc = subprocess.Popen([rtk, "pipe", "--cmd", cmd, "--exit-code", code], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
out = []
reader = threading.Thread(target=lambda: out.append(sum(len(c) for c in iter(lambda: proc.stdout.read(1 << 20), b""))))
reader.start()
try:
    for _ in range(int(reps)):
        proc.stdin.write(data)
    proc.stdin.close()
except BrokenPipeError:
    pass
reader.join()
proc.wait()
print(out[0], proc.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def largest_case(family: str) -> Path | None:
    cases = sorted(FIXTURES.glob(f"{family}/*/raw.txt"), key=lambda p: p.stat().st_size)
    return cases[-1].parent if cases and cases[-1].stat().st_size else None


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rtk", default=shutil.which("rtk") or "rtk")
    ap.add_argument("--mb", type=float, default=200)
    ap.add_argument("families", nargs="*")
    args = ap.parse_args()
    families = args.families or sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
    worst = 0.0
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home)
        for family in families:
            case = largest_case(family)
            if case is None:
                continue
            command = (case / "command").read_text().strip()
            code_file = case / "exit_code"
            code = code_file.read_text().strip() if code_file.exists() else "0"
            size = (case / "raw.txt").stat().st_size
            reps = max(1, int(args.mb * 1e6 / size))
            start = time.monotonic()
            found = subprocess.run([sys.executable, "-c", PROBE, args.rtk, command, code, str(case / "raw.txt"),
                                    str(reps)], capture_output=True, text=True, env=env, check=False)
            try:
                printed, rc, peak_kib = (int(x) for x in found.stdout.split())
            except ValueError:
                print(f"  {family:14} failed: {found.stderr.strip()[-200:]}")
                continue
            peak = peak_kib / 1024
            worst = max(worst, peak)
            print(f"  {family:14} {case.name[:32]:32} {reps * size / 1e6:6.0f} MB in {time.monotonic() - start:5.1f} s, "
                  f"printed {printed / 1e6:7.2f} MB, exit {rc}, peak {peak:6.1f} MiB", flush=True)
    print(f"  worst peak {worst:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
