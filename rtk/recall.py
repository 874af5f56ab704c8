"""The recall store: the full raw output of a run whose filter left content out.

Raw bytes are spooled to disk while they stream (never held in memory), hashed so the id depends
only on the content (deterministic hint lines keep an agent's prompt cache warm), and kept only
when a filter elided something. The hash starts when the id is first asked for or when the bytes
outgrow memory: most runs keep nothing and never load the hash module (a shared library, ~0.3
ms). At most `max_bytes_per_entry` is kept: the spool rotates, and the tail is stored with a
marker saying how much of the head was dropped.

The store never costs a run its output or its exit status: a write that fails (a full disk,
a quota, an I/O error, a read-only remount mid-run) stops the spooling, removes what was
half-written and is reported once, as "not kept", by the caller. The store as a whole is held
under `max_total_bytes` (oldest entries go first), besides its count and age limits. `read`
opens only a regular file of this user's, not a symlink, FIFO or device planted in the store.
"""
from __future__ import annotations

import errno
import os
import stat
import time

from rtk import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import IO, Protocol, Self

    class Writable(Protocol):
        def write(self, data: bytes, /) -> int: ...

    class Hash(Protocol):
        def update(self, data: bytes, /) -> None: ...
        def hexdigest(self) -> str: ...

    StrPath = str | os.PathLike[str]

INLINE_GZIP_LIMIT = 4 * 1024 * 1024
COPY_BLOCK = 1024 * 1024
MEMORY_LIMIT = 256 * 1024  # a run's first bytes stay in memory: most outputs never touch the disk
HEX_DIGITS = frozenset("0123456789abcdef")
DEFAULT_MAX_TOTAL = 512 * 1024 * 1024  # config `recall.max_total_bytes`
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.EFBIG})


class RawSpool:
    """Write-only spool of a run's raw bytes (stdout and stderr interleaved as they arrived).

    Paths are strings (os.path), not pathlib: this runs on every filtered command, and pathlib's
    import costs more than a `git status`."""

    def __init__(self, directory: StrPath, max_bytes: int, max_entries: int = 200,
                 retention_days: int = 14, max_total: int = DEFAULT_MAX_TOTAL) -> None:
        self._dir = paths.private_dir_path(os.fspath(directory))
        self._max = max(max_bytes, 1024)
        self._max_entries, self._retention_days = max_entries, retention_days
        self._max_total = max_total
        self.problem: str | None = None  # why the bytes are no longer kept (a write failed)
        self._hash: Hash | None = None  # made by _hashed(): the bytes so far, then each write
        self._stem = os.path.join(self._dir, f".spool-{os.getpid()}-{time.monotonic_ns()}")
        self._memory: list[bytes] | None = []  # None once the bytes went to files
        self._file: IO[bytes] | None = None
        self._size = 0
        self._dropped = 0
        self.total = 0

    def write(self, data: bytes) -> None:
        """Spool `data`; a failed write ends the spooling (see `problem`), never the run."""
        self.total += len(data)
        if self.problem is not None:
            return
        try:
            self._write(data)
        except OSError as exc:
            self._give_up(exc)

    def _write(self, data: bytes) -> None:
        if self._memory is not None and self._size + len(data) > min(MEMORY_LIMIT, self._max):
            self._spill()  # (which starts the hash with the bytes so far: these come next)
        if self._hash is not None:
            self._hash.update(data)
        if self._memory is not None:
            self._memory.append(data)
            self._size += len(data)
            return
        if self._size + len(data) > self._max:
            self._rotate()
        self._file.write(data)  # type: ignore[union-attr]
        self._size += len(data)

    def _give_up(self, exc: OSError) -> None:
        """A write failed: drop the spool files (freeing what they took), keep nothing."""
        self.problem = exc.strerror or str(exc)
        try:
            self.discard()
        except OSError:
            pass
        self._memory, self._file = None, None

    def _hashed(self) -> Hash:
        """The hash of every byte written so far (the memory's, when it starts), kept up to date."""
        if self._hash is None:
            try:  # not hashlib: it loads OpenSSL (~2 ms)
                from _blake2 import blake2b
            except ImportError:  # pragma: no cover - a Python built without it
                from hashlib import blake2b
            self._hash = blake2b(digest_size=6)
            for chunk in self._memory or ():
                self._hash.update(chunk)
        return self._hash

    def _spill(self) -> None:
        self._hashed()  # the memory's bytes are about to leave it
        self._file = _open_private(self._stem + ".cur")
        self._file.writelines(self._memory or ())
        self._memory = None

    def _rotate(self) -> None:
        self._file.close()  # type: ignore[union-attr]
        prev = self._stem + ".prev"
        if os.path.exists(prev):
            self._dropped += os.stat(prev).st_size
        os.replace(self._stem + ".cur", prev)
        self._file = _open_private(self._stem + ".cur")
        self._size = 0

    @property
    def recall_id(self) -> str:
        return self._hashed().hexdigest()

    def keep(self, command: str, exit_code: int) -> str | None:
        """Store the spool as a recall entry, copying in blocks so memory stays flat; its id, or
        None when the bytes could not be kept (`problem` says why; nothing half-written stays)."""
        if self.problem is None:
            try:
                return self._keep(command, exit_code)
            except OSError as exc:
                self.problem = exc.strerror or str(exc)
                for suffix in (".json", ".gz", ".raw"):
                    _unlink_quietly(os.path.join(self._dir, f"{self.recall_id}{suffix}"))
        try:
            self.discard()
        except OSError:
            pass
        return None

    def _keep(self, command: str, exit_code: int) -> str:
        entry_id = self.recall_id
        if self._memory is not None:
            chunks: Iterable[bytes] = self._memory
            kept, dropped = self._size, 0
        else:
            self._file.close()  # type: ignore[union-attr]
            parts = [p for p in (self._stem + ".prev", self._stem + ".cur") if os.path.exists(p)]
            sizes = [os.stat(p).st_size for p in parts]
            skip = max(0, sum(sizes) - self._max)
            kept, dropped = sum(sizes) - skip, self._dropped + skip
            chunks = _tail_of(parts, skip)
        marker = (f"[rtk: the first {dropped:,} bytes were dropped; the last {kept:,} are kept]\n".encode()
                  if dropped else b"")
        _write_entry(self._dir, entry_id, marker, chunks, compress=kept <= INLINE_GZIP_LIMIT)
        meta = {"id": entry_id, "time": time.time(), "command": command, "exit_code": exit_code,
                "size": self.total}
        from rtk import quickjson  # not `json`: it imports `re`, ~6 ms on every run that keeps output

        _atomic_write(os.path.join(self._dir, f"{entry_id}.json"), quickjson.dumps(meta).encode())
        self.discard()
        prune(self._max_entries, self._retention_days, self._dir, keep=entry_id, max_total=self._max_total)
        return entry_id

    def discard(self) -> None:
        self._memory = []
        if self._file is None:
            return
        try:
            if not self._file.closed:
                self._file.close()  # flushing may fail on a full disk: the files go anyway
        finally:
            for suffix in (".cur", ".prev"):
                _unlink_quietly(self._stem + suffix)


