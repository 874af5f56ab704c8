"""The content filter: exact under the budget; over it, numbered start and end plus a command."""
from __future__ import annotations

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, deque
from rtk.filters.content.origin import Origin, SedRange, understood

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

MAX_SHOWN_LINE = 2000  # a minified line in the shown part is cut here, with a count
NOTHING: tuple[Line, ...] = ()


class PassFilter(BaseFilter):
    lossless = True


class ContentFilter(BaseFilter):
    lossless = True  # a file's text is content, never noise: no raw tail on failure either

    def __init__(self, ctx: FilterContext, sed: SedRange | None = None) -> None:
        super().__init__(ctx)
        self.origin = Origin(ctx.argv, sed)
        self.max_lines = ctx.limit("content_max_lines", 2000)
        self.max_bytes = ctx.limit("content_max_bytes", 256 * 1024)
        self.head_size = min(ctx.limit("content_head_lines", 200), self.max_lines)
        self.tail: deque[str] = deque(maxlen=min(ctx.limit("content_tail_lines", 100), self.max_lines))
        self.held: list[Line] | None = []
        self.held_bytes = 0
        self.count = 0

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
        if self.count <= self.head_size:
            return (Line(self._numbered(self.count, line)),)
        self.tail.append(line)
        return NOTHING

    def _start_eliding(self) -> list[Line]:
        held, self.held = self.held or [], None
        self.elided = True
        out = [Line(self._numbered(n, text)) for n, (text, _) in enumerate(held[:self.head_size], 1)]
        self.tail.extend(text for text, _ in held[self.head_size:])
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
        first_tail = self.count - len(self.tail) + 1
        first, last = self.head_size + 1, first_tail - 1
        out = []
        if last >= first:
            shown_first, shown_last = (self.origin.start + n - 1 for n in (first, last))
            out.append(Line(f"... lines {shown_first}-{shown_last} not shown ({last - first + 1:,} lines); "
                            f"print them with: {self.origin.command_for(shown_first, shown_last)}"))
        out.extend(Line(self._numbered(n, text)) for n, text in enumerate(self.tail, first_tail))
        return out


def create(ctx: FilterContext, sed: SedRange | None = None) -> BaseFilter:
    """`sed`: what the package's `sed_print_range` read from a sed command line (None otherwise)."""
    return ContentFilter(ctx, sed) if understood(ctx.argv, sed) else PassFilter(ctx)
