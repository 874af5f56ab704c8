"""The trio-free half of `rtk CMD`: writer, pipeline and accountant, fed by whichever loop reads.

A short command is read to the end before trio is even imported (fast_finish.py); a longer one
is handed to the trio session. Both feed this one object, so what is printed, kept for recall
and counted does not depend on which loop did the reading.
"""
from __future__ import annotations

import os
import sys
import time

from rtk import config
from rtk.filters.base import Stream
from rtk.filters.budget import HOST_CUTS, failing_limit, host_limit, host_of
from rtk.run.pipeline import OutputPipeline, PassthroughPipeline, Writer, build_pipeline
from rtk.track import accounting

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

def host_of_run() -> dict[str, Any]:
    """How the run reached rtk, for `rtk gain`. A host that cuts long outputs (Claude Code shows a
    ~2 KB preview past 30,000 chars, Codex keeps ~10,000 bytes) would have shown the model only
    that cut of the raw output, so the cut, not the whole raw output, is what rtk saved against."""
    host = host_of(os.environ)
    if host is None:
        return {"via": "run", "preview_limit": 0}
    return {"via": f"run:{host}", "preview_limit": HOST_CUTS[host][0], "preview_chars": HOST_CUTS[host][1]}


class RunOutput:
    def __init__(self, argv: list[str], filter_name: str, cfg: config.Config, *, started: float,
                 t0: float, colour_fds: frozenset[int] = frozenset()) -> None:
        self.argv, self.started, self.t0 = argv, started, t0
        self.accountant = accounting.start(argv, filter_name)
        on_raw = self.accountant.raw if self.accountant else None
        self.writer = Writer(self.accountant.printed if self.accountant else None, colour_fds)
        limit = host_limit(os.environ, cfg.limits)
        memory = None
        if limit is not None:  # session memory: only where the whole output is held (Claude Code)
            from rtk.session.start import for_run

            memory = for_run(argv, filter_name, cfg)
        self.pipeline: OutputPipeline | PassthroughPipeline = build_pipeline(
            argv, filter_name, cfg, self.writer, on_raw, char_limit=limit,
            failing_limit=failing_limit(os.environ, cfg.limits), maps=host_of(os.environ) == "claude", memory=memory)

    def feed(self, chunk: bytes, stream: Stream) -> None:
        self.pipeline.feed(chunk, stream)

    def end_of_stream(self, stream: Stream) -> None:
        self.pipeline.end_of_stream(stream)

    def reader_gone(self, stream: Stream) -> bool:
        """Whoever reads rtk's copy of this stream went away (EPIPE)."""
        return int(stream) in self.writer.broken

    def finish(self, status: int) -> None:
        """Summary, hints and recall once the child's status is known, then the tracking record."""
        outcome = self.pipeline.finish(status)
        if self.accountant is None:
            return
        try:
            self.accountant.finish(accounting.RunRecord(
                argv=self.argv, filter=self.pipeline.filter_name, exit_code=status,
                wall_ms=int((time.monotonic() - self.t0) * 1000), cwd=os.getcwd(),
                started=self.started, raw_bytes=self.pipeline.raw_bytes,
                printed_bytes=self.writer.printed_bytes, recall_id=outcome.recall_id,
                filter_error=outcome.filter_error, **host_of_run()))
        except Exception as exc:  # noqa: BLE001 - tracking never fails a command
            print(f"rtk: tracking failed ({type(exc).__name__}: {exc})", file=sys.stderr)
