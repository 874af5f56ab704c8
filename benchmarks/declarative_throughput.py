#!/usr/bin/env python3
"""Throughput of the declarative engine: MB/s of raw output through each built-in TOML filter.

Usage: declarative_throughput.py [--mb N]. For every built-in filter, its fixtures' raw output is
repeated to about N MB (default 20) and fed line by line through the filter (feed + finish), the
way the runner does after splitting. CPU time (process_time), so machine load moves it little.
Target (issue 17): at least 100 MB/s on the common shapes.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rtk.filters.base import FilterContext, Stream
from rtk.filters.declarative import all_files
from rtk.filters.declarative.catalog import load_all
from rtk.filters.declarative.engine import DeclarativeFilter

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def corpus(name: str, megabytes: float) -> list[str]:
    lines = [line for raw in sorted((FIXTURES / name).glob("*/raw.txt"))
             for line in raw.read_text(encoding="utf-8", errors="replace").split("\n")]
    size = sum(len(line) + 1 for line in lines) or 1
    return lines * max(1, int(megabytes * 1e6 / size))


def throughput(spec: object, lines: list[str]) -> float:
    engine = DeclarativeFilter(spec, FilterContext())  # type: ignore[arg-type]
    feed, out = engine.feed, Stream.STDOUT
    megabytes = sum(len(line) + 1 for line in lines) / 1e6
    start = time.process_time()
    for line in lines:
        feed(line, out)
    engine.finish(1)
    return megabytes / max(time.process_time() - start, 1e-9)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=20)
    args = ap.parse_args()
    rates = []
    for spec in load_all([f for f in all_files(None) if f[0] == "built-in"]).filters:
        lines = corpus(spec.name, args.mb)
        if len(lines) > 1:
            rate = throughput(spec, lines)
            rates.append(rate)
            print(f"{spec.name:14} {rate:7.1f} MB/s  ({sum(len(x) + 1 for x in lines) / 1e6:.0f} MB)")
    rates.sort()
    print(f"median {rates[len(rates) // 2]:.1f} MB/s over {len(rates)} filters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
