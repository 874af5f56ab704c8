"""The ls filter proper: section by section (one per directory listed), entry by entry."""
from __future__ import annotations

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.ls.entry import parse_long
from rtk.filters.ls.options import LsOptions
from rtk.filters.ls.section import Section

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

NOTHING: tuple[Line, ...] = ()


class PassFilter(BaseFilter):
    """An invocation whose layout we do not parse: every line exactly as ls printed it."""

    lossless = True


class LsFilter(BaseFilter):
    def __init__(self, ctx: FilterContext, options: LsOptions) -> None:
        super().__init__(ctx)
        self.options = options
        self.sections = options.operands > 1 or "R" in options.flags or "--recursive" in options.flags
        self.after_blank = True
        self.section = self._new_section()
        self.header: str | None = None  # the directory (`src/flask:`) whose entries are being read

    def _new_section(self) -> Section:
        return Section(self.ctx.limit("ls_max_entries", 400), self.ctx.limit("ls_tail_entries", 60),
                       self.options.keep_order, "dirs: " if self.options.long else "")

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        after_blank, self.after_blank = self.after_blank, not text.strip()
        if stream == Stream.STDERR or text.startswith("ls: "):
            self.failure_seen = True
            return [*self._close(), Line(line, stream)]
        if not text.strip() or text.startswith("total "):
            return NOTHING
        if self.sections and after_blank and text.endswith(":"):
            out = self._close()
            self.header = text
            return out
        entry = parse_long(text)
        if entry is None:
            self.section.add(True, text)
            return NOTHING
        self.elided = True  # modes, owners and times (some of them) left out: the recall hint says so
        if entry.name not in (".", ".."):
            grouped = entry.kind == "d" and not self.options.keep_order  # on the `dirs:` line
            self.section.add(grouped, entry.name if grouped else entry.render())
        return NOTHING

    def _close(self) -> list[Line]:
        section, self.section = self.section, self._new_section()
        self.elided |= section.hidden > 0
        header, self.header = self.header, None
        return [Line(text) for text in under(header, section.render(), self.options.keep_order or self.options.long)]

    def finish(self, exit_code: int) -> Iterable[Line]:
        return self._close()


def under(header: str | None, lines: list[str], one_per_line: bool) -> list[str]:
    """A directory's lines under its header: names on the header's own line (`src/flask: app.py
    cli.py ...`), what does not fit indented below it, so every name reads under its directory."""
    if header is None:
        return lines
    if not lines:
        return [header]
    if one_per_line or lines[0].startswith("... "):
        return [header, *(" " + line for line in lines)]
    return [f"{header} {lines[0]}", *(" " + line for line in lines[1:])]


def create(ctx: FilterContext) -> BaseFilter:
    options = LsOptions(ctx.argv)
    if not options.understood:
        return PassFilter(ctx)
    return LsFilter(ctx, options)
