"""The writer prints kept lines plain, or with their colours (only) on a colour terminal."""
from __future__ import annotations

from rtk.filters.base import Line, Stream
from rtk.run.writer import Writer, keep_colours


def printed(colour: frozenset[int], lines: list[Line]) -> bytes:
    chunks: list[bytes] = []
    writer = Writer(chunks.append, colour)
    writer.broken = {1, 2}  # collect only
    writer.write(lines)
    return b"".join(chunks)


def test_plain_by_default() -> None:
    lines = [Line("\x1b[31mred\x1b[0m", Stream.STDOUT), Line("\x1b]0;title\x07x", Stream.STDERR)]
    assert printed(frozenset(), lines) == b"red\nx\n"


def test_colours_kept_on_a_colour_terminal_other_escapes_dropped() -> None:
    line = Line("\x1b[2K\x1b[1;31merror\x1b[0m: bad\x1b[1A", Stream.STDOUT)
    assert printed(frozenset({1}), [line, Line("plain")]) == b"\x1b[1;31merror\x1b[0m: bad\x1b[0m\nplain\n"
    assert printed(frozenset({2}), [line]) == b"error: bad\n"


def test_keep_colours_resets_each_coloured_line() -> None:
    assert keep_colours("\x1b[32mok\n\x1b[33mwarn\nplain\n") == "\x1b[32mok\x1b[0m\n\x1b[33mwarn\x1b[0m\nplain\n"


def test_before_write_runs_before_each_real_write() -> None:
    calls: list[str] = []
    writer = Writer()
    writer.broken = {1}
    writer.before_write = lambda: calls.append("erase")
    writer.write([Line("x")])
    assert calls == []  # nothing reaches a terminal that is gone
