"""The recall store: the full raw output of a run whose filter left content out.

Raw bytes are spooled to disk while they stream (never held in memory), hashed as they pass so
the id depends only on the content (deterministic hint lines keep an agent's prompt cache warm),
and kept only when a filter elided something. At most `max_bytes_per_entry` is kept: the spool
rotates, and the tail is stored with a marker saying how much of the head was dropped.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

from rtk import paths

try:  # the spool of every filtered run hashes its bytes: skip hashlib's OpenSSL load (~2 ms)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol, Self

    class Writable(Protocol):
        def write(self, data: bytes, /) -> int: ...

INLINE_GZIP_LIMIT = 4 * 1024 * 1024
COPY_BLOCK = 1024 * 1024
ID_RE = re.compile(r"[0-9a-f]{4,64}")


class RawSpool:
    """Write-only spool of a run's raw bytes (stdout and stderr interleaved as they arrived)."""

    def __init__(self, directory: Path, max_bytes: int, max_entries: int = 200,
                 retention_days: int = 14) -> None:
        self._dir = paths.private_dir(directory)
        self._max = max(max_bytes, 1024)
        self._max_entries, self._retention_days = max_entries, retention_days
        self._hash = blake2b(digest_size=6)
        self._stem = self._dir / f".spool-{os.getpid()}-{time.monotonic_ns()}"
        self._file = _open_private(self._stem.with_suffix(".cur"))
        self._size = 0
        self._dropped = 0
        self.total = 0

    def write(self, data: bytes) -> None:
        self._hash.update(data)
        self.total += len(data)
        if self._size + len(data) > self._max:
            self._rotate()
        self._file.write(data)
        self._size += len(data)

    def _rotate(self) -> None:
        self._file.close()
        prev = self._stem.with_suffix(".prev")
        if prev.exists():
            self._dropped += prev.stat().st_size
        os.replace(self._stem.with_suffix(".cur"), prev)
        self._file = _open_private(self._stem.with_suffix(".cur"))
        self._size = 0

    @property
    def recall_id(self) -> str:
        return self._hash.hexdigest()

    def keep(self, command: str, exit_code: int) -> str:
        """Store the spool as a recall entry, copying in blocks so memory stays flat; returns its id."""
        self._file.close()
        entry_id = self.recall_id
        parts = [p for p in (self._stem.with_suffix(".prev"), self._stem.with_suffix(".cur")) if p.exists()]
        sizes = [p.stat().st_size for p in parts]
        skip = max(0, sum(sizes) - self._max)
        kept = sum(sizes) - skip
        dropped = self._dropped + skip
        marker = (f"[rtk: the first {dropped:,} bytes were dropped; the last {kept:,} are kept]\n".encode()
                  if dropped else b"")
        _write_entry(self._dir, entry_id, marker, parts, skip, compress=kept <= INLINE_GZIP_LIMIT)
        meta = {"id": entry_id, "time": time.time(), "command": command, "exit_code": exit_code,
                "size": self.total}
        import json  # gzip and json load only when an entry is kept (run output), or read

        _atomic_write(self._dir / f"{entry_id}.json", json.dumps(meta).encode())
        self.discard()
        prune(self._max_entries, self._retention_days, self._dir)
        return entry_id

    def discard(self) -> None:
        if not self._file.closed:
            self._file.close()
        for suffix in (".cur", ".prev"):
            self._stem.with_suffix(suffix).unlink(missing_ok=True)


def _open_private(path: Path):  # type: ignore[no-untyped-def]
    fd = paths.open_private(path, os.O_WRONLY | os.O_TRUNC)
    return os.fdopen(fd, "wb", buffering=256 * 1024)


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = paths.open_private(tmp, os.O_WRONLY | os.O_TRUNC)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _write_entry(directory: Path, entry_id: str, marker: bytes, parts: list[Path], skip: int,
                 compress: bool) -> None:
    """Small entries are gzipped at once; big ones are stored plain so rtk exits without delay."""
    import gzip

    final = directory / f"{entry_id}{'.gz' if compress else '.raw'}"
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    fd = paths.open_private(tmp, os.O_WRONLY | os.O_TRUNC)
    with os.fdopen(fd, "wb") as plain:
        out = gzip.GzipFile(fileobj=plain, mode="wb", compresslevel=6, mtime=0) if compress else plain
        out.write(marker)
        _copy_tail(parts, skip, out)
        if compress:
            out.close()
    os.replace(tmp, final)
    (directory / f"{entry_id}{'.raw' if compress else '.gz'}").unlink(missing_ok=True)


def _copy_tail(parts: list[Path], skip: int, out: Writable) -> None:
    for part in parts:
        with open(part, "rb") as source:
            size = os.fstat(source.fileno()).st_size
            source.seek(min(skip, size))
            skip = max(0, skip - size)
            while block := source.read(COPY_BLOCK):
                out.write(block)


class Entry(tuple):  # type: ignore[type-arg]
    """One stored raw output (a plain tuple subclass: `dataclasses` costs ms on every run)."""

    __slots__ = ()

    def __new__(cls, id: str, time: float, command: str, exit_code: int, size: int) -> Self:
        return tuple.__new__(cls, (id, time, command, exit_code, size))

    id: str = property(lambda self: self[0])  # type: ignore[assignment]
    time: float = property(lambda self: self[1])  # type: ignore[assignment]
    command: str = property(lambda self: self[2])  # type: ignore[assignment]
    exit_code: int = property(lambda self: self[3])  # type: ignore[assignment]
    size: int = property(lambda self: self[4])  # type: ignore[assignment]


def entries(directory: Path | None = None) -> list[Entry]:
    """Every stored entry, newest first."""
    import json

    directory = directory or paths.recall_dir()
    found = []
    for meta_path in directory.glob("*.json") if directory.is_dir() else ():
        try:
            meta = json.loads(meta_path.read_text())
            found.append(Entry(meta["id"], float(meta["time"]), str(meta["command"]),
                               int(meta["exit_code"]), int(meta["size"])))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return sorted(found, key=lambda e: e.time, reverse=True)


class RecallError(Exception):
    """A one-line problem for the user: unknown or ambiguous id."""


def resolve(prefix: str, directory: Path | None = None) -> Entry:
    prefix = prefix.strip().lower()
    matches = [e for e in entries(directory) if e.id.startswith(prefix)] if ID_RE.fullmatch(prefix) else []
    if not matches:
        raise RecallError(f"no recall entry {prefix}")
    if len({e.id for e in matches}) > 1:
        raise RecallError(f"recall id {prefix} is ambiguous: {', '.join(e.id for e in matches[:5])}")
    return matches[0]


def read(entry: Entry, directory: Path | None = None) -> bytes:
    directory = directory or paths.recall_dir()
    gz = directory / f"{entry.id}.gz"
    if gz.exists():
        import gzip

        return gzip.decompress(gz.read_bytes())
    return (directory / f"{entry.id}.raw").read_bytes()


def prune(max_entries: int, retention_days: int, directory: Path | None = None) -> None:
    """Drop entries past the count limit or the retention period, and stale spools."""
    directory = directory or paths.recall_dir()
    now = time.time()
    for index, entry in enumerate(entries(directory)):
        if index >= max_entries or now - entry.time > retention_days * 86400:
            for suffix in (".json", ".gz", ".raw"):
                (directory / f"{entry.id}{suffix}").unlink(missing_ok=True)
    for spool in directory.glob(".spool-*"):
        try:
            if now - spool.stat().st_mtime > 86400:
                spool.unlink()
        except OSError:
            continue
