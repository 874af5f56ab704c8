"""Most agent commands (`git status`, `git diff`) end in a few milliseconds: finish those without trio.

Importing trio costs ~100 ms, far more than such a command runs. So before importing it, rtk
reads the child with `select.poll` (not `selectors`, whose import costs more than a `git status`)
for a short budget; if the child exits and its output ends
within it, the run is complete and trio is never loaded. Otherwise whatever was read is already
in the pipeline, and the trio session carries on with the descriptors still open. A signal
that arrives meanwhile also hands over to the session, which owns forwarding and the grace kill.
"""
from __future__ import annotations

import errno
import os
import select
import sys
import time

from rtk.filters.base import Stream
from rtk.run.child import Child, ChildTimeout
from rtk.run.output import RunOutput

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

BUDGET_SECONDS = 0.05
READ_SIZE = 256 * 1024


def drain(child: Child, fds: dict[int, int], output: RunOutput,
          signals: list[int], budget: float | None = None) -> bool:
    """Read until every fd ends and the child exits (True), or the budget runs out (False).

    Descriptors that reached their end are closed and removed from `fds`.
    """
    deadline = time.monotonic() + (BUDGET_SECONDS if budget is None else budget)
    poller = _Poller(fds.values())
    while fds and not signals:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        for fd in poller.ready(remaining):
            _read_one(fd, fds, output, poller)
    if signals:
        return False
    try:
        child.wait(max(0.0, deadline - time.monotonic()))
    except ChildTimeout:
        return False  # output closed early (a daemonised grandchild kept nothing), child still runs
    return True


class _Poller:
    """poll(2) where it works on every descriptor; select(2) on macOS, whose poll ignores ptys."""

    def __init__(self, fds: Iterable[int]) -> None:
        self.fds = set(fds)
        self._poll = select.poll() if sys.platform != "darwin" else None
        for fd in self.fds if self._poll is not None else ():
            self._poll.register(fd, select.POLLIN)  # type: ignore[union-attr]

    def ready(self, timeout: float) -> list[int]:
        if self._poll is None:
            return select.select(list(self.fds), [], [], timeout)[0]
        return [fd for fd, _ in self._poll.poll(max(1, int(timeout * 1000 + 0.999)))]

    def unregister(self, fd: int) -> None:
        self.fds.discard(fd)
        if self._poll is not None:
            self._poll.unregister(fd)


def _read_one(fd: int, fds: dict[int, int], output: RunOutput, poller: _Poller) -> None:
    stream = Stream(next(s for s, f in fds.items() if f == fd))
    chunk = _read(fd)
    if chunk:
        output.feed(chunk, stream)
        if not output.reader_gone(stream):
            return
    poller.unregister(fd)
    os.close(fd)
    del fds[int(stream)]
    output.end_of_stream(stream)


def _read(fd: int) -> bytes:
    """A pty master reports the end of output as EIO, a pipe as an empty read."""
    try:
        return os.read(fd, READ_SIZE)
    except OSError as exc:
        if exc.errno == errno.EIO:
            return b""
        raise
