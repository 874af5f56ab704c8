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
from rtk.filters.failwindow import FailWindow
from rtk.filters.path_outline import PathOutline
from rtk.run.estimate import pieces

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from rtk.filters.readmap import ReadMap
    from rtk.run.writer import Writer
    from rtk.session.memory import Memory

# the map of a reader's output past the window: at most twice the tokens of the host's preview
# (estimated; 1.8 leaves room for the estimate's error), its outline and end cut down to fit
MAP_SHARE, MAP_OUTLINE, MAP_END = 1.8, 6_000, 800


class BudgetedWriter:
    """Stands in for the pipeline's Writer; `close()` writes what fits through the real one.

    `failing`: the tighter window of a failing run (Claude Code: 10,000 chars), folded in step
    with the whole one, so that either can be written once the exit code is known; with the
    filter's `failure_head`, a failing run's form lists every failure first (failwindow.py).
    `memory`: the context's session memory, which decides on the whole output (nothing goes early)."""

    def __init__(self, writer: Writer, limit: int, failing: int | None = None, filt: object = None,
                 memory: Memory | None = None) -> None:
        self.inner = writer
        self.limit = limit
        self.fold = Fold(limit, PathOutline(), marker_tag=Stream.STDOUT)  # a left-out run names its files
        self.failing: Fold | None = None
        self.window: FailWindow | None = None
        failure_head: Callable[[str], bool] | None = getattr(filt, "failure_head", None)
        if failing is not None and failing < limit:
            self.failing = Fold(failing, PathOutline(), marker_tag=Stream.STDOUT)
            if failure_head is not None:
                self.window = FailWindow(failing, failure_head, Stream.STDOUT)
        self.read_map: ReadMap | None = getattr(filt, "read_map", None)  # a reader's (rtk.filters.readmap)
        self.held_bytes = 0
        self.closed = False
        self.written = 0  # lines of the start written at once (see Fold.sure)
        self.streaming = self.read_map is None and memory is None  # until a line is not sure to be printed as is
        self.memory = memory
        self.held_lines = 0
        self.open_end = False

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
        batch = list(lines)
        if batch:
            self.open_end = open_end  # the output's last line had no newline (so far)
        self.held_lines += len(batch)
        for index, (text, stream) in enumerate(batch):
            if open_end and index == len(batch) - 1:
                self.streaming = False  # written at the close, without the newline it never had
            self.held_bytes += len(text.encode("utf-8", "replace")) + 1
            self.fold.add(text, stream)
            if self.failing is not None:
                self.failing.add(text, stream)
            if self.window is not None:
                self.window.add(text, stream)
            if self.streaming and self._sure(text):
                sure.append(Line(text, stream))
            else:
                self.streaming = False
        if sure:
            self.written += len(sure)
            self.inner.write(sure)

    def write_bytes(self, data: bytes, stream: Stream) -> None:
        text = data.decode("utf-8", "replace")
        self.write(Line(line, stream) for line in text.removesuffix("\n").split("\n"))

    def _sure(self, text: str) -> bool:
        """The line is certain to stand where it is in every form that may be written."""
        return self.fold.sure(text) and (self.failing is None or self.failing.sure(text)) and \
            (self.window is None or self.window.sure())

    def fits_with(self, lines: Iterable[Line], exit_code: int = 0) -> bool:
        if self._mapping():
            return False  # the map names the recall id
        fold = self.failing if exit_code != 0 and self.failing is not None else self.fold
        return fold.fits_with(sum(len(text) + 1 for text, _ in lines))

    def summary_starts(self) -> None:
        """What is written from now on is the filter's closing lines (the failure window's summary)."""
        if self.window is not None:
            self.window.summary_starts()

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
        fold = self.failing if exit_code != 0 and self.failing is not None else self.fold
        held = fold.close(hint)
        if fold.folded and self.window is not None and fold is self.failing:
            held = self.window.render(hint, recall_id) or held
        if fold.folded and hint is not None and sum(1 for text, _ in held if text == hint) > 1:
            held = _without_first(held, hint)  # the pipeline's own hint was held too
        mapped = self._mapping()
        if mapped:
            held = _smaller(held, sized_map(self.read_map, recall_id))  # type: ignore[arg-type]
        if self.memory is not None:
            held = self.memory.apply(held, recall_id or (once if keep else None), fold.folded or mapped,
                                     Stream.STDOUT)
        open_end = self.open_end and len(held) == self.held_lines and not fold.folded  # held whole, as it came
        self.inner.write((Line(text, stream) for text, stream in held[self.written:]),  # type: ignore[arg-type]
                         open_end=open_end)
        if keep is not None and not kept:
            keep(False)  # nothing named it: the spool goes, as for any unelided run
        return kept[0] if kept else None

    def _mapping(self) -> bool:
        """A reader's output past the host's window: a map may stand for it."""
        return self.read_map is not None and self.read_map.chars > self.limit


def sized_map(read_map: ReadMap, recall_id: str | None) -> list[str]:
    """The map with as much outline and end as fit in MAP_SHARE of the host preview's tokens."""
    budget = int(estimate(read_map.preview().split("\n")) * MAP_SHARE)
    outline, end = MAP_OUTLINE, MAP_END
    lines = read_map.render(recall_id, outline, end)
    while estimate(lines) > budget and outline > 100:
        outline, end = int(outline * 0.8), int(end * 0.8)
        lines = read_map.render(recall_id, outline, end)
    return lines


def _smaller(held: list[tuple[str, object]], lines: list[str]) -> list[tuple[str, object]]:
    """The map, unless rtk's own form is smaller already (then it keeps every line)."""
    if estimate(lines) < estimate([text for text, _ in held]):
        return [(text, Stream.STDOUT) for text in lines]
    return held


def estimate(lines: list[str]) -> int:
    return sum(pieces(text) + 1 for text in lines)


def _without_first(held: list[tuple[str, object]], hint: str) -> list[tuple[str, object]]:
    index = next(i for i, (text, _) in enumerate(held) if text == hint)
    return held[:index] + held[index + 1:]
