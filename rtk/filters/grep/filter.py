"""The grep/rg filter: one file's run of lines at a time, capped, in grep's own or a grouped layout.

The default layout is grep's `path:12:text` with the indentation dropped, so every location reads
as grep printed it (`path:line:` is what people and scripts search for). `[limits] grep_grouped =
1` prints the path once per file instead, then `12: text` lines (rg's `--heading` input always
gives that layout); a file's name is then repeated every HEADER_EVERY lines.
"""
from __future__ import annotations

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, deque, plural, strip_ansi
from rtk.filters.grep.cut import cut_line, find_match
from rtk.filters.grep.lines import Hit, is_error, parse, split_number
from rtk.filters.grep.options import GrepOptions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

HEADER_EVERY = 50  # a location stays within this many lines of its file's name
NOTHING: tuple[Line, ...] = ()


class PassFilter(BaseFilter):
    lossless = True


class GrepFilter(BaseFilter):
    def __init__(self, ctx: FilterContext, options: GrepOptions) -> None:
        super().__init__(ctx)
        self.opts = options
        self.paths = options.paths and not options.heading
        self.grouped = options.heading or ctx.limit("grep_grouped", 0) == 1
        self.heading, self.numbers, self.context = options.heading, options.line_numbers, options.context
        self.max_line = ctx.limit("grep_max_line", 400)
        per_file = ctx.limit("grep_max_per_file", 60)
        self.tail_size = min(ctx.limit("grep_tail_per_file", 15), per_file // 2)
        self.head_size = per_file - self.tail_size
        self.ignore_case = "i" in options.short or "--ignore-case" in options.long
        self.current = ""
        self.files = 0
        self.matches = 0
        self.expect_header = options.heading
        self._new_file("")

    def _new_file(self, path: str) -> None:
        self.current = path
        self.count = 0
        self.since_header = 0
        self.tail: deque[tuple[str, str]] = deque()
        self.hidden = 0
        self.hidden_lines: list[str] = []
        self.first: tuple[str, str] | None = None  # (num, text) held until a second line comes

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        if stream == Stream.STDERR or is_error(text):
            self.failure_seen |= text.startswith(("grep: ", "rg: ", "egrep: ", "fgrep: ")) \
                and "binary file matches" not in text
            return (Line(line, stream),)
        if text == "--" or (self.heading and not text):
            self.expect_header |= not text
            return NOTHING
        if self.expect_header:
            self.expect_header = False
            if split_number(text) is None:
                return self._switch(text)
        hit = self._parse(text)
        if hit is None:
            return (Line(line, stream),)
        out = self._switch(hit.path) if self.paths and hit.path != self.current else []
        out.extend(self._entry(hit))
        return out

    def _parse(self, text: str) -> Hit | None:
        if self.heading:
            hit = parse(text, "", False, self.numbers)
            if hit is not None:
                hit.path = self.current
            return hit
        return parse(text, self.current, self.paths, self.numbers, self.context)

    def _switch(self, path: str) -> list[Line]:
        """A new file: its name is printed with its second line (a one-line file stays one line)."""
        out = self._close_file()
        self._new_file(path)
        self.files += 1
        return out

    def _entry(self, hit: Hit) -> list[Line]:
        self.matches += hit.is_match
        self.count += 1
        rendered = self._render(hit)
        if self.count == 1 and self.current and self.grouped:
            self.first = (f"{hit.num}{':' if hit.is_match else '-'}" if hit.num else "", rendered)
            return []
        if self.count <= self.head_size:
            return [*self._release_first(), *self._emit(rendered)]
        self.tail.append((rendered, hit.num))
        if len(self.tail) > self.tail_size:
            self.hidden += 1
            self.hidden_lines.append(self.tail.popleft()[1])
            del self.hidden_lines[1:-1]
        return []

    def _render(self, hit: Hit) -> str:
        body = hit.text.lstrip()
        if len(body) > self.max_line:
            body = cut_line(body, self.max_line, find_match(body, self.opts.pattern, self.ignore_case))
            self.elided = True
        sep = ":" if hit.is_match else "-"
        if not self.grouped:
            where = f"{hit.path}{sep}" if hit.path else ""
            return f"{where}{hit.num}{sep}{body}" if hit.num else f"{where}{body}"
        return f"{hit.num}{sep} {body}" if hit.num else (f" {body}" if hit.is_match else f"- {body}")

    def _release_first(self) -> list[Line]:
        if self.first is None:
            return []
        first, self.first = self.first[1], None
        return [Line(self.current), *self._emit(first)]

    def _emit(self, rendered: str) -> list[Line]:
        out = []
        if self.grouped and self.current and self.since_header >= HEADER_EVERY:
            out.append(Line(f"{self.current} (cont.)"))
            self.since_header = 0
        self.since_header += 1
        out.append(Line(rendered))
        return out

    def _close_file(self) -> list[Line]:
        if self.first is not None and self.count == 1:
            prefix, rendered = self.first
            self.first = None
            body = rendered.split(" ", 1)[1] if prefix else rendered.lstrip()
            return [Line(f"{self.current}:{prefix}{body}" if prefix else f"{self.current}: {body}")]
        out: list[Line] = self._release_first()
        if self.hidden:
            self.elided = True
            span = f"lines {self.hidden_lines[0]}-{self.hidden_lines[-1]}" if self.hidden_lines[0] else ""
            where = f" in {self.current}" if self.current else ""
            out.append(Line(f"... {self.hidden:,} more lines{where}" + (f" ({span})" if span else "")))
            self.since_header += 1
        for rendered, _ in self.tail:
            out.extend(self._emit(rendered))
        self.tail.clear()
        return out

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._close_file()
        if self.files > 1:
            out.append(Line(f"{plural(self.matches, 'match', 'matches')} in {plural(self.files, 'file')}"))
        return out


def create(ctx: FilterContext) -> BaseFilter:
    options = GrepOptions(ctx.argv)
    if options.rg and options.long & {"--files"} and not (options.short & {"0"} or options.long & {"--null"}):
        from rtk.filters.find.filter import FindFilter

        return FindFilter(ctx, errors=("rg: ",))  # a list of paths: grouped by directory as find's
    if options.passthrough:
        return PassFilter(ctx)
    return GrepFilter(ctx, options)
