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

Standard library only, and no `subprocess` (child.py): this runs before the child starts.
"""
from __future__ import annotations

import os

from rtk.run.child import Child, which
from rtk.run.child import spawn as spawn_child
from rtk.run.jobs import ChildGroup, identity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

STDOUT, STDERR = 1, 2
NO_PAGER = {"PAGER": "cat", "GIT_PAGER": "cat"}


class Spawned:
    """The running child and the descriptors rtk reads it from (by the child's fd: 1, 2).

    A plain class, not a dataclass: this module loads before the child starts, and `dataclasses`
    costs ~5 ms to import."""

    __slots__ = ("child", "fds", "group", "ptys")

    def __init__(self, child: Child, fds: dict[int, int],
                 ptys: dict[int, int] | None = None, held: frozenset[tuple[int, ...]] = frozenset()) -> None:
        self.child = child
        self.fds = fds
        self.ptys = {} if ptys is None else ptys  # the subset of fds that are pty masters
        self.group = ChildGroup(child.pid, held)  # the child leads it: its id is the child's pid

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
          size_from: int = STDOUT, executable: str | None = None) -> Spawned:
    """Start argv with its stdout/stderr on ptys (those in pty_streams) or pipes.

    `executable`: argv[0] already looked up on PATH (the runner does it to report a missing
    command in one line); else it is looked up here, as a shell would."""
    program = executable or _find(argv[0])
    wanted = set(pty_streams)
    size = window_size(size_from) if wanted else None
    pairs = {fd: open_pty(size) if fd in wanted else _pipe() for fd in (STDOUT, STDERR)}
    env = _child_env(no_pager) if wanted else None
    held = frozenset(_identities(child_end for _, child_end in pairs.values()))
    try:
        child = spawn_child(program, argv, env, {fd: child_end for fd, (_, child_end) in pairs.items()})
    except BaseException:
        for ours, _ in pairs.values():
            os.close(ours)
        raise
    finally:
        for _, child_end in pairs.values():
            os.close(child_end)  # the child holds its copies; EOF (EIO on a pty) comes once they close
    fds = {fd: ours for fd, (ours, _) in pairs.items()}
    return Spawned(child, fds, {fd: fds[fd] for fd in pairs if fd in wanted}, held)


def _identities(fds: Iterable[int]) -> Iterable[tuple[int, ...]]:
    """The child's pipes and ptys, as leftovers holding them are recognised later (jobs.py)."""
    for fd in fds:
        try:
            key = identity(os.fstat(fd))
        except OSError:
            continue
        if key is not None:
            yield key


def _pipe() -> tuple[int, int]:
    """(rtk's read end, the child's write end), both close-on-exec until the spawn dup2s one."""
    return os.pipe()


def _find(name: str) -> str:
    """argv[0] as execvp would run it: a path as given, else the first runnable one on PATH."""
    found = name if os.sep in name else which(name)
    if found is None:
        raise FileNotFoundError(2, "No such file or directory", name)
    return found


def open_pty(size: bytes | None) -> tuple[int, int]:
    """A (master, slave) pair with the given window size and no `\\n` -> `\\r\\n` translation."""
    import termios

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
    import fcntl  # fcntl and termios load only for a terminal: not on an agent's pipes
    import termios

    try:
        return fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8)
    except OSError:
        return None


def _set_window_size(fd: int, size: bytes) -> None:
    import fcntl
    import termios

    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, size)
    except OSError:
        pass  # a pty that already went away has no size to keep


def _child_env(no_pager: bool) -> dict[str, str] | None:
    return {**os.environ, **NO_PAGER} if no_pager else None

