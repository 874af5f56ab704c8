"""The child's process group: every signal rtk passes on reaches the whole command, and nothing
the command started outlives rtk.

The child is started as the leader of a new process group (`process_group=0`), so `npm test`'s
workers, a shell script's background jobs and a test runner's subprocesses share one group id: a
forwarded SIGTERM goes to all of them (`killpg`), the kill after the grace period takes them all,
and once the child has exited and its output ended, whatever is left in the group is stopped
too, if it still holds rtk's pipes or terminal. A process that leaves the group itself (`setsid`, a
daemon) is out of reach, as for a shell; so is one the command deliberately left running with
its input and output elsewhere (`nohup server >log 2>&1 &`, `cmd >/dev/null 2>&1 & disown`): it
outlives the command as it would in a shell. On Linux rtk tells them apart by the descriptors in
/proc (the child's pipes or ptys, rtk's own stdio when a pipe, socket or terminal, rtk's
controlling terminal); elsewhere every leftover is stopped, as before.

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
import stat
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

    def __init__(self, pgid: int, held: frozenset[tuple[int, ...]] = frozenset()) -> None:
        self.pgid = pgid
        self.tty: int | None = None  # rtk's controlling terminal, once opened
        self._own_pgrp = os.getpgrp()
        self.held = held  # identities (`identity`) of the child's pipes and ptys

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
        """The child is gone: stop what it left in its group that still holds rtk's pipes or
        terminal (SIGTERM, then SIGKILL after `grace`); a job it put in the background with its
        input and output elsewhere is left running, as a shell leaves it."""
        if not self.alive():
            return
        pids = self.attached()
        if pids is None:  # no /proc: every leftover
            if self.send(signal.SIGTERM):
                self.send(signal.SIGCONT)  # a stopped process acts on SIGTERM only once continued
                deadline = time.monotonic() + grace
                while self.alive() and time.monotonic() < deadline:
                    time.sleep(0.01)
                self.send(signal.SIGKILL)
            return
        _signal_each(pids, signal.SIGTERM)
        _signal_each(pids, signal.SIGCONT)
        deadline = time.monotonic() + grace
        while any(_exists(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.01)
        _signal_each(pids, signal.SIGKILL)

    def kill_attached(self) -> None:
        """The grace period after a signal ran out: SIGKILL the child and what holds rtk's pipes
        or terminal (not what the command detached)."""
        pids = self.attached()
        if pids is None:
            self.send(signal.SIGKILL)
        else:
            _signal_each([self.pgid, *pids], signal.SIGKILL)

    def attached(self) -> list[int] | None:
        """The group's processes holding rtk's pipes or terminal; None when /proc cannot tell."""
        members = _members(self.pgid)
        if members is None:
            return None
        held = self.held | _own_stdio()
        return [pid for pid in members if _holds(pid, held)]

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


def identity(info: os.stat_result) -> tuple[int, ...] | None:
    """What two descriptors on one pipe, socket or terminal have in common; None for the rest."""
    mode = info.st_mode
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return (0, info.st_dev, info.st_ino)
    if stat.S_ISCHR(mode):
        return (1, info.st_rdev)
    return None


def _own_stdio() -> frozenset[tuple[int, ...]]:
    """rtk's stdin, stdout and stderr when a pipe, socket or terminal, and its controlling terminal."""
    found = set()
    for fd in (0, 1, 2):
        try:
            info = os.fstat(fd)
        except OSError:
            continue
        if (key := identity(info)) is not None and (key[0] == 0 or os.isatty(fd)):
            found.add(key)
    try:
        with open("/proc/self/stat", "rb") as own:
            tty_nr = int(own.read().rsplit(b") ", 1)[1].split()[4])
        if tty_nr:
            found.add((1, tty_nr))
    except (OSError, ValueError, IndexError):
        pass
    return frozenset(found)


def _members(pgid: int) -> list[int] | None:
    """Every live process of the group (from /proc), or None without /proc."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    if "self" not in names:
        return None
    members = []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as info:
                fields = info.read().rsplit(b") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != b"Z" and int(fields[2]) == pgid:
            members.append(int(name))
    return members


def _holds(pid: int, held: frozenset[tuple[int, ...]]) -> bool:
    """`pid` has a descriptor on one of `held`; True in doubt (its /proc cannot be read)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except FileNotFoundError:
        return False
    except OSError:
        return True
    for fd in fds:
        try:
            if identity(os.stat(f"/proc/{pid}/fd/{fd}")) in held:
                return True
        except OSError:
            continue
    return False


def _signal_each(pids: list[int], signum: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def _exists(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as info:
            return info.read().rsplit(b") ", 1)[1][:1] != b"Z"
    except (OSError, IndexError):
        return False


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
