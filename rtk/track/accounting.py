"""The runner's side of token accounting: what a run hands over, and when.

The runner calls `start()` before the child's output flows, `raw()`/`printed()` with every chunk
as it passes, and `finish()` once rtk's own output is flushed and the exit code is known. None of
these may delay the command, so this module imports neither tiktoken nor sqlite3: the bytes are
kept (in memory up to 1 MiB per stream, then spilled to a 0600 file) and `finish()` drops a *job*
into `<data dir>/track-queue/`. A detached worker (`python -m rtk.track.worker`, new session,
stdio on /dev/null) counts the tokens and inserts the row. One worker serves every rtk process
of a data dir: it holds `worker.lock` while alive and lingers a few seconds for the next job, so
the 0.3 s tiktoken load is paid once per burst of commands, not once per command. `finish()`
spawns a worker only when none holds the lock (the worker rescans after releasing it, so no
job is stranded). `RTK_TRACK_SYNC=1` records in-process instead (tests, debugging).
"""
from __future__ import annotations

import errno
import marshal
import os
import sys
import time

from rtk import paths
from rtk.track.queue import LOCK_NAME, MARSHAL_MAGIC, queue_dir, queue_dir_path, try_lock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

    StrPath = str | os.PathLike[str]

__all__ = ["LOCK_NAME", "Accountant", "RunRecord", "queue_dir", "start", "wake_worker"]

READ_ONLY_ERRNOS = (errno.EROFS, errno.EACCES, errno.EPERM)

INLINE_MAX = 1024 * 1024        # per stream, kept in memory; past it the bytes go to a file
SPOOL_MAX = 1024 * 1024 * 1024  # per stream on disk; past it bytes are counted, tokens estimated


class RunRecord:
    """One rtk run as the tracking database records it (spec/gain.md, Tracking).

    A plain class (positional or keyword fields, `as_dict`), not a dataclass: `dataclasses` and
    the `inspect` it imports cost ~5-15 ms on every run."""

    FIELDS = ("argv", "filter", "exit_code", "wall_ms", "cwd", "started", "raw_bytes", "printed_bytes",
              "recall_id", "filter_error", "via", "preview_limit", "baseline_text", "preview_chars")
    __slots__ = FIELDS

    def __init__(self, argv: list[str], filter: str, exit_code: int, wall_ms: int, cwd: str,
                 started: float, raw_bytes: int, printed_bytes: int, recall_id: str | None = None,
                 filter_error: str | None = None, via: str = "run", preview_limit: int = 0,
                 baseline_text: str | None = None, preview_chars: int = 2_000) -> None:
        self.argv, self.filter, self.exit_code, self.wall_ms = argv, filter, exit_code, wall_ms
        self.cwd, self.started, self.raw_bytes, self.printed_bytes = cwd, started, raw_bytes, printed_bytes
        self.recall_id, self.filter_error = recall_id, filter_error
        # how the run reached rtk, and the host's preview cut (chars; 0: the host shows it whole);
        # `baseline_text`: what the host would have shown instead of the raw output (its own cut)
        self.via, self.preview_limit, self.baseline_text = via, preview_limit, baseline_text
        self.preview_chars = preview_chars

    def as_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.FIELDS}