def _open_private(path: str) -> IO[bytes]:
    fd = paths.open_private(path, os.O_WRONLY | os.O_TRUNC)
    return os.fdopen(fd, "wb", buffering=256 * 1024)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _unlink_quietly(path: str) -> None:
    """Clean-up after a failure: whatever stops the unlink (a read-only remount) is no news."""
    try:
        os.unlink(path)
    except OSError:
        pass


def _atomic_write(path: str, data: bytes) -> None:
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{os.getpid()}.tmp")
    fd = paths.open_private(tmp, os.O_WRONLY | os.O_TRUNC)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise


def _write_entry(directory: str, entry_id: str, marker: bytes, chunks: Iterable[bytes],
                 compress: bool) -> None:
    """Small entries are gzipped at once (zlib writing the gzip format: the `gzip` module costs
    a millisecond more to import); big ones are stored plain so rtk exits without delay."""
    final = os.path.join(directory, f"{entry_id}{'.gz' if compress else '.raw'}")
    tmp = os.path.join(directory, f".{os.path.basename(final)}.{os.getpid()}.tmp")
    fd = paths.open_private(tmp, os.O_WRONLY | os.O_TRUNC)
    try:
        _copy_into(fd, marker, chunks, compress)
        os.replace(tmp, final)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    _unlink(os.path.join(directory, f"{entry_id}{'.raw' if compress else '.gz'}"))


def _copy_into(fd: int, marker: bytes, chunks: Iterable[bytes], compress: bool) -> None:
    with os.fdopen(fd, "wb") as out:
        if compress:
            import zlib

            packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # wbits 16 + 15: a gzip member, mtime 0
            out.write(packer.compress(marker))
            for chunk in chunks:
                out.write(packer.compress(chunk))
            out.write(packer.flush())
        else:
            out.write(marker)
            for chunk in chunks:
                out.write(chunk)


def _tail_of(parts: list[str], skip: int) -> Iterable[bytes]:
    """The spool files' bytes after the first `skip`, in blocks."""
    for part in parts:
        with open(part, "rb") as source:
            size = os.fstat(source.fileno()).st_size
            source.seek(min(skip, size))
            skip = max(0, skip - size)
            while block := source.read(COPY_BLOCK):
                yield block


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


