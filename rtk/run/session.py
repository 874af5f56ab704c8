"""The output side of `rtk CMD`: trio tasks that read the child, feed the pipeline, relay signals.

Imported only after the child is running (see runner.py), because trio is the slowest import
rtk has and the child can use that time. On a terminal it also animates the status line, passes
window-size changes on to the child's ptys and follows the child's job control (jobs.py).
"""
from __future__ import annotations

import errno
import os
import signal
import sys

import trio

from rtk.filters.base import Stream
from rtk.run import progress
from rtk.run.child import ChildTimeout
from rtk.run.exits import exit_status
from rtk.run.fast_finish import READ_SIZE
from rtk.run.jobs import TERMINAL_STOPS, stop_signal
from rtk.run.output import RunOutput
from rtk.run.pipeline import HOLD_SECONDS, OutputPipeline
from rtk.run.pty_child import Spawned
from rtk.run.signals import KILL_GRACE_SECONDS, SUSPEND, EarlySignals, forward_signal
from rtk.run.terminal import Terminal

FALLBACK_SECONDS = 20 * 86400  # poll(2) takes at most ~24 days in one wait
ORPHAN_GRACE_SECONDS = 1.0
SIZE_POLL_SECONDS = 0.2


class RunSession:
    def __init__(self, argv: list[str], spawned: Spawned, early: EarlySignals, terminal: Terminal,
                 output: RunOutput, open_fds: dict[int, int]) -> None:
        self.argv, self.child = argv, spawned.child
        self.spawned, self.group = spawned, spawned.group
        self.early = early
        self.output = output
        self.pipeline, self.writer = output.pipeline, output.writer
        self.signal_received: int | None = None  # the first signal passed on: the run is ending
        self.fds = {Stream(fd): source for fd, source in open_fds.items()}
        self.status = self._status_line(terminal, output.t0)
        self.started = False  # trio's loop is running (_main was entered)

    def _status_line(self, terminal: Terminal, t0: float) -> progress.StatusLine | None:
        pipeline, fd = self.pipeline, terminal.status_fd
        if fd is None or not isinstance(pipeline, OutputPipeline):
            return None
        status = progress.StatusLine(fd, self.argv,
                                     lambda: pipeline.filter.progress(),
                                     colour=fd in terminal.colour_fds, started=t0,
                                     paused=lambda: progress.reading_terminal(self.child.pid, fd))
        self.writer.before_write = status.clear
        return status

    def run(self) -> int:
        """The child's own exit status, whatever was forwarded to it (128+N only if it died of N)."""
        try:
            trio.run(self._main)
        except BaseException as exc:  # noqa: BLE001 - whatever broke, the child's status decides
            if self.status is not None:
                self.status.close()
            if not self.started and isinstance(exc, OSError):
                self._read_without_trio()
            else:
                self._stop_child()
                if not isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    print(f"rtk: internal error ({type(exc).__name__}: {exc}); output may be incomplete",
                          file=sys.stderr)
        finally:
            if self.status is not None:
                self.status.close()
        status = exit_status(self.child.wait())
        self.group.close()
        self.group.stop_leftovers()
        self.output.finish(status)
        return status

    def _read_without_trio(self) -> None:
        """trio could not start its loop here (Codex's sandbox refuses the socket options of its
        wakeup socket): the child keeps running and is read to its end with poll(2), as a short
        command is; the signal handlers installed before trio still pass signals on to it."""
        from rtk.run import fast_finish

        fds = {int(stream): fd for stream, fd in self.fds.items()}
        fast_finish.drain(self.child, fds, self.output, [], budget=FALLBACK_SECONDS)

    async def _main(self) -> None:
        self.started = True
        self.signalled = trio.Event()
        self.first_output = trio.Event()
        if getattr(self.pipeline, "raw_bytes", 0):  # the fast path (fast_finish) read some already
            self.first_output.set()
        async with trio.open_nursery() as nursery:
            await nursery.start(self._relay_signals, nursery)
            nursery.start_soon(self._release_hold_later)
            if self.status is not None:
                nursery.start_soon(self._animate_status, self.status)
            if self.spawned.ptys:
                nursery.start_soon(self._follow_window_size)
            reading = trio.CancelScope()
            nursery.start_soon(self._stop_reading_after_signalled_exit, reading)
            with reading:
                async with trio.open_nursery() as readers:
                    for stream, fd in self.fds.items():
                        readers.start_soon(self._read, fd, stream)
            await trio.to_thread.run_sync(self.child.wait, abandon_on_cancel=True)
            nursery.cancel_scope.cancel()

    async def _stop_reading_after_signalled_exit(self, readers: trio.CancelScope) -> None:
        """After a forwarded signal, the child's exit ends the run even if a grandchild holds the pipes.

        Without a signal rtk waits for the pipes like a shell pipeline does. But a launcher that
        dies of SIGTERM without passing it on (TypeScript 7's `tsc` under Node) leaves its
        worker running with our pipes, and rtk was asked to stop, not to wait for that worker.
        """
        await trio.to_thread.run_sync(self.child.wait, abandon_on_cancel=True)
        await self.signalled.wait()
        await trio.sleep(ORPHAN_GRACE_SECONDS)
        readers.cancel()

    async def _read(self, fd: int, stream: Stream) -> None:
        os.set_blocking(fd, False)
        try:
            while chunk := await _receive(fd):
                self.output.feed(chunk, stream)
                self.first_output.set()
                if self.output.reader_gone(stream):
                    break  # closing our end lets the child meet its own SIGPIPE, as in a shell
        finally:
            trio.lowlevel.notify_closing(fd)
            os.close(fd)
        self.output.end_of_stream(stream)

    async def _animate_status(self, status: progress.StatusLine) -> None:
        await trio.sleep(progress.FIRST_DRAW_SECONDS)
        while True:
            status.draw()
            await trio.sleep(1 / progress.REDRAW_HZ)

    async def _relay_signals(self, nursery: trio.Nursery,
                             task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        wanted = (*self.early.handled, signal.SIGWINCH, signal.SIGCHLD)  # an inherited SIG_IGN stays
        with trio.open_signal_receiver(*wanted) as receiver:
            task_status.started()
            self.spawned.sync_window_size(Stream.STDOUT)  # a resize while trio was loading
            for signum in self.early.unsent:
                if signum == SUSPEND:
                    forward_signal(self.group, signum)
            for signum in self.early.received:
                self._forward(signum, nursery, send=signum in self.early.unsent)
            self._check_stopped()  # it may have stopped while trio was loading
            async for signum in receiver:
                self._on_signal(signum, nursery)

    def _on_signal(self, signum: int, nursery: trio.Nursery) -> None:
        if signum == signal.SIGWINCH:
            self._resized()
        elif signum == signal.SIGCHLD:
            self._check_stopped()
        elif signum == SUSPEND:
            forward_signal(self.group, signum)  # the child stops, then rtk with it
        else:
            self._forward(signum, nursery)

    def _check_stopped(self) -> None:
        """The child stopped (Ctrl-Z, or it read a terminal it did not hold): act as its shell."""
        signum = stop_signal(self.child.pid)
        if signum is None:
            return
        if self.status is not None and signum not in TERMINAL_STOPS:
            self.status.clear()  # Ctrl-Z: the shell's prompt comes next (a SIGTTIN's prompt stays)
        self.group.stopped(signum)
        self._resized()  # the terminal may have changed size while everything was stopped

    async def _follow_window_size(self) -> None:
        """The child's group holds the terminal, so the kernel's SIGWINCH goes to it, not to rtk."""
        size = self.spawned.terminal_size()
        while True:
            await trio.sleep(SIZE_POLL_SECONDS)
            if (now := self.spawned.terminal_size()) != size:
                size = now
                self._resized()

    def _resized(self) -> None:
        """The terminal changed size: resize the child's ptys, then tell it (after, so it sees it)."""
        if self.spawned.ptys:
            self.spawned.sync_window_size(Stream.STDOUT)
            self.group.send(signal.SIGWINCH)
        if self.status is not None:
            self.status.resize()

    def _forward(self, signum: int, nursery: trio.Nursery, send: bool = True) -> None:
        first = self.signal_received is None
        self.signal_received = signum
        self.signalled.set()
        if send:
            forward_signal(self.group, signum)
        if first:
            nursery.start_soon(self._kill_after_grace)

    async def _kill_after_grace(self) -> None:
        """What of the command still runs after the grace period is killed: the child and what
        holds rtk's pipes or terminal (a job the command detached is left, as a shell leaves it)."""
        await trio.sleep(KILL_GRACE_SECONDS)
        self.group.kill_attached()

    async def _release_hold_later(self) -> None:
        """A slow output streams HOLD_SECONDS after its first bytes, not after the launch: a command
        slow to start (pytest importing a failing conftest on a loaded machine) still prints its
        short output held, as the smaller of raw and filtered (issue 34: it had printed 35 bytes
        more than raw, the hold given up before the first line came)."""
        await self.first_output.wait()
        await trio.sleep(HOLD_SECONDS)
        self.pipeline.release_hold()

    def _stop_child(self) -> None:
        if self.child.poll() is None:
            self.group.send(signal.SIGTERM)
            try:
                self.child.wait(KILL_GRACE_SECONDS)
            except ChildTimeout:
                self.group.send(signal.SIGKILL)


async def _receive(fd: int) -> bytes:
    """The next chunk from a non-blocking pipe or pty master; b"" at end of output.

    A pty master reports the end (every copy of the slave closed) as EIO, not as an empty read.
    """
    await trio.lowlevel.checkpoint()
    while True:
        try:
            return os.read(fd, READ_SIZE)
        except BlockingIOError:
            await trio.lowlevel.wait_readable(fd)
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b""
            raise
