"""Where queued run jobs wait for the worker, and the lock a live worker holds while it serves.

Its own module because both sides need it: the run side (`accounting`) writes jobs and wakes a
worker unless the lock is held; the worker (`worker`) takes the lock and drains the queue.
"""
from __future__ import annotations

import errno
import os

from rtk import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

QUEUE_NAME = "track-queue"
LOCK_NAME = "worker.lock"
# A job file starts with its header: MARSHAL_MAGIC, the header's length (8 bytes, big-endian) and
# the header as `marshal` data, which the run side writes without importing json (and the `re`
# json imports). Older jobs start with a JSON line instead; the worker reads both.
MARSHAL_MAGIC = b"RTKM"


def queue_dir() -> Path:
    return paths.data_dir() / QUEUE_NAME


def queue_dir_path() -> str:
    """queue_dir() as a string, for the run path (no pathlib)."""
    return os.path.join(paths.data_dir_path(), QUEUE_NAME)


def try_lock(fd: int) -> bool:
    """Take the worker lock on `fd` (open for writing) without waiting; False when it is held.

    A POSIX record lock (`os.lockf`), not `flock`: `os` has it, and the `fcntl` module is a
    shared library every run would load (~0.3 ms) just to probe. A record lock is dropped when
    its process closes any descriptor of the file, so the worker opens the lock file once."""
    try:
        os.lockf(fd, os.F_TLOCK, 0)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EAGAIN):
            return False
        raise
    return True


def unlock(fd: int) -> None:
    os.lockf(fd, os.F_ULOCK, 0)
