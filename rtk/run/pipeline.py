"""From raw chunks to printed lines: the part of a run that is the same for `rtk CMD` and `rtk pipe`.

It owns the rules of spec/filters.md that hold for every filter: lines go to the filter as they
arrive and what it keeps is written at once; a short output is held back so the smaller of raw
and filtered can be printed (filtered only when smaller in bytes and clearly smaller in
estimated tokens); a filter crash lets the rest through raw; a failure the filter did not
recognise gets the raw tail, less the lines already printed and never more than the filter
saved; anything elided gets the recall hint; output whose invalid UTF-8 was replaced gets one
marker naming the recall id of the exact bytes; an output that ended without a newline ends so.
"""
from __future__ import annotations

import errno
import sys
import time

from rtk import config, paths, recall
from rtk.filters import registry as filters
from rtk.filters.base import FilterContext, Line, Stream, deque, recall_hint, strip_ansi
from rtk.recall import RawSpool
from rtk.run.estimate import pieces
from rtk.run.outcome import Outcome, PassthroughPipeline
from rtk.run.splitter import LineSplitter
from rtk.run.writer import Writer

__all__ = ["Outcome", "OutputPipeline", "PassthroughPipeline", "Writer", "build_pipeline"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from rtk.filters.base import Filter
    from rtk.session.memory import Memory

HOLD_LINES = 30
HOLD_BYTES = 1 << 20  # a short output is short in bytes too: lines can be 1 MiB each (the splitter's cap)
HOLD_SECONDS = 1.0
TAIL_LINES = 40
# a line of the raw tail (and of what it is compared with) is kept up to this length: 40 lines
# of the splitter's 1 MiB each held 40 MiB, and a line that long is recalled, not read
TAIL_LINE_CHARS = 4096
TOKEN_MARGIN = 3  # estimated tokens the filtered form must save to be printed instead of raw
TAIL_HEADER_BYTES, TAIL_HEADER_TOKENS = 80, 24  # room for the raw tail's header when it is cut to size
SAVED_BYTES_PER_TOKEN = 8  # what the filter dropped, counted in tokens at its densest plausible


class OutputPipeline:
    """Feed it the child's chunks per stream, then `finish(exit_code)` once both streams ended."""

    def __init__(self, filt: Filter, writer: Writer, spool: RawSpool | None, *, filter_name: str,
                 command: str | Sequence[str], on_raw: Callable[[bytes], None] | None = None,
                 hold_seconds: float | None = HOLD_SECONDS, char_limit: int | None = None,
                 failing_limit: int | None = None, memory: Memory | None = None) -> None:
        self.filter = filt
        self.filter_name = filter_name
        self.writer = writer
        if char_limit is not None:  # a host that cuts long outputs (Claude Code): hold all, fold to fit
            from rtk.run.budgeted import BudgetedWriter

            self.writer = BudgetedWriter(writer, char_limit, failing_limit, filt, memory)  # type: ignore[assignment]
        self._memory = memory if char_limit is not None else None  # it reads what the budget holds
        self._spool = spool
        self._command = command
        self._on_raw = on_raw
        self._splitters = {Stream.STDOUT: LineSplitter(), Stream.STDERR: LineSplitter()}
        self._lossless = bool(getattr(filt, "lossless", False))
        self._feed_block = getattr(filt, "feed_block", None)  # optional: whole lines as bytes
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        self._recent_out: deque[str] = deque(maxlen=2 * TAIL_LINES)  # what the raw tail need not repeat
        self._raw_lines = 0
        self._emitted = 0
        self.filter_error: str | None = None
        # a line too long to filter ended filtering: "raw" (all printed raw) or "ended" (see _pass_long)
        self._through: str | None = None
        self._holding = True
        # the hold's clock starts with the first line: a command slow to start (pytest importing a
        # conftest for 2 s on a loaded machine) still prints a short output at once, so it is held
        # and the smaller of raw and filtered is printed (issue 34: +35 bytes when it started at launch)
        self._hold_seconds = hold_seconds
        self._hold_deadline: float | None = None
        self._held_raw: list[Line] = []
        self._held_out: list[Line] = []
        self._open_raw_end = -1  # len(_held_raw) when its last line ended the output without a newline
        self.raw_bytes = 0

    def feed(self, chunk: bytes, stream: Stream) -> None:
        self.raw_bytes += len(chunk)
        if self._spool is not None:
            self._spool.write(chunk)
        if self._on_raw is not None:
            self._on_raw(chunk)
        if self._memory is not None:
            self._memory.raw(chunk)
        splitter = self._splitters[stream]
        if len(chunk) + 1 < splitter.room and not splitter.passing:  # the common case: no long line
            self._feed_text(chunk, stream, splitter)
            return
        for raw, data in splitter.parts(chunk):
            if raw:
                self._pass_long(data, stream)
            else:
                self._feed_text(data, stream, splitter)

    def _pass_long(self, data: bytes, stream: Stream) -> None:
        """A piece of a line too long to filter (over the splitter's cap): printed byte-identical,
        after what came before, never held whole. Filtering ends there, so that nothing a filter
        still holds comes out after it: a short output so far is printed raw (nothing elided),
        else the filter closes early (its `finish`, as for a run that exits 0) and the rest of the
        output passes through as after a filter crash, without the crash."""
        self._stop_filtering()
        self.writer.write_bytes(data, stream)
        ends_open = getattr(self.writer, "ends_open", None)  # (a host budget's writer holds lines instead)
        if ends_open is not None:
            ends_open(stream, not data.endswith(b"\n"))
        if data.endswith(b"\n"):
            self._raw_lines += 1
            self._emitted += 1

    def _stop_filtering(self) -> None:
        if self._through is not None or self.filter_error is not None:
            return
        if self._holding:
            held, self._held_raw, self._held_out = self._held_raw, [], []
            self._holding, self._through = False, "raw"
            self._emitted = self._raw_lines
            self.writer.write(held)
            return
        closing = self._closing(0)
        self._through = "ended"
        self._emit(closing)

    def _feed_text(self, chunk: bytes, stream: Stream, splitter: LineSplitter) -> None:
        if self._feed_block is None or self._holding or self.filter_error is not None or self._through:
            self._process(splitter.feed(chunk), stream)
            return
        body = splitter.take(chunk)
        if body and not self._fed_as_block(body, stream):
            self._process(splitter.lines_of(body), stream)
        self._process(splitter.overflow(), stream)

    def _fed_as_block(self, body: bytes, stream: Stream) -> bool:
        """The filter's byte path (see GenericFilter.feed_block): True when it took the block."""
        try:
            printed = self._feed_block(body, stream)  # type: ignore[misc]
        except Exception:  # noqa: BLE001 - the line path then decides, and reports a crash
            return False
        if printed is None:
            return False
        if not self._lossless:  # the counts and the tail serve the raw-tail rule, which a lossless filter skips
            self._raw_lines += body.count(b"\n")
            self._emitted += printed.count(b"\n")
            self._tail.extend(map(_tail_text, _last_lines(body, TAIL_LINES)))
        if printed:
            self.writer.write_bytes(printed, stream)
        return True

    def end_of_stream(self, stream: Stream) -> None:
        self._process(self._splitters[stream].flush(), stream, unterminated=True)

    def _process(self, lines: list[str], stream: Stream, unterminated: bool = False) -> None:
        if not lines:
            return
        self._raw_lines += len(lines)
        if not self._lossless:
            self._tail.extend(map(_tail_text, lines[-TAIL_LINES:]))
        if self._holding:
            self._held_raw.extend(Line(text, stream) for text in lines)
            if unterminated:
                self._open_raw_end = len(self._held_raw)
        out: list[Line] = []
        feed = self.filter.feed
        for line in lines:
            if self.filter_error is not None or self._through:
                out.append(Line(line, stream))
                continue
            try:
                out.extend(feed(line, stream))
            except Exception as exc:  # noqa: BLE001 - a filter bug must never cost output
                out.extend(self._crashed(exc))
                out.append(Line(line, stream))
        self._emit(out, open_end=unterminated and out == [Line(lines[-1], stream)])
        if self._holding and (self._raw_lines >= HOLD_LINES or self.raw_bytes >= HOLD_BYTES
                              or self._deadline_passed()):
            self.release_hold()

    def _deadline_passed(self) -> bool:
        if self._hold_seconds is None:
            return False
        now = time.monotonic()
        if self._hold_deadline is None:  # the first lines just arrived
            self._hold_deadline = now + self._hold_seconds
        return now >= self._hold_deadline

    def release_hold(self) -> None:
        """Stop holding back: the output is long (or slow), so stream from now on."""
        if self._holding:
            self._holding = False
            held, self._held_out, self._held_raw = self._held_out, [], []
            self.writer.write(held)

    def _emit(self, lines: list[Line], open_end: bool = False) -> None:
        if not lines:
            return
        self._emitted += len(lines)
        if not self._lossless:
            self._recent_out.extend(_tail_text(text) for text, _ in lines[-2 * TAIL_LINES:])
        if self._holding:
            self._held_out.extend(lines)
        else:
            self.writer.write(lines, open_end)

    def _crashed(self, exc: BaseException) -> list[Line]:
        self.filter_error = f"{self.filter_name}: {type(exc).__name__}: {exc}"
        return [Line(f"[rtk: the {self.filter_name} filter failed ({type(exc).__name__}: {exc}); "
                     "raw output follows]", Stream.STDERR)]

    def finish(self, exit_code: int) -> Outcome:
        for stream in (Stream.STDOUT, Stream.STDERR):
            self.end_of_stream(stream)
        closing = self._closing(exit_code)
        elided = self._through != "raw" and (
            self.filter_error is not None or bool(getattr(self.filter, "elided", False)))
        if self._failure_unexplained(exit_code):
            closing = self._raw_tail(exit_code)
            elided = True
        elif self._summary_only_adds(closing, elided):
            closing = []  # every line is on the screen already: a summary would only add tokens
        named = elided or self.bytes_replaced  # a hint names the id: only then is the output hashed
        spool_id = self._spool.recall_id if self._spool is not None and named else None
        if self._holding and not _clearly_smaller(self._held_out + closing + self._hints(elided, spool_id),
                                                  self._held_raw):
            self.writer.write(self._held_raw, open_end=self._open_raw_end == len(self._held_raw))
            # raw is no larger: nothing elided, nothing to recall
            self._holding, closing, elided = False, [], False
            if self._memory is not None:
                self._memory.raw_printed = True
        wanted = spool_id if elided or self.bytes_replaced else None
        if wanted is None and self._spool is not None and self._over_budget(closing, exit_code):
            wanted = self._spool.recall_id  # the host's limit will fold it: keep it for recall
        lazy = self._memory is not None and wanted is None and self._spool is not None  # memory may name it
        recall_id = None if lazy else self._store(wanted, exit_code)
        self.release_hold()
        getattr(self.writer, "summary_starts", lambda: None)()  # what follows: a failure window's summary
        self.writer.write(closing + self._hints(elided, recall_id))
        recall_id = self._close_budget(recall_id, exit_code, lazy)
        return Outcome(recall_id, self.filter_error, self.raw_bytes, self.writer.printed_bytes)

    def _over_budget(self, closing: list[Line], exit_code: int) -> bool:
        """Under a host's char limit (Claude Code), what is held and the closing lines exceed it."""
        fits_with = getattr(self.writer, "fits_with", None)
        return fits_with is not None and not fits_with(closing, exit_code)

    def _close_budget(self, recall_id: str | None, exit_code: int = 0, lazy: bool = False) -> str | None:
        """Under a host's char limit: write what was held, folded when over it (kept for recall);
        session memory may replace it (`lazy`: the spool is kept only if a line names its id)."""
        close, spool = getattr(self.writer, "close", None), self._spool
        if close is None:
            return recall_id
        keep = (lambda wanted: self._store(spool.recall_id if wanted else None, exit_code)) if lazy and spool else None
        return close(recall_id, exit_code, keep) or recall_id  # type: ignore[no-any-return]

    def _summary_only_adds(self, closing: list[Line], elided: bool) -> bool:
        """Streamed output the filter dropped nothing from, whose closing lines would make it larger."""
        return (bool(closing) and not self._holding and not elided and self._emitted >= self._raw_lines
                and self.writer.printed_bytes + _size(closing) > self.raw_bytes)

    @property
    def bytes_replaced(self) -> bool:
        """Some of the output was not valid UTF-8 and was printed with U+FFFD in its place."""
        return any(splitter.replaced for splitter in self._splitters.values())

    def _hints(self, elided: bool, recall_id: str | None) -> list[Line]:
        """The recall hint, or the one marker saying bytes were replaced (it names the id too)."""
        if self.bytes_replaced:
            where = f"rtk recall {recall_id}" if recall_id else (
                "not kept" if self._spool is not None else "not kept (recall is off)")
            return [Line(f"[rtk: invalid UTF-8 in the output is shown as U+FFFD; exact bytes: {where}]",
                         Stream.STDOUT)]
        return [Line(recall_hint(recall_id), Stream.STDOUT)] if elided and recall_id else []

    def _closing(self, exit_code: int) -> list[Line]:
        if self.filter_error is not None or self._through is not None:
            return []
        try:
            return list(self.filter.finish(exit_code))
        except Exception as exc:  # noqa: BLE001
            return self._crashed(exc)

    def _failure_unexplained(self, exit_code: int) -> bool:
        return (exit_code != 0 and not self._lossless and self.filter_error is None and self._through is None
                and not getattr(self.filter, "failure_seen", False) and self._emitted < self._raw_lines)

    def _raw_tail(self, exit_code: int) -> list[Line]:
        """The last raw lines, less those already printed, cut so the output stays below the raw."""
        shown = {strip_ansi(text).rstrip() for text in self._recent_out}
        recent = [text for text in (strip_ansi(t).rstrip() for t in self._tail) if text]
        tail = [text for text in recent if text not in shown]
        if not self._holding:  # printed already: the tail may only use what the filter saved
            tail = self._fit(tail)
        if not tail:
            return []  # the end of the output is on the screen already, or there is no room
        header = f"[rtk: exit code {exit_code}; last {len(tail)} lines of raw output"
        left_out = len(recent) - len(tail)
        header += f" ({left_out} already shown or cut):]" if left_out else ":]"
        return [Line(header, Stream.STDOUT), *(Line(text, Stream.STDOUT) for text in tail)]

    def _fit(self, tail: list[str]) -> list[str]:
        """The last lines of `tail` that fit in what the filter saved.

        The tail lines were dropped, so printing them again costs what they cost in the raw; the
        header and the hint must be paid for by what stays dropped. That is known in bytes only,
        and may be dense (rulers, padding): it is counted as one token per SAVED_BYTES_PER_TOKEN."""
        hint = [Line(recall_hint(self._spool.recall_id))] if self._spool is not None else []
        extra_bytes = TAIL_HEADER_BYTES + _size(hint)
        extra_tokens = TAIL_HEADER_TOKENS + estimate_tokens(hint)
        left = self.raw_bytes - self.writer.printed_bytes  # what stays dropped
        kept: list[str] = []
        for text in reversed(tail):
            left -= len(text.encode("utf-8", "replace")) + 1
            if left < extra_bytes or left // SAVED_BYTES_PER_TOKEN < extra_tokens:
                break
            kept.append(text)
        return kept[::-1]

    def _command_line(self) -> str:
        """The command as a shell line, credentials redacted, for the recall entry (argv is quoted
        only for a kept run: most runs keep nothing and never load the quoting module)."""
        from rtk import redact

        if isinstance(self._command, str):
            return redact.command_text(self._command)
        from rtk.shell.quote import join_words

        return join_words(redact.argv(self._command))

    def _store(self, recall_id: str | None, exit_code: int) -> str | None:
        """Keep the raw output when a hint will name it; the id, or None when it could not be
        kept (a full disk: one `rtk:` line, and no hint naming an entry that does not exist)."""
        if self._spool is None:
            return None
        if not recall_id:
            try:
                self._spool.discard()
            except OSError:
                pass
            return None
        kept = self._spool.keep(self._command_line(), exit_code)
        if kept is None:
            self.writer.write([Line(f"rtk: the raw output was not kept ({self._spool.problem}); "
                                    "nothing to recall", Stream.STDERR)])
        return kept


def _last_lines(body: bytes, count: int) -> list[str]:
    """The last `count` lines of a block of whole lines, decoded."""
    end = start = len(body) - 1
    for _ in range(count):
        start = body.rfind(b"\n", 0, start)
        if start < 0:
            break
    return body[start + 1:end].decode("utf-8", "replace").split("\n")


def _tail_text(text: str) -> str:
    if len(text) <= TAIL_LINE_CHARS:
        return text
    return f"{text[:TAIL_LINE_CHARS]} [rtk: {len(text) - TAIL_LINE_CHARS:,} more characters]"


def _size(lines: list[Line]) -> int:
    return sum(len(text) + 1 for text, _ in lines)


def estimate_tokens(lines: list[Line]) -> int:
    """A cheap stand-in for a BPE token count (cl100k), for comparing two renderings of one output."""
    return sum(pieces(text) + 1 for text, _ in lines)


def _clearly_smaller(filtered: list[Line], raw: list[Line]) -> bool:
    """Print the filtered form only when it is smaller in bytes and clearly smaller in estimated
    tokens: the estimate is off by a few tokens either way, so a near tie goes to raw (on the
    fixture corpus this gives up 18 tokens in all and is never larger in real cl100k tokens)."""
    raw_tokens = estimate_tokens(raw)
    margin = TOKEN_MARGIN + raw_tokens // 100
    return _size(filtered) < _size(raw) and estimate_tokens(filtered) + margin <= raw_tokens


def build_pipeline(argv: Sequence[str], filter_name: str, cfg: config.Config, writer: Writer,
                   on_raw: object = None, hold_seconds: float | None = HOLD_SECONDS,
                   char_limit: int | None = None, failing_limit: int | None = None, maps: bool = False,
                   memory: Memory | None = None) -> OutputPipeline | PassthroughPipeline:
    """`char_limit`: the host cuts outputs longer than this (budget.host_limit); filters that can
    fit themselves to it (a file read) read it as the `output_max_chars` limit. `failing_limit`:
    the tighter cut of a failing command's output (budget.failing_limit, the run path only).
    `maps`: past `char_limit` the host shows a preview (Claude Code): a reader's output may be a map.
    `memory`: the context's session memory (rtk.session), used only under such a host (it holds the output)."""
    if filter_name == "passthrough":
        return PassthroughPipeline(writer, on_raw)  # type: ignore[arg-type]
    limits = cfg.limits if char_limit is None else {**cfg.limits, "output_max_chars": char_limit}
    ctx = FilterContext(tuple(argv), cfg.recall_enabled, limits)
    spool, filt = _open_spool(cfg), filters.load(filter_name, ctx)
    if maps and char_limit is not None:  # rtk.filters.readmap
        from rtk.filters.readmap import mapped

        filt = mapped(filt, argv, filter_name)
    return OutputPipeline(filt, writer, spool, filter_name=filter_name,
                          command=tuple(argv), on_raw=on_raw,  # type: ignore[arg-type]
                          hold_seconds=hold_seconds, char_limit=char_limit, failing_limit=failing_limit,
                          memory=memory)


def _open_spool(cfg: config.Config) -> recall.RawSpool | None:
    if not cfg.recall_enabled:
        return None
    try:
        return recall.RawSpool(paths.recall_dir_path(), int(cfg.get("recall", "max_bytes_per_entry")),
                               int(cfg.get("recall", "max_entries")), int(cfg.get("recall", "retention_days")),
                               int(cfg.get("recall", "max_total_bytes") or recall.DEFAULT_MAX_TOTAL))
    except OSError as exc:
        if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):  # a read-only sandbox: say nothing
            print(f"rtk: recall store unavailable ({exc}); output is not kept", file=sys.stderr)
        return None
