"""The content filter: exact under the budget; over it, numbered start and end plus a command."""
from __future__ import annotations

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, deque
from rtk.filters.content.origin import Origin, SedRange, understood

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from rtk.filters.content.outline import Outline

MAX_SHOWN_LINE = 2000  # a minified line in the shown part is cut here, with a count
MAX_LINES, MAX_BYTES = 2000, 100 * 1024  # printed whole up to both (the package docstring says why)
OUTLINE_CHARS = 10_000  # the outline of a left-out middle, at most (~2,500 tokens)
HOST_RESERVE = 1_500  # under a host's char limit: room for stderr lines and the hint
HOST_HEAD, HOST_TAIL, HOST_OUTLINE = 0.40, 0.20, 0.30  # the host's limit shared when eliding
NOTHING: tuple[Line, ...] = ()


class PassFilter(BaseFilter):
    lossless = True


class ContentFilter(BaseFilter):
    lossless = True  # a file's text is content, never noise: no raw tail on failure either

    def __init__(self, ctx: FilterContext, sed: SedRange | None = None) -> None:
        super().__init__(ctx)
        self.origin = Origin(ctx.argv, sed)
        host = ctx.limit("output_max_chars", 0) or None  # the host cuts past this (Claude Code)
        self.max_lines = ctx.limit("content_max_lines", MAX_LINES)
        self.max_bytes = ctx.limit("content_max_bytes", MAX_BYTES)
        if host:
            self.max_bytes = min(self.max_bytes, host - HOST_RESERVE)
        self.head_size = min(ctx.limit("content_head_lines", 200), self.max_lines)
        self.head_room = int(host * HOST_HEAD) if host else MAX_BYTES
        self.tail_room = int(host * HOST_TAIL) if host else MAX_BYTES
        self.outline_room = int(host * HOST_OUTLINE) if host else OUTLINE_CHARS
        self.tail: deque[str] = deque(maxlen=min(ctx.limit("content_tail_lines", 100), self.max_lines))
        self.held: list[Line] | None = []
        self.held_bytes = 0
        self.count = 0
        self.head_shown = 0  # lines of the head printed (line count and chars both bound it)
        self.head_chars = 0
        self.outline: Outline | None = None

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if stream == Stream.STDERR:
            self.failure_seen = True
            return (Line(line, stream),)
        self.count += 1
        if self.held is not None:
            self.held.append(Line(line, stream))
            self.held_bytes += len(line) + 1
            if self.count > self.max_lines or self.held_bytes > self.max_bytes:
                return self._start_eliding()
            return NOTHING
        if self.outline is not None:
            self.outline.see(self.origin.start + self.count - 1, line)
        if self.head_shown == self.count - 1 and self._head_has_room(line):
            return (Line(self._numbered(self.count, line)),)
        self.tail.append(line)
        return NOTHING

    def _head_has_room(self, line: str) -> bool:
        size = min(len(line), MAX_SHOWN_LINE + 80) + 8
        if self.head_shown >= self.head_size or self.head_chars + size > self.head_room:
            return False
        self.head_shown += 1
        self.head_chars += size
        return True

    def _start_eliding(self) -> list[Line]:
        held, self.held = self.held or [], None
        self.elided = True
        from rtk.filters.content.outline import Outline  # `re`: only once a file is long

        self.outline = Outline(self.origin.name)
        out = []
        for n, (text, _) in enumerate(held, 1):
            self.outline.see(self.origin.start + n - 1, text)
            if self.head_shown == n - 1 and self._head_has_room(text):
                out.append(Line(self._numbered(n, text)))
            else:
                self.tail.append(text)
        return out

    def _numbered(self, count: int, text: str) -> str:
        number = self.origin.start + count - 1
        if len(text) > MAX_SHOWN_LINE:
            rest = self.origin.command_for(number, number)
            text = f"{text[:MAX_SHOWN_LINE]} [+{len(text) - MAX_SHOWN_LINE:,} chars; the whole line: {rest}]"
        return text if self.origin.numbered else f"{number}\t{text}"

    def finish(self, exit_code: int) -> Iterable[Line]:
        if self.held is not None:
            return self.held
        tail = list(self.tail)
        while len(tail) > 1 and sum(min(len(t), MAX_SHOWN_LINE + 80) + 8 for t in tail) > self.tail_room:
            tail.pop(0)
        first_tail = self.count - len(tail) + 1
        first, last = self.head_shown + 1, first_tail - 1
        out = []
        if last >= first:
            shown_first, shown_last = (self.origin.start + n - 1 for n in (first, last))
            out.append(Line(f"... lines {shown_first}-{shown_last} not shown ({last - first + 1:,} lines); "
                            f"print them with: {self.origin.command_for(shown_first, shown_last)}"))
            if self.outline is not None:
                out.extend(Line(text) for text in self.outline.render(shown_first, shown_last, self.outline_room))
        out.extend(Line(self._numbered(n, text)) for n, text in enumerate(tail, first_tail))
        return out


def create(ctx: FilterContext, sed: SedRange | None = None) -> BaseFilter:
    """`sed`: what the package's `sed_print_range` read from a sed command line (None otherwise)."""
    return ContentFilter(ctx, sed) if understood(ctx.argv, sed) else PassFilter(ctx)
