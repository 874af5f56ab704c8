"""A Writer that holds a run's printed lines for a host that cuts long outputs (Claude Code).

Under CLAUDECODE=1 nobody watches the output scroll: Claude Code hands the model what the command
printed once it ends, and past 30,000 chars only a 2 KB preview of it. So there, and only there,
the pipeline writes through this class, which holds every line in a `Fold` (bounded memory) and
writes at the end either all of it or the fold that fits (rtk.filters.budget); only the start,
which the fold keeps whatever follows, is written as it comes. Everywhere else the pipeline
streams as always.
"""
from __future__ import annotations

from rtk.filters.base import Line, Stream, recall_hint
from rtk.filters.budget import Fold
from rtk.filters.path_outline import PathOutline

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from rtk.run.writer import Writer
    from rtk.session.memory import Memory


class BudgetedWriter:
    """Stands in for the pipeline's Writer; `close()` writes what fits through the real one."""

    def __init__(self, writer: Writer, limit: int, memory: Memory | None = None) -> None:
        self.inner = writer
        self.limit = limit
        self.fold = Fold(limit, PathOutline(), marker_tag=Stream.STDOUT)  # a left-out run names its files
        self.held_bytes = 0
        self.closed = False
        self.written = 0  # lines of the start written at once (see Fold.sure)
        self.streaming = memory is None  # until a line is not sure to be printed as it is
        self.memory = memory  # session memory decides on the whole output: nothing goes early

    @property
    def printed_bytes(self) -> int:
        """What the pipeline has printed as far as its own rules go (held counts as printed)."""
        return self.inner.printed_bytes if self.closed else self.held_bytes

    @property
    def broken(self) -> set[int]:
        return self.inner.broken

    def write(self, lines: Iterable[Line], open_end: bool = False) -> None:
        """Held; the start of the output, certain to be printed whatever comes, is written at once
        (a long command's first lines, a server's banner, reach the agent while it runs)."""
        sure: list[Line] = []
        for text, stream in lines:
            self.held_bytes += len(text.encode("utf-8", "replace")) + 1
            self.fold.add(text, stream)
            if self.streaming and self.fold.sure(text):
                sure.append(Line(text, stream))
            else:
                self.streaming = False
        if sure:
            self.written += len(sure)
            self.inner.write(sure)

    def write_bytes(self, data: bytes, stream: Stream) -> None:
        text = data.decode("utf-8", "replace")
        self.write(Line(line, stream) for line in text.removesuffix("\n").split("\n"))

    def fits_with(self, lines: Iterable[Line]) -> bool:
        return self.fold.fits_with(sum(len(text) + 1 for text, _ in lines))

    def close(self, recall_id: str | None, exit_code: int = 0,
              keep: Callable[[bool], str | None] | None = None) -> str | None:
        """Write all that was held, folded to the limit when it is over it. `keep(True)` stores the
        raw output for recall when session memory needs an id to name (none was kept yet),
        `keep(False)` lets it go when it did not: the id kept, or None."""
        kept: list[str | None] = []

        def once() -> str | None:
            if not kept:
                kept.append(keep(True))  # type: ignore[misc]
            return kept[0]
        if self.memory is not None:
            self.memory.exit_code = exit_code
        self.closed = True
        hint = recall_hint(recall_id) if recall_id else None
        held = self.fold.close(hint)
        if self.fold.folded and hint is not None and sum(1 for text, _ in held if text == hint) > 1:
            held = _without_first(held, hint)  # the pipeline's own hint was held too
        if self.memory is not None:
            held = self.memory.apply(held, recall_id or (once if keep else None), self.fold.folded, Stream.STDOUT)
        self.inner.write(Line(text, stream) for text, stream in held[self.written:])  # type: ignore[arg-type]
        if keep is not None and not kept:
            keep(False)  # nothing named it: the spool goes, as for any unelided run
        return kept[0] if kept else None


def _without_first(held: list[tuple[str, object]], hint: str) -> list[tuple[str, object]]:
    index = next(i for i, (text, _) in enumerate(held) if text == hint)
    return held[:index] + held[index + 1:]
