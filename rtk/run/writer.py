"""Where a run's kept lines go: fd 1 and 2, written at once, with a reader that went away
silenced quietly (EPIPE), and colours kept only on the terminals that asked for them."""
from __future__ import annotations

import errno
import os

from rtk.filters.base import LazyPattern, Stream, ansi_re, strip_ansi

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable

    from rtk.filters.base import Line

SGR = LazyPattern(r"\x1b\[[0-9;:]*m")  # compiled when a terminal's output first has an escape


class Writer:
    """Writes lines to fd 1 and 2 at once; a reader that went away silences that stream quietly.

    A stream whose writes fail otherwise (rtk's stdout is a file on a full disk: ENOSPC, EDQUOT,
    EIO) is silenced with one `rtk:` line on stderr, but it is not "gone": rtk goes on reading the
    child, so the child is not killed by a SIGPIPE it would never have met, and its status stands.

    Lines are written without ANSI codes (noise to an agent), except on the terminals listed in
    `colour`, where a filter's kept lines keep the child's colours. `open_end` leaves the last
    line without its newline, as the child left it; the next line on that stream adds it first.
    """

    def __init__(self, on_printed: Callable[[bytes], None] | None = None,
                 colour: Collection[int] = ()) -> None:
        self.broken: set[int] = set()  # the reader went away (EPIPE): the child may meet it too
        self.failed: set[int] = set()  # writes fail (a full disk): silenced, still drained
        self.printed_bytes = 0
        self._on_printed = on_printed
        self.colour = frozenset(colour)  # fds (terminals) where lines keep their SGR colours
        self.before_write: Callable[[], None] | None = None  # e.g. erase the status line
        self._open: set[int] = set()  # fds whose last line still lacks its newline

    def write(self, lines: Iterable[Line], open_end: bool = False) -> None:
        batch: list[str] = []
        current = Stream.STDOUT
        for text, stream in lines:
            if stream != current and batch:
                self._write(current, batch)
                batch = []
            current = stream
            batch.append(text)
        if batch:
            self._write(current, batch, open_end)

    def _write(self, stream: Stream, texts: list[str], open_end: bool = False) -> None:
        text = "\n".join(texts) + ("" if open_end else "\n")
        fd = int(stream)
        if fd in self._open:
            self._open.discard(fd)
            text = "\n" + text
        if open_end:
            self._open.add(fd)
        text = keep_colours(text) if fd in self.colour else strip_ansi(text)
        self.write_bytes(text.encode("utf-8", "replace"), stream)

    def ends_open(self, stream: Stream, is_open: bool) -> None:
        """Bytes written as they came left the stream's last line without (or with) its newline."""
        if is_open:
            self._open.add(int(stream))
        else:
            self._open.discard(int(stream))

    def write_bytes(self, data: bytes, stream: Stream) -> None:
        self.printed_bytes += len(data)
        if self._on_printed:
            self._on_printed(data)
        fd = int(stream)
        if fd in self.broken or fd in self.failed:
            return
        if self.before_write is not None:
            self.before_write()
        view = memoryview(data)
        try:
            try:
                while view:
                    view = view[os.write(fd, view):]
            except BlockingIOError:
                _write_blocking(fd, view)
        except OSError as exc:
            if exc.errno in (errno.EPIPE, errno.EBADF, errno.EINVAL):
                self.broken.add(fd)
            else:
                self._write_failed(fd, exc)

    def _write_failed(self, fd: int, exc: OSError) -> None:
        self.failed.add(fd)
        if fd != 2 and 2 not in self.failed and 2 not in self.broken:
            message = f"rtk: cannot write the output to fd {fd} ({exc.strerror or exc}); the rest is dropped\n"
            try:
                os.write(2, message.encode())
            except OSError:
                pass


def keep_colours(text: str) -> str:
    """For a terminal: keep colour (SGR) sequences, drop cursor moves and titles, reset per line."""
    if "\x1b" not in text:
        return text
    sgr = SGR.get()
    text = ansi_re().sub(lambda m: m[0] if sgr.fullmatch(m[0]) else "", text)
    return "\n".join(line + "\x1b[0m" if "\x1b[" in line else line for line in text.split("\n"))


def _write_blocking(fd: int, view: memoryview) -> None:
    os.set_blocking(fd, True)
    while view:
        view = view[os.write(fd, view):]
