"""Signals rtk receives while its child runs: forwarded to the child, remembered for the exit code.

Installed right after the spawn, before trio is imported; the trio session takes over the same
forwarding rule (`forward_signal`) once it runs.
"""
from __future__ import annotations

import os
import signal
import subprocess

FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
KILL_GRACE_SECONDS = 5.0


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
