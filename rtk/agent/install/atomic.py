"""Atomic writes for `rtk init`, and the clean-up of the temporary files a killed run left.

A write goes to `.<name>.XXXXXXXX.tmp` in the target's directory (mkstemp's 8 random characters),
is fsynced and renamed over the target. A run killed between the two (kill -9, a power cut) leaves
that temporary file behind; the next run removes the ones named after the files it is about to
write. The writer holds an exclusive `flock` on its temporary file until the rename, so a run never
removes the temporary file of another run still writing (a killed process holds no lock); without
`fcntl` (Windows) only files older than an hour are taken.
"""
from __future__ import annotations

import os
import re
import stat
import tempfile
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

TEMP_SUFFIX = ".tmp"
_RANDOM = r"[a-z0-9_]{8}"
UNLOCKED_AGE = 3600.0


def write_atomic(path: Path, data: bytes, mode: int) -> None:
    """Write `data` to `path` through a locked temporary file in the same directory."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        _write_all(fd, data)
        os.fsync(fd)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)
    fsync_dir(path.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def remove_stale_temps(path: Path) -> list[Path]:
    """Remove the temporary files of `path` that a killed run left (only rtk's own, by name, and
    only when no live run holds them); returns what was removed."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.{_RANDOM}{re.escape(TEMP_SUFFIX)}")
    try:
        names = [n for n in os.listdir(path.parent) if pattern.fullmatch(n)]
    except OSError:
        return []
    return [path.parent / name for name in names if _remove_if_abandoned(path.parent / name)]


def _remove_if_abandoned(candidate: Path) -> bool:
    try:
        fd = os.open(candidate, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        if not _abandoned(fd):
            return False
        candidate.unlink()
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _abandoned(fd: int) -> bool:
    """A regular file no live writer holds."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        return False
    if fcntl is None:
        return time.time() - info.st_mtime > UNLOCKED_AGE
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
