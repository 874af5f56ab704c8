"""What a finished run hands to accounting, and the pipeline that filters nothing (`rtk proxy`):
the two shapes every run ends in, apart from the filtering pipeline (rtk/run/pipeline.py)."""
from __future__ import annotations

from rtk.filters.base import Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtk.run.writer import Writer


class Outcome:
    """What a finished pipeline hands to accounting (a plain class: `dataclasses` costs ms)."""

    __slots__ = ("filter_error", "printed_bytes", "raw_bytes", "recall_id")

    def __init__(self, recall_id: str | None, filter_error: str | None, raw_bytes: int,
                 printed_bytes: int) -> None:
        self.recall_id, self.filter_error = recall_id, filter_error
        self.raw_bytes, self.printed_bytes = raw_bytes, printed_bytes


class PassthroughPipeline:
    """`rtk proxy` and disabled filters: the child's bytes go through untouched (still counted)."""

    filter_name = "passthrough"
    filter_error: str | None = None

    def __init__(self, writer: Writer, on_raw: Callable[[bytes], None] | None = None) -> None:
        self.writer = writer
        self._on_raw = on_raw
        self.raw_bytes = 0

    def feed(self, chunk: bytes, stream: Stream) -> None:
        self.raw_bytes += len(chunk)
        if self._on_raw is not None:
            self._on_raw(chunk)
        self.writer.write_bytes(chunk, stream)

    def end_of_stream(self, stream: Stream) -> None:
        pass

    def release_hold(self) -> None:
        pass

    def finish(self, exit_code: int) -> Outcome:
        return Outcome(None, None, self.raw_bytes, self.writer.printed_bytes)
