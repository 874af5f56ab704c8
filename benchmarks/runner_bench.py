#!/usr/bin/env python3
"""Throughput and memory of the runner on a large output, and its start-up overhead.

Usage: benchmarks/runner_bench.py [--mb 200] [--runs 20]. The memory figure is the peak RSS of
the rtk process alone (read from /proc while it runs), so the child's own memory is not counted.

Beside them, the host's own yardstick: a bare Python byte-line loop (rtk's interpreter reading the
same file from stdin in 64 KiB chunks, splitting lines, appending them, joining and writing), the
least a line-by-line filter must do. Absolute MB/s mostly measure the host (the same build has
read 58 to 170 MB/s on this project's development VMs); the ratio to the bare loop is the
filter's own cost and is what issue 22's "within 4x" target reads.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import BinaryIO

from script_info import interpreter_of  # (benchmarks/ is the script's own directory)

LINE_WORDS = ["error", "warning", "file", "line", "compile", "test", "passed", "failed", "src", "lib",
              "module", "value"]


def make_output(path: str, megabytes: int) -> None:
    """Varied lines (a counter and words), so the generic filter cannot collapse them."""
    line_no = 0
    with open(path, "w") as handle:
        while handle.tell() < megabytes * 1_000_000:
            words = " ".join(LINE_WORDS[(line_no * 7 + k) % len(LINE_WORDS)] for k in range(8))
            handle.write(f"{line_no} {words}\n")
            line_no += 1


def peak_rss_kib(pid: int, stop: threading.Event, result: list[int]) -> None:
    peak = 0
    while not stop.is_set():
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        except OSError:
            break
        time.sleep(0.05)
    result.append(peak)


def timed_run(argv: list[str], stdin_path: str | None = None) -> tuple[float, int]:
    with open(stdin_path or os.devnull, "rb") as stdin:
        return _timed(argv, stdin)


def _timed(argv: list[str], stdin: BinaryIO) -> tuple[float, int]:
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL)
    stop, peak = threading.Event(), []  # type: ignore[var-annotated]
    watcher = threading.Thread(target=peak_rss_kib, args=(proc.pid, stop, peak))
    watcher.start()
    proc.wait()
    elapsed = time.perf_counter() - started
    stop.set()
    watcher.join()
    return elapsed, peak[0] if peak else 0


BARE_LOOP = """
import sys
read, write = sys.stdin.buffer.read, sys.stdout.buffer.write
rest = b""
while chunk := read(65536):
    lines = (rest + chunk).split(b"\\n")
    rest = lines.pop()
    kept = []
    append = kept.append
    for line in lines:
        append(line)
    write(b"\\n".join(kept) + b"\\n")
write(rest)
"""


def median_ms(argv: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    rtk = shutil.which("rtk") or sys.exit("rtk is not on PATH")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.update(XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp)
        big = os.path.join(tmp, "big.txt")
        make_output(big, args.mb)
        size_mb = os.path.getsize(big) / 1e6
        print(f"output: {size_mb:.0f} MB of varied lines")
        bare, _ = timed_run([interpreter_of(rtk), "-c", BARE_LOOP], big)
        print(f"{'bare Python byte-line loop':34} {size_mb / bare:6.1f} MB/s")
        for label, argv, stdin in (("rtk run --filter generic -- cat FILE", [rtk, "run", "--filter", "generic", "--", "cat", big], None),
                                   ("rtk proxy cat FILE", [rtk, "proxy", "cat", big], None),
                                   ("rtk pipe -f generic < FILE", [rtk, "pipe", "-f", "generic"], big)):
            elapsed, peak = timed_run(argv, stdin)
            print(f"{label:34} {size_mb / elapsed:6.1f} MB/s  peak RSS {peak / 1024:5.1f} MiB  "
                  f"({elapsed / bare:.1f}x the bare loop's time)")
        true_ms = median_ms(["true"], args.runs)
        rtk_true_ms = median_ms([rtk, "true"], args.runs)
        print(f"true: {true_ms:.1f} ms, rtk true: {rtk_true_ms:.1f} ms (median of {args.runs})")


if __name__ == "__main__":
    main()
