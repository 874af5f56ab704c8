"""Feed a real fixture's raw output to a filter line by line, as the runner does."""
from __future__ import annotations

from pathlib import Path

from rtk.filters.base import Filter, Line, Stream
from rtk.run.splitter import LineSplitter

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def raw_lines(tool: str, case: str) -> list[str]:
    splitter = LineSplitter()
    lines = splitter.feed((FIXTURES / tool / case / "raw.txt").read_bytes())
    return lines + splitter.flush()


def replay(filt: Filter, lines: list[str], exit_code: int = 1) -> list[str]:
    out: list[Line] = []
    for line in lines:
        out.extend(filt.feed(line, Stream.STDOUT))
    out.extend(filt.finish(exit_code))
    return [line.text for line in out]
