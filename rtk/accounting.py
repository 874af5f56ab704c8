"""The runner's side of token accounting: what a run hands over, and when.

The runner calls `start()` before the child's output flows, `raw()`/`printed()` with every chunk
as it passes, and `finish()` once rtk's own output is flushed and the exit code is known. None of
these may delay the command: the heavy part (tiktoken, SQLite) happens elsewhere.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RunRecord:
    """One rtk run as the tracking database records it (spec/gain.md, Tracking)."""

    argv: list[str]
    filter: str
    exit_code: int
    wall_ms: int
    cwd: str
    started: float
    raw_bytes: int
    printed_bytes: int
    recall_id: str | None = None
    filter_error: str | None = None


class Accountant:
    """Receives a run's bytes as they stream. This base version only counts bytes."""

    def __init__(self, argv: list[str], filter_name: str) -> None:
        self.argv = argv
        self.filter_name = filter_name

    def raw(self, data: bytes) -> None:
        pass

    def printed(self, data: bytes) -> None:
        pass

    def finish(self, record: RunRecord) -> None:
        pass


def start(argv: list[str], filter_name: str) -> Accountant | None:
    """An accountant for this run, or None when tracking is off."""
    from rtk import config

    if not config.load().tracking_enabled:
        return None
    return Accountant(argv, filter_name)
