"""Where queued run jobs wait for the worker, and the lock a live worker holds while it serves.

Its own module because both sides need it: the run side (`accounting`) writes jobs and wakes a
worker unless the lock is held; the worker (`worker`) takes the lock and drains the queue.
"""
from __future__ import annotations

from pathlib import Path

from rtk import paths

QUEUE_NAME = "track-queue"
LOCK_NAME = "worker.lock"


def queue_dir() -> Path:
    return paths.data_dir() / QUEUE_NAME
