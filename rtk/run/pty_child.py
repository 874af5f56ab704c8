"""Spawning the child: on pipes, or on pseudo-terminals when a person is watching.

When rtk's stdout is a terminal the child writes to a pseudo-terminal instead of a pipe, so tools
keep their colours and terminal behaviour. stdout and stderr each get their own pty (stderr only
when rtk's stderr is a terminal too, else a pipe): one shared pty would merge the two streams,
and filters rely on knowing which stream a line came from (cargo's diagnostics live on stderr).

Decisions, each one a trade-off:
- The child stays in rtk's session, with rtk's stdin, but leads its own process group (jobs.py:
  signals reach the whole command, and at a terminal its group is the foreground, so
  `/dev/tty` prompts, Ctrl-C and Ctrl-Z work as without rtk). The ptys are only its output (no
  new session, unlike pexpect's ptyprocess) and nobody's controlling terminal, so a resize is
  passed on by hand: rtk resizes them, then signals the child's group SIGWINCH.
- The ptys get rtk's window size, and no output post-processing (ONLCR off), so the bytes rtk
  reads, spools for recall and counts are the bytes the child wrote, as on a pipe.
- A filtered child gets `PAGER=cat` and `GIT_PAGER=cat`: a pager cannot work behind a filter
  (it would wait for keys while its screen is held back). `rtk proxy` leaves the environment alone.

Standard library only: this runs before trio is imported.
"""
from __future__ import annotations

import fcntl
import os
import subprocess
import termios
from collections.abc import Iterable, Mapping

from rtk.run.jobs import ChildGroup

STDOUT, STDERR = 1, 2
NO_PAGER = {"PAGER": "cat", "GIT_PAGER": "cat"}


class Spawned:
    """The running child and the descriptors rtk reads it from (by the child's fd: 1, 2).

    A plain class, not a dataclass: this module loads before the child starts, and `dataclasses`
    costs ~5 ms to import."""

    __slots__ = ("child", "fds", "group", "ptys")

    def __init__(self, child: subprocess.Popen[bytes], fds: dict[int, int],
                 ptys: dict[int, int] | None = None) -> None:
        self.child = child
        self.fds = fds
        self.ptys = {} if ptys is None else ptys  # the subset of fds that are pty masters
        self.group = ChildGroup(child.pid)  # the child leads it: its id is the child's pid

    def terminal_size(self) -> bytes | None:
        """The size of rtk's own terminal (stdout), as the raw `struct winsize`."""
        return window_size(STDOUT)

    def sync_window_size(self, source_fd: int) -> None:
        """Copy the size of rtk's terminal to the child's ptys (at start and on SIGWINCH)."""
        size = window_size(source_fd)
        if size is not None:
            for master in self.ptys.values():
                _set_window_size(master, size)


def spawn(argv: list[str], pty_streams: Iterable[int] = (), *, no_pager: bool = False,
          size_from: int = STDOUT) -> Spawned:
    """Start argv with its stdout/stderr on ptys (those in pty_streams) or pipes."""
    wanted = sorted(set(pty_streams))
    size = window_size(size_from)
    pairs = {fd: open_pty(size) for fd in wanted}
    env = _child_env(no_pager) if pairs else None
    try:
        child = subprocess.Popen(argv, env=env, stdout=_target(pairs, STDOUT),
                                 stderr=_target(pairs, STDERR), process_group=0)
    except BaseException:
        for master, _ in pairs.values():
            os.close(master)
        raise
    finally:
        for _, slave in pairs.values():
            os.close(slave)  # the child holds its copies; EOF (EIO) comes once they are closed
    fds = {fd: master for fd, (master, _) in pairs.items()}
    for fd, pipe in ((STDOUT, child.stdout), (STDERR, child.stderr)):
        if pipe is not None:
            fds[fd] = _take_fd(pipe)
    return Spawned(child, fds, {fd: fds[fd] for fd in pairs})


def open_pty(size: bytes | None) -> tuple[int, int]:
    """A (master, slave) pair with the given window size and no `\\n` -> `\\r\\n` translation."""
    master, slave = os.openpty()
    try:
        attrs = termios.tcgetattr(slave)
        attrs[1] &= ~termios.ONLCR
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        if size is not None:
            _set_window_size(slave, size)
    except BaseException:
        os.close(master)
        os.close(slave)
        raise
    return master, slave


def window_size(fd: int) -> bytes | None:
    """The raw `struct winsize` of the terminal on fd, or None when fd is no terminal."""
    try:
        return fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8)
    except OSError:
        return None


def _set_window_size(fd: int, size: bytes) -> None:
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, size)
    except OSError:
        pass  # a pty that already went away has no size to keep


def _target(pairs: Mapping[int, tuple[int, int]], fd: int) -> int:
    """The child's end for fd: the pty slave, or a new pipe."""
    return pairs[fd][1] if fd in pairs else subprocess.PIPE


def _child_env(no_pager: bool) -> dict[str, str] | None:
    return {**os.environ, **NO_PAGER} if no_pager else None


def _take_fd(pipe: object) -> int:
    """Detach a Popen pipe's descriptor so the reader owns (and closes) it."""
    fd = os.dup(pipe.fileno())  # type: ignore[attr-defined]
    pipe.close()  # type: ignore[attr-defined]
    return fd
