#!/usr/bin/env python3
"""The pytest filter on long passing runs: MB/s through `rtk pipe --cmd`, beside a bare Python
byte-line loop over the same bytes (the host's yardstick, runner_bench.py).

Usage: pytest_throughput.py [--rtk PATH] [--mb 100] [--runs 3]

Each mode's passing output is built from a real capture in fixtures/pytest: its header, its
progress lines repeated to about N MB, its closing lines. Default progress (`tests/x.py ..s.
[ 40%]`, packaging's 64,204 tests), -v (`x.py::t PASSED  [ 9%]`, dateutil's suite: some ids
with spaces, some SKIPPED and XFAIL) and -q (bare dots, more-itertools). These are what a long
passing run is made of, and what the byte path (rtk/filters/pytest/progress_block.py) counts
without decoding. Target (issue 22): at least 100 MB/s, set on a host where the bare loop ran
about 1 GB/s; the ratio to the bare loop reads the same across hosts.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from runner_bench import BARE_LOOP, timed_run
from script_info import interpreter_of

PYTEST = Path(__file__).resolve().parent.parent / "fixtures" / "pytest"
# (mode, fixture, the command rtk is told ran)
MODES = (("default", "packaging_pass_64k", "python -m pytest"),
         ("-v", "dateutil_v_suite_pass", "pytest -v"),
         ("-q", "more_itertools_pass_q", "pytest -q"))


def progress_span(lines: list[str]) -> tuple[int, int]:
    """Where a capture's progress lines start and end: after the `collected` line (the first
    line for -q; -v says `collecting ... collected`), up to the first blank, `===` or stats line."""
    start = next((i + 1 for i, line in enumerate(lines) if "collected " in line), 0)
    while start < len(lines) and not lines[start].strip():
        start += 1
    end = next(i for i in range(start, len(lines)) if not lines[i].strip() or lines[i].startswith("=")
               or " passed" in lines[i] and " in " in lines[i])  # (-q: the bare stats line)
    return start, end


def build(fixture: str, path: str, megabytes: float) -> None:
    lines = (PYTEST / fixture / "raw.txt").read_text(encoding="utf-8").split("\n")
    start, end = progress_span(lines)
    body = "".join(line + "\n" for line in lines[start:end])
    with open(path, "w", encoding="utf-8") as out:
        out.write("".join(line + "\n" for line in lines[:start]))
        out.write(body * max(1, int(megabytes * 1e6 / len(body))))
        out.write("\n".join(lines[end:]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rtk", default=shutil.which("rtk") or "rtk")
    parser.add_argument("--mb", type=float, default=100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    python = interpreter_of(args.rtk)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.update(XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp, RTK_TRACK="0")
        for mode, fixture, command in MODES:
            path = os.path.join(tmp, f"{fixture}.txt")
            build(fixture, path, args.mb)
            size = os.path.getsize(path) / 1e6
            ours = statistics.median(timed_run([args.rtk, "pipe", "--cmd", command], path)[0]
                                     for _ in range(args.runs))
            bare = statistics.median(timed_run([python, "-c", BARE_LOOP], path)[0] for _ in range(args.runs))
            print(f"{mode:8} {fixture:24} {size:5.0f} MB  {size / ours:6.1f} MB/s  "
                  f"(bare loop {size / bare:6.1f} MB/s: {ours / bare:.1f}x its time)", flush=True)


if __name__ == "__main__":
    main()
