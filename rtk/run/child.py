"""Starting the child with `os.posix_spawn` and waiting for it, without `subprocess`.

`subprocess` and what it pulls in (threading, selectors, locale, warnings, contextlib) cost more
to import than `git status` takes to run, on every wrapped command. `posix_spawn` is one call
into libc (vfork + exec, errors of the exec reported back as OSError), and what Popen gives on
top is small enough to keep here: the process group, the signal dispositions Python changed
(SIGPIPE, SIGXFSZ back to default, as Popen's restore_signals does), and a wait that can be
shared between trio's waiting thread and the main thread (one reaper at a time, as in Popen).

Descriptors: rtk's own are close-on-exec (PEP 446), so the child gets its stdin, the pipes or
ptys given here and whatever inheritable descriptors rtk itself was given (a make jobserver's
pipe, say), as a shell would pass them on. (glibc's posix_spawn leaves its two internal signals, 32 and 33,
ignored in the child; a glibc program resets them at start, and nothing else uses them.)
"""
from __future__ import annotations

import _thread
import os
import select
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Mapping
else:  # `signal` wraps this in enums, and `enum` costs milliseconds on every run
    import _signal as signal

RESTORED_SIGNALS = tuple(getattr(signal, name) for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ")
                         if hasattr(signal, name))
_POLL_MAX_SECONDS = 0.05


class ChildTimeout(Exception):
    """`Child.wait(timeout)` ran out before the child exited."""


class Child:
    """A spawned process: its pid and, once reaped, its return code (-N: died of signal N)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._reaping = _thread.allocate_lock()

    def poll(self) -> int | None:
        """The return code if the child has exited (reaping it), else None; never blocks."""
        if self.returncode is None and self._reaping.acquire(False):
            try:
                self._reap(os.WNOHANG)
            finally:
                self._reaping.release()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """The return code, once the child exits; ChildTimeout after `timeout` seconds."""
        if timeout is None:
            with self._reaping:
                if self.returncode is None:
                    self._reap(0)
            return self.returncode  # type: ignore[return-value]
        if (code := self.poll()) is not None:
            return code
        if self._exits_within(timeout):
            return self.wait()
        deadline = time.monotonic() + timeout
        delay = 0.0005
        while (code := self.poll()) is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ChildTimeout(f"pid {self.pid} still running after {timeout} s")
            time.sleep(min(delay, remaining))
            delay = min(delay * 2, _POLL_MAX_SECONDS)
        return code

    def _exits_within(self, timeout: float) -> bool:
        """Wait on a pidfd (Linux 5.3+): woken the moment the child exits, not at the next poll
        of a sleeping loop. False when there is no pidfd; ChildTimeout when it did not exit."""
        try:
            fd = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            return False
        try:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            if not poller.poll(max(0, int(timeout * 1000 + 0.999))):
                raise ChildTimeout(f"pid {self.pid} still running after {timeout} s")
        finally:
            os.close(fd)
        return True

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, signum)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _reap(self, flags: int) -> None:
        while True:
            try:
                pid, status = os.waitpid(self.pid, flags)
            except InterruptedError:
                continue
            except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): Popen reports 0 too
                self.returncode = 0
                return
            break
        if pid == self.pid:
            self.returncode = os.waitstatus_to_exitcode(status)


def spawn(executable: str, argv: list[str], env: Mapping[str, str] | None,
          outputs: Mapping[int, int]) -> Child:
    """Start `executable` with `argv`, leading a new process group, fd N of the child (1, 2) on
    `outputs[N]`. The caller closes its copies of the `outputs` descriptors afterwards."""
    sources = {target: _above_stdio(source) for target, source in outputs.items()}
    actions = [(os.POSIX_SPAWN_DUP2, source, target) for target, source in sources.items()]
    try:
        pid = os.posix_spawn(executable, argv, os.environ if env is None else env,
                             file_actions=actions, setpgroup=0, setsigdef=RESTORED_SIGNALS)
    finally:
        for target, source in sources.items():
            if source != outputs[target]:
                os.close(source)
    return Child(pid)


def which(name: str) -> str | None:
    """`shutil.which` for a bare name, without importing shutil (and its archive modules)."""
    for directory in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(directory or ".", name)
        if os.access(path, os.X_OK) and not os.path.isdir(path):
            return path
    return None


def _above_stdio(fd: int) -> int:
    """A descriptor that a dup2 onto 1 or 2 cannot clobber before it is read (rtk started with
    its stdout closed, so a new pipe got fd 1): moved above 2, still close-on-exec."""
    if fd > 2:
        return fd
    import fcntl

    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
