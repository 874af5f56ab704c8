"""The output side of `rtk CMD`: trio tasks that read the child, feed the pipeline, relay signals.

Imported only after the child is running (see runner.py), because trio is the slowest import
rtk has and the child can use that time. On a terminal it also animates the status line and
passes window-size changes on to the child's ptys.
"""
from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys

import trio

from rtk.run import progress
from rtk.run.exits import SIGNAL_BASE, exit_status
from rtk.filters.base import Stream
from rtk.run.pipeline import HOLD_SECONDS, OutputPipeline
from rtk.run.pty_child import Spawned
from rtk.run.output import RunOutput
from rtk.run.fast_finish import READ_SIZE
from rtk.run.signals import FORWARDED, KILL_GRACE_SECONDS, EarlySignals, forward_signal
from rtk.run.terminal import Terminal

ORPHAN_GRACE_SECONDS = 1.0


class RunSession:
    def __init__(self, argv: list[str], spawned: Spawned, early: EarlySignals, terminal: Terminal,
                 output: RunOutput, open_fds: dict[int, int]) -> None:
        self.argv, self.child = argv, spawned.child
        self.spawned = spawned
        self.early = early
        self.output = output
        self.pipeline, self.writer = output.pipeline, output.writer
        self.signal_received: int | None = None
        self.fds = {Stream(fd): source for fd, source in open_fds.items()}
        self.status = self._status_line(terminal, output.t0)

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
        try:
            trio.run(self._main)
        except BaseException as exc:  # noqa: BLE001 - whatever broke, the child's status decides
            if self.status is not None:
                self.status.close()
            self._stop_child()
            if not isinstance(exc, (KeyboardInterrupt, SystemExit)):
                print(f"rtk: internal error ({type(exc).__name__}: {exc}); output may be incomplete",
                      file=sys.stderr)
        finally:
            if self.status is not None:
                self.status.close()
        status = exit_status(self.child.wait())
        self.output.finish(status)
        if self.signal_received is not None:
            return SIGNAL_BASE + self.signal_received
        return status

    async def _main(self) -> None:
        self.signalled = trio.Event()
        async with trio.open_nursery() as nursery:
            await nursery.start(self._relay_signals, nursery)
            nursery.start_soon(self._release_hold_later)
            if self.status is not None:
                nursery.start_soon(self._animate_status, self.status)
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
        with trio.open_signal_receiver(*FORWARDED, signal.SIGWINCH) as receiver:
            task_status.started()
            self.spawned.sync_window_size(Stream.STDOUT)  # a resize while trio was loading
            for signum in self.early.received:
                self._forward(signum, nursery, send=signum in self.early.unsent)
            async for signum in receiver:
                if signum == signal.SIGWINCH:
                    self._resized()
                else:
                    self._forward(signum, nursery)

    def _resized(self) -> None:
        """The terminal changed size: resize the child's ptys, then tell it (after, so it sees it)."""
        if self.spawned.ptys:
            self.spawned.sync_window_size(Stream.STDOUT)
            if self.child.poll() is None:
                self.child.send_signal(signal.SIGWINCH)
        if self.status is not None:
            self.status.resize()

    def _forward(self, signum: int, nursery: trio.Nursery, send: bool = True) -> None:
        first = self.signal_received is None
        self.signal_received = signum
        self.signalled.set()
        if send:
            forward_signal(self.child, signum)
        if first:
            nursery.start_soon(self._kill_after_grace)

    async def _kill_after_grace(self) -> None:
        await trio.sleep(KILL_GRACE_SECONDS)
        if self.child.poll() is None:
            self.child.kill()

    async def _release_hold_later(self) -> None:
        await trio.sleep(HOLD_SECONDS)
        self.pipeline.release_hold()

    def _stop_child(self) -> None:
        if self.child.poll() is None:
            self.child.terminate()
            try:
                self.child.wait(KILL_GRACE_SECONDS)
            except subprocess.TimeoutExpired:
                self.child.kill()


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
