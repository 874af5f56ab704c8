"""The declarative filter: a `Filter` (rtk.filters.base) driven by a `FilterDef`.

Streams like the Python filters. It holds output only when the file asks for a decision that
needs all of it (`match_output`, or `on_failure` rules chosen by the exit code), and then at most
`HOLD_LINES` lines / `HOLD_BYTES` bytes: past that it commits to the rules that keep the most
(`on_failure`'s when present, since they are written for the case that needs more) and streams.
Lines on stderr pass through untouched unless the filter sets `filter_stderr`, as upstream.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi

from .definition import FilterDef
from .fastfeed import BlockFeed, LineFeed, block_feed, line_feed, short_block_feed
from .pattern import LINE_CAP
from .pipeline import RulePipeline
from .rules import Rules

_STDOUT, _STDERR = Stream.STDOUT, Stream.STDERR
_new = tuple.__new__
HOLD_LINES = 5000
HOLD_BYTES = 1 << 20
FAST_AFTER = 200  # lines on the plain path before the line function is generated
BLOCK_CAP = 1 << 20  # the splitter cuts longer lines into pieces: such a block takes the line path


def _line(item: tuple[str, Stream]) -> Line:
    return _new(Line, item)  # what Line(text, stream) builds, without NamedTuple's slower path


def without_elision(rules: Rules) -> Rules:
    """With recall off nothing may be elided: keep the noise rules, drop every cut."""
    from dataclasses import replace

    group = rules.group
    if group is not None:
        group = replace(group, max_items=1 << 30)
    kept = replace(rules, head=None, tail=None, max_lines=None, truncate_at=None,
                   match_output=(), collapse=() if rules.collapse is not None else None, group=group)
    if any(counter.elides for counter in rules.counters.values()):
        # its line rules leave content out (counted by an `elides` counter): none of them runs
        counters = {name: replace(counter, elides=False) for name, counter in rules.counters.items()}
        kept = replace(kept, replace=(), strip=None, keep_only=None, counters=counters)
    return kept


class DeclarativeFilter(BaseFilter):
    """`reference=True` runs every rule as written (the plain path the fast one must equal)."""

    def __init__(self, spec: FilterDef, ctx: FilterContext | None = None, *, reference: bool = False) -> None:
        super().__init__(ctx)
        self.spec = spec
        self.reference = reference
        self.primary = spec.rules
        self.failure = spec.failure
        if not self.ctx.recall_enabled:
            self.primary = without_elision(self.primary)
            self.failure = without_elision(self.failure) if self.failure is not None else None
        self.holding = self.primary.holds or self.failure is not None
        self.held: list[str] = []
        self.held_bytes = 0
        self.active: RulePipeline | None = None
        self._line_feed: LineFeed = self._hold
        self._block: BlockFeed | None = None
        self._short_block: tuple[BlockFeed, int] | None = None
        self._plain_lines = 0  # lines left on the plain path before the generated one
        self._elided = False
        if not self.holding:
            self._start(self.primary)

    @property
    def elided(self) -> bool:  # type: ignore[override]
        return self._elided or (self.active is not None and self.active.elided)

    @elided.setter
    def elided(self, value: bool) -> None:
        self._elided = value

    def _start(self, rules: Rules) -> RulePipeline:
        """Stream from now on: the plain path for the first `FAST_AFTER` lines (a short output
        never pays for generating code), then `feed` becomes the generated line function itself
        (one call per line); both work on the same pipeline state."""
        self.active = pipeline = RulePipeline(rules)
        self._block = self._short_block = None
        self._plain_lines = 0 if self.reference else FAST_AFTER
        self._line_feed = self._plain_feed
        if not self._plain_lines and not self.reference:  # the reference never takes the fast path
            self._go_fast()
        self.feed = self._line_feed  # type: ignore[method-assign,assignment]
        return pipeline

    def _go_fast(self) -> None:
        assert self.active is not None
        self._line_feed = line_feed(self.active, not self.spec.filter_stderr)
        self.feed = self._line_feed  # type: ignore[method-assign,assignment]

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        return self._line_feed(line, stream)

    def feed_block(self, body: bytes, stream: Stream) -> bytes | None:
        """Whole lines as raw bytes (each ending in `\\n`) while streaming: the bytes the line
        path would print for them, from one call of the generated block loop. None (the caller
        takes the line path) while holding, on the plain path, for `\\r` redraws, blocks past
        the line cap, and escape codes the filter itself does not strip (the writer would)."""
        if self.active is None or self.reference or len(body) > BLOCK_CAP or b"\r" in body:
            return None
        lines = body[:-1].decode("utf-8", "replace").split("\n")
        passed = stream is _STDERR and not self.spec.filter_stderr
        if b"\x1b" in body:
            if passed or not self.active.rules.strip_ansi:
                return None
            lines = [strip_ansi(line) if "\x1b" in line else line for line in lines]  # its first step
            if any("\x1b" in line for line in lines):
                return None
        texts = lines if passed else self._run_block(lines, body)
        if texts is None:
            return None
        return ("\n".join(texts) + "\n").encode("utf-8", "replace") if texts else b""

    def _run_block(self, lines: list[str], body: bytes) -> list[str] | None:
        assert self.active is not None
        if self._block is None:
            if _adds_escapes(self.active.rules):
                return None
            self._block = block_feed(self.active)
            self._short_block = short_block_feed(self.active)
        block = self._block
        if self._short_block is not None and lines_shorter_than(body, self._short_block[1]):
            block = self._short_block[0]  # no text can pass the regex window: no test of it
        try:
            return block(lines)
        except Exception as exc:  # noqa: BLE001 - the lines go to the line path, which reports it
            self._line_feed = self.feed = _raiser(exc)  # type: ignore[method-assign,assignment]
            return None

    def _plain_feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if self._plain_lines:
            self._plain_lines -= 1
            if not self._plain_lines:
                self._go_fast()
        elif not self.reference:  # a caller that kept this bound method from before the switch
            return self._line_feed(line, stream)
        if stream is _STDERR and not self.spec.filter_stderr:
            return (_line((line, stream)),)
        assert self.active is not None
        return [_line((text, stream)) for text in self.active.feed(line)]

    def _hold(self, line: str, stream: Stream) -> Iterable[Line]:
        if stream is _STDERR and not self.spec.filter_stderr:
            return (_line((line, stream)),)
        self.held.append(line)
        self.held_bytes += len(line) + 1
        if len(self.held) < HOLD_LINES and self.held_bytes < HOLD_BYTES:
            return ()
        return self._commit(self.failure or self.primary)

    def _commit(self, rules: Rules, prepared: list[str] | None = None) -> list[Line]:
        pipeline = self._start(rules)
        held, self.held = self.held, []
        if prepared is not None:
            return [Line(text) for line in prepared for text in pipeline.feed_prepared(line)]
        feed = self._line_feed
        return [line for raw in held for line in feed(raw, _STDOUT)]

    def finish(self, exit_code: int) -> Iterable[Line]:
        out: list[Line] = []
        self.failure_seen = exit_code != 0 and self.spec.handles_failure
        if self.active is None:
            use_failure = exit_code != 0 and self.failure is not None
            rules = self.failure if use_failure and self.failure is not None else self.primary
            prepared = None
            if rules.match_output:
                preparer = RulePipeline(rules)
                prepared = [preparer.prepare(raw) for raw in self.held]
                message = _output_message(rules, "\n".join(line[:LINE_CAP] for line in prepared))
                if message is not None:
                    self._elided = True
                    self.held = []
                    return [Line(message)]
            out = self._commit(rules, prepared)
        assert self.active is not None
        out += [_new(Line, (text, _STDOUT)) for text in self.active.finish()]  # Line(text), faster
        return out

    def progress(self) -> Mapping[str, int]:
        return dict(self.active.counts) if self.active is not None else {}


def lines_shorter_than(body: bytes, bound: int) -> bool:
    """Whether every line of `body` (whole lines, each ending in a newline) has fewer than
    `bound` characters, or False where that would take a closer look. A line of 2*step - 1 bytes
    or more covers a whole aligned stretch of `step` bytes, so a newline in each stretch (one
    memchr apiece) bounds every line at 2*step - 2 bytes, and a line has no more characters than
    bytes. ~10 ns a line at bound 4,096 where `max(map(len, lines))` took ~100 on the
    development machine."""
    step = bound // 2
    if step < 1:
        return False
    find = body.find
    for start in range(0, len(body), step):
        if find(b"\n", start, start + step) < 0:
            return False
    return True


def _adds_escapes(rules: Rules) -> bool:
    """A replacement that writes an escape code: the writer would strip it, the byte path not."""
    return any("\x1b" in part for _, _, parts in rules.replace for part in parts if isinstance(part, str))


def _raiser(error: Exception) -> LineFeed:
    def feed(line: str, stream: Stream) -> Iterable[Line]:
        raise error

    return feed


def _output_message(rules: Rules, blob: str) -> str | None:
    """match_output: the first rule whose pattern is in the output and whose `unless` is not."""
    for rule in rules.match_output:
        if rule.pattern.search(blob) and not (rule.unless and rule.unless.search(blob)):
            return rule.message
    return None
