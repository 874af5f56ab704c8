"""The child's process group: every signal rtk passes on reaches the whole command, and nothing
the command started outlives rtk.

The child is started as the leader of a new process group (`process_group=0`), so `npm test`'s
workers, a shell script's background jobs and a test runner's subprocesses share one group id: a
forwarded SIGTERM goes to all of them (`killpg`), the kill after the grace period takes them all,
and once the child has exited and its output ended, whatever is left in the group is stopped
too. A process that leaves the group itself (`setsid`, a daemon) is out of reach, as for a shell.

At a terminal rtk behaves like a job-control shell: when rtk is the terminal's foreground job
and its stdout is that terminal, the child's group becomes the foreground (`tcsetpgrp`), so a
Ctrl-C reaches the command once, from the kernel (rtk never sees it), and the command can read
the terminal (password prompts). Ctrl-Z stops the command; rtk then takes the terminal back and
stops itself, so the shell sees the job stopped, and `fg` continues both. With stdout on a pipe
(`rtk git log | less`) the foreground stays with rtk's job, so `less` keeps the keyboard; a
command that then reads the terminal is stopped by the kernel (SIGTTIN) and rtk hands it the
terminal, as if it had been the job.

Standard library only: this runs before trio is imported.
"""
from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
else:  # `signal` wraps this in enums, and `enum` costs milliseconds on every run
    import _signal as signal

LEFTOVER_GRACE_SECONDS = 0.5
TERMINAL_STOPS = (signal.SIGTTIN, signal.SIGTTOU)


class ChildGroup:
    """The process group led by the child (its id is the child's pid)."""

    def __init__(self, pgid: int) -> None:
        self.pgid = pgid
        self.tty: int | None = None  # rtk's controlling terminal, once opened
        self._own_pgrp = os.getpgrp()

    def take_terminal(self) -> None:
        """At start: the child's group gets the foreground if rtk's job has it and stdout is on it."""
        if _foreground(1) == self._own_pgrp:  # fails unless stdout is rtk's controlling terminal
            self._hand_over(cont=False)

    def give_back_terminal(self) -> None:
        """rtk's own job is the foreground again (before rtk prints its last lines and exits)."""
        if self.tty is not None and _foreground(self.tty) == self.pgid:
            _set_foreground(self.tty, self._own_pgrp)

    def close(self) -> None:
        self.give_back_terminal()
        if self.tty is not None:
            os.close(self.tty)
            self.tty = None

    def send(self, signum: int) -> bool:
        """Signal every process of the group; False when none is left."""
        try:
            os.killpg(self.pgid, signum)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def alive(self) -> bool:
        return self.send(0)

    def stop_leftovers(self, grace: float = LEFTOVER_GRACE_SECONDS) -> None:
        """The child is gone: stop what it left in its group (SIGTERM, then SIGKILL after `grace`)."""
        if not self.send(signal.SIGTERM):
            return
        self.send(signal.SIGCONT)  # a stopped process acts on SIGTERM only once continued
        deadline = time.monotonic() + grace
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.01)
        self.send(signal.SIGKILL)

    def stopped(self, signum: int) -> None:
        """The child was stopped by `signum`: do what a job-control shell would."""
        if signum in TERMINAL_STOPS and self._hand_over(cont=True):
            return  # it wants the terminal rtk's job has
        self._suspend_with_child(wants_terminal=self.tty is not None or signum in TERMINAL_STOPS)

    def _suspend_with_child(self, wants_terminal: bool) -> None:
        """Ctrl-Z (or a stop signal): take the terminal back, stop rtk, continue together later."""
        self.give_back_terminal()
        os.kill(os.getpid(), signal.SIGSTOP)  # the shell now sees the job stopped; `fg` continues rtk
        if not (wants_terminal and self._hand_over(cont=True)):
            self.send(signal.SIGCONT)  # `bg`: it runs on without the terminal

    def _hand_over(self, cont: bool) -> bool:
        """Make the child's group the terminal's foreground, if rtk's job (or the child's) has it."""
        if self.tty is None:
            self.tty = _controlling_terminal()
        tty = self.tty
        if tty is None:
            return False
        if _foreground(tty) not in (self._own_pgrp, self.pgid):
            return False  # rtk runs in the background: the terminal is someone else's now
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)  # so rtk may write and give it back from the background
        if not _set_foreground(tty, self.pgid):
            return False
        if cont or stop_signal(self.pgid) is not None:
            self.send(signal.SIGCONT)  # it read the terminal (or set it up) before it had it
        return True


def stop_signal(pid: int) -> int | None:
    """The signal that stopped `pid`, if it stopped since the last call (an exit is not reaped)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WSTOPPED | os.WNOHANG)
    except OSError:
        return None
    return info.si_status if info is not None and info.si_pid == pid else None


def _controlling_terminal() -> int | None:
    try:
        return os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return None  # no controlling terminal: an agent's pipes, CI, cron


def _foreground(tty: int) -> int | None:
    try:
        return os.tcgetpgrp(tty)
    except OSError:
        return None


def _set_foreground(tty: int, pgrp: int) -> bool:
    try:
        os.tcsetpgrp(tty, pgrp)
    except OSError:
        return False
    return True