def entries(directory: StrPath | None = None) -> list[Entry]:
    """Every stored entry, newest first."""
    from rtk import quickjson

    where = _directory(directory)
    found = []
    for name in _names(where):
        if not name.endswith(".json") or name.startswith("."):
            continue
        try:
            meta = quickjson.loads(_read_own(os.path.join(where, name)).decode("utf-8"))
            found.append(Entry(meta["id"], float(meta["time"]), str(meta["command"]),
                               int(meta["exit_code"]), int(meta["size"])))
        except (OSError, ValueError, KeyError, TypeError, RecallError):
            continue
    return sorted(found, key=lambda e: e.time, reverse=True)


def _directory(directory: StrPath | None) -> str:
    return paths.recall_dir_path() if directory is None else os.fspath(directory)


def _names(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return []


class RecallError(Exception):
    """A one-line problem for the user: unknown or ambiguous id."""


def resolve(prefix: str, directory: StrPath | None = None) -> Entry:
    prefix = prefix.strip().lower()
    is_id = 4 <= len(prefix) <= 64 and HEX_DIGITS.issuperset(prefix)
    matches = [e for e in entries(directory) if e.id.startswith(prefix)] if is_id else []
    if not matches:
        raise RecallError(f"no recall entry {prefix}")
    if len({e.id for e in matches}) > 1:
        raise RecallError(f"recall id {prefix} is ambiguous: {', '.join(e.id for e in matches[:5])}")
    return matches[0]


def read(entry: Entry, directory: StrPath | None = None) -> bytes:
    """The entry's raw bytes; RecallError when its file is not one rtk wrote (see `_read_own`)."""
    where = _directory(directory)
    gz = os.path.join(where, f"{entry.id}.gz")
    if os.path.lexists(gz):
        import gzip

        return gzip.decompress(_read_own(gz))
    return _read_own(os.path.join(where, f"{entry.id}.raw"))


def _read_own(path: str) -> bytes:
    """A file's bytes, only if it is what rtk writes in the store: a regular file of this user's
    with one link, opened without following a symlink and without blocking on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise RecallError(f"{os.path.basename(path)} is a symlink, not a file rtk wrote; not read") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise RecallError(f"{os.path.basename(path)} is not a regular file; not read")
        if info.st_uid != os.geteuid() or info.st_nlink != 1:
            raise RecallError(f"{os.path.basename(path)} was not written by rtk (owner or links differ); not read")
        chunks = []
        while block := os.read(fd, COPY_BLOCK):
            chunks.append(block)
        return b"".join(chunks)
    finally:
        os.close(fd)


def prune(max_entries: int, retention_days: int, directory: StrPath | None = None, keep: str = "",
          max_total: int = DEFAULT_MAX_TOTAL) -> None:
    """Drop entries past the count limit, the retention period or the total size, and stale
    spools. Entries are ranked by their metadata file's mtime (written with the entry), newest
    first, so a run that keeps output stats the store instead of reading every entry; the oldest
    go first; `keep` (the entry just stored) always stays. Failures to remove are ignored."""
    where = _directory(directory)
    now = time.time()
    stored: list[tuple[float, str]] = []
    sizes: dict[str, int] = {}
    try:
        with os.scandir(where) as listing:
            for item in listing:
                _note(item, now, stored, sizes)
    except (FileNotFoundError, NotADirectoryError):
        return
    stored.sort(reverse=True)
    total = 0
    for index, (mtime, entry_id) in enumerate(stored):
        total += sizes.get(entry_id, 0)
        if entry_id != keep and (index >= max_entries or now - mtime > retention_days * 86400
                                 or total > max_total):
            total -= sizes.get(entry_id, 0)
            for suffix in (".json", ".gz", ".raw"):
                _unlink_quietly(os.path.join(where, f"{entry_id}{suffix}"))


def _note(item: os.DirEntry[str], now: float, stored: list[tuple[float, str]], sizes: dict[str, int]) -> None:
    """One name of the store: a stale spool is dropped, an entry's files are counted."""
    name = item.name
    if name.startswith(".spool-"):
        _drop_stale(item.path, now)
        return
    if name.startswith("."):
        return
    stem, dot, suffix = name.rpartition(".")
    if not dot or suffix not in ("json", "gz", "raw"):
        return
    try:
        info = item.stat(follow_symlinks=False)
    except OSError:
        return
    sizes[stem] = sizes.get(stem, 0) + info.st_size
    if suffix == "json":
        stored.append((info.st_mtime, stem))


def _drop_stale(spool: str, now: float) -> None:
    """A spool left by a run that died: gone after a day."""
    try:
        if now - os.stat(spool).st_mtime > 86400:
            os.unlink(spool)
    except OSError:
        pass
