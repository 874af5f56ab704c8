"""`rtk CMD ARGS...`: run exactly that argv, stream its output through a filter, exit with its code.

The child is spawned with the standard library before trio is imported, so a slow command hides
the ~200 ms trio costs to import. stdout and stderr are then read concurrently by trio tasks;
every chunk goes through the output pipeline and what the filter keeps is written at once.
Signals to rtk are forwarded to the child and rtk exits 128+N once the child is gone.

When rtk's stdout is a terminal (a person is watching, not an agent), the child writes to
pseudo-terminals instead (pty_child.py: colours and terminal behaviour kept) and a live status
line shows that the command is alive (progress.py). `--no-tty` / `RTK_NO_TTY=1` keep the pipes,
`--no-progress` / `RTK_NO_PROGRESS=1` the silence.
"""
from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from rtk import config, fast_finish, filters, progress, pty_child
from rtk.exits import COMMAND_NOT_FOUND, NOT_EXECUTABLE, SIGNAL_BASE, exit_status
from rtk.run_output import RunOutput

FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
KILL_GRACE_SECONDS = 5.0
READ_SIZE = 256 * 1024


@dataclass(frozen=True)
class Terminal:
    """What rtk does for a person at a terminal; all empty when stdout is not a terminal."""

    pty_streams: tuple[int, ...] = ()  # the child's fds that get a pty instead of a pipe
    colour_fds: frozenset[int] = frozenset()  # rtk's fds where kept lines keep their colours
    status_fd: int | None = None  # where the live status line is drawn, if anywhere


def plan_terminal(filter_name: str, no_tty: bool = False, no_progress: bool = False) -> Terminal:
    ttys = tuple(fd for fd in (1, 2) if os.isatty(fd))
    if 1 not in ttys:
        return Terminal()
    ptys = () if no_tty or _env_flag("RTK_NO_TTY") else ttys
    colours = frozenset() if os.environ.get("NO_COLOR") else frozenset(ttys)
    quiet = (no_progress or _env_flag("RTK_NO_PROGRESS") or filter_name == "passthrough"
             or os.environ.get("TERM") == "dumb")
    return Terminal(ptys, colours, None if quiet else progress.status_fd())


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in config.FALSE_WORDS


class EarlySignals:
    """Signals that arrive between spawning the child and trio taking over: forwarded, remembered."""

    def __init__(self) -> None:
        self.received: list[int] = []
        self.unsent: list[int] = []  # arrived before the child existed: the session sends them
        self.child: subprocess.Popen[bytes] | None = None
        for sig in FORWARDED:
            signal.signal(sig, self._handle)

    def _handle(self, signum: int, frame: object) -> None:
        self.received.append(signum)
        if self.child is None:
            self.unsent.append(signum)
        else:
            forward_signal(self.child, signum)


def forward_signal(child: subprocess.Popen[bytes], signum: int) -> None:
    """Pass a signal rtk received on to the child, unless the child already got it."""
    if child.poll() is None and not _terminal_sent_it(signum, child.pid):
        child.send_signal(signum)


def _terminal_sent_it(signum: int, pid: int) -> bool:
    """Ctrl-C at the terminal signals the whole foreground process group, the child included.

    Sending it again would interrupt the child twice (pytest then dies inside its own
    KeyboardInterrupt report). A SIGINT from `kill` while rtk is in the foreground is not
    told apart; the child then gets no SIGINT and is killed after the grace period.
    """
    if signum != signal.SIGINT:
        return False
    try:
        tty = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False  # no controlling terminal: nobody but rtk can have sent it
    try:
        return os.tcgetpgrp(tty) == os.getpgrp() == os.getpgid(pid)
    except OSError:
        return False
    finally:
        os.close(tty)


def resolve_executable(name: str) -> tuple[str | None, int, str]:
    """(path, 0, "") when runnable, else (None, exit code, one-line reason)."""
    if os.sep in name:
        if not os.path.exists(name):
            return None, COMMAND_NOT_FOUND, f"rtk: {name}: No such file or directory"
        if os.path.isdir(name) or not os.access(name, os.X_OK):
            return None, NOT_EXECUTABLE, f"rtk: {name}: Permission denied"
        return name, 0, ""
    found = shutil.which(name)
    if found is None:
        return None, COMMAND_NOT_FOUND, f"rtk: {name}: command not found"
    return found, 0, ""


def choose_filter(argv: Sequence[str], forced: str | None, cfg: config.Config) -> str:
    if forced:
        return forced
    if config.run_disabled():
        return "passthrough"
    words = [os.path.basename(argv[0]), *argv[1:]]
    if cfg.filter_disabled(words):
        return "passthrough"
    return filters.filter_name_for(argv)


def run_command(argv: list[str], filter_name: str | None = None, *, no_tty: bool = False,
                no_progress: bool = False) -> int:
    started, t0 = time.time(), time.monotonic()
    cfg = config.load()
    _, code, reason = resolve_executable(argv[0])
    if code:
        print(reason, file=sys.stderr)
        return code
    name = choose_filter(argv, filter_name, cfg)
    terminal = plan_terminal(name, no_tty, no_progress)
    early = EarlySignals()
    try:
        spawned = pty_child.spawn(argv, terminal.pty_streams, no_pager=name != "passthrough")
    except PermissionError:
        print(f"rtk: {argv[0]}: Permission denied", file=sys.stderr)
        return NOT_EXECUTABLE
    except FileNotFoundError:
        print(f"rtk: {argv[0]}: command not found", file=sys.stderr)
        return COMMAND_NOT_FOUND
    except OSError as exc:
        print(f"rtk: {argv[0]}: {exc.strerror or exc}", file=sys.stderr)
        return NOT_EXECUTABLE
    early.child = spawned.child
    output = RunOutput(argv, name, cfg, started=started, t0=t0, colour_fds=terminal.colour_fds)
    open_fds = dict(spawned.fds)
    if fast_finish.drain(spawned.child, open_fds, output, early.received):
        status = exit_status(spawned.child.wait())
        output.finish(status)
        return SIGNAL_BASE + early.received[-1] if early.received else status
    from rtk.session import RunSession  # trio: only for commands that outlast the budget

    return RunSession(argv, spawned, early, terminal, output, open_fds).run()


def command_text(argv: Sequence[str]) -> str:
    return shlex.join(argv)


def child_status(returncode: int) -> int:
    return exit_status(returncode)