class _Spool:
    """One stream's bytes: in memory up to INLINE_MAX, then in `<stem><suffix>` in the queue."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.buffer: list[bytes] = []
        self.size = 0
        self.dropped = 0
        self.file: IO[bytes] | None = None

    def add(self, data: bytes) -> None:
        if self.size + len(data) > SPOOL_MAX:
            self.dropped += len(data)
            return
        self.size += len(data)
        if self.file is not None:
            self.file.write(data)
        elif self.size <= INLINE_MAX:
            self.buffer.append(data)
        else:
            self._spill(data)

    def _spill(self, data: bytes) -> None:
        paths.private_dir_path(os.path.dirname(self.path))
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        self.file = os.fdopen(fd, "wb", buffering=256 * 1024)
        self.file.writelines(self.buffer)
        self.file.write(data)
        self.buffer = []

    def close_quietly(self) -> None:
        """After a failed write: the file is closed (and removed by `discard`), errors ignored."""
        if self.file is not None and not self.file.closed:
            try:
                self.file.close()
            except OSError:
                pass

    def close(self) -> dict[str, object]:
        if self.file is not None:
            self.file.close()
            return {"file": os.path.basename(self.path), "dropped": self.dropped}
        return {"inline": self.size, "dropped": self.dropped}

    def discard(self) -> None:
        if self.file is not None:
            try:
                self.file.close()  # the flush may fail on a full disk: the file goes anyway
            except OSError:
                pass
            _unlink_quietly(self.path)


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class Accountant:
    """Receives a run's bytes as they stream and hands them to the tracking worker at the end."""

    def __init__(self, argv: list[str], filter_name: str, queue: StrPath, history_days: int) -> None:
        self.argv, self.filter_name = argv, filter_name
        self.queue, self.history_days = os.fspath(queue), history_days
        self.stem = f"{time.time_ns()}-{os.getpid()}"
        self._raw = _Spool(os.path.join(self.queue, f"{self.stem}.raw"))
        self._printed = _Spool(os.path.join(self.queue, f"{self.stem}.out"))
        self._printed_is_raw = filter_name == "passthrough"  # spool and count those bytes once
        self.problem: str | None = None
        self.quiet = False  # the data dir is read-only (a sandbox, Codex's default): no line

    def raw(self, data: bytes) -> None:
        self._add(self._raw, data)

    def printed(self, data: bytes) -> None:
        if not self._printed_is_raw:
            self._add(self._printed, data)

    def _add(self, spool: _Spool, data: bytes) -> None:
        if self.problem is None:
            try:
                spool.add(data)
            except OSError as exc:
                self.problem = f"cannot spool output in {self.queue} ({exc.strerror or exc})"
                self.quiet = exc.errno in READ_ONLY_ERRNOS

    def discard(self) -> None:
        """Nothing to record after all (a post-path output the host keeps): drop what was spooled."""
        self._raw.discard()
        self._printed.discard()

    def finish(self, record: RunRecord) -> None:
        try:
            job = self._write_job(record) if self.problem is None else None
        except OSError as exc:
            self._raw.close_quietly()
            self._printed.close_quietly()
            self.problem = f"cannot queue the run in {self.queue} ({exc.strerror or exc})"
            self.quiet = exc.errno in READ_ONLY_ERRNOS
            job = None
        if job is None:
            self._raw.discard()
            self._printed.discard()
            if not self.quiet:
                print(f"rtk: tracking skipped: {self.problem}", file=sys.stderr)
        elif os.environ.get("RTK_TRACK_SYNC", "") not in ("", "0"):
            from rtk.track import worker as track_worker

            track_worker.process_now(job)
        else:
            wake_worker(self.queue)

    def _write_job(self, record: RunRecord) -> str:
        """One write of the whole job (header, then the inline bytes), renamed into place."""
        from rtk import redact  # credentials never reach the queue nor history.db

        fields = record.as_dict()
        fields["argv"] = redact.argv(record.argv)
        header = {"v": 1, "db": paths.db_path_str(), "history_days": self.history_days,
                  "record": fields, "raw": self._raw.close(),
                  "printed": {"same_as_raw": True} if self._printed_is_raw else self._printed.close()}
        packed = marshal.dumps(header)
        paths.private_dir_path(self.queue)
        tmp = os.path.join(self.queue, f".{self.stem}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        job = os.path.join(self.queue, f"{self.stem}.job")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(b"".join([MARSHAL_MAGIC, len(packed).to_bytes(8, "big"), packed,
                                    *self._raw.buffer, *self._printed.buffer]))
            os.replace(tmp, job)
        except BaseException:
            _unlink_quietly(tmp)  # a full disk leaves no half-written job behind
            raise
        return job


def start(argv: list[str], filter_name: str) -> Accountant | None:
    """An accountant for this run, or None when tracking is off."""
    from rtk import config

    cfg = config.load()
    if not cfg.tracking_enabled:
        return None
    return Accountant(argv, filter_name, queue_dir_path(), int(cfg.get("tracking", "history_days")))


def wake_worker(queue: StrPath) -> None:
    """Start a tracking worker unless one is alive (it holds the lock while it serves)."""
    fd = os.open(os.path.join(queue, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if not try_lock(fd):
            return  # a live worker rescans the queue before it leaves
    finally:
        os.close(fd)  # closing drops our probe lock
    spawn_worker(queue)


def spawn_worker(queue: StrPath) -> None:
    """Detached: own session, stdio on /dev/null, no inherited descriptors (the caller may be
    waiting for EOF on a pipe). posix_spawn is ~10x cheaper than Popen here."""
    argv = [sys.executable, "-P", "-m", "rtk.track.worker", os.fspath(queue)]
    actions: list[tuple[object, ...]] = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0)
                                         for fd in (0, 1, 2)]
    actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in _inherited_fds()]
    os.posix_spawn(sys.executable, argv, os.environ, file_actions=actions, setsid=True)


def _inherited_fds() -> list[int]:
    try:
        listed = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return []
    found = []
    for fd in listed:
        try:
            if fd > 2 and os.get_inheritable(fd):
                found.append(fd)
        except OSError:
            continue
    return found
