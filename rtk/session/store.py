"""Where a context's memory lives: one small marshal file per context in `<data dir>/session/`
(what it was shown: per command or read, a tuple CALL, TIME, DIGEST, RECALL, IDS; per tool, the
fingerprints of the failure blocks shown in full) and beside it an append-only `.log` of its
calls for `rtk session`; 0600 in a 0700 directory, read and written under an exclusive lock (a
context's parallel tool calls run at once). Bounded: at most MAX_SHOWN commands, MAX_ITEMS items
per tool, MAX_LOG logged calls, MAX_FILES contexts; a context idle for IDLE_SECONDS is pruned.
A file that cannot be read is an empty memory: the worst it costs is output shown again, never a
wrong reference.
"""
from __future__ import annotations

import marshal
import os
import time

from rtk import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    State = dict[str, Any]

VERSION = 1
MAX_SHOWN = 1000
MAX_ITEMS = 1000
MAX_LOG = 1000
MAX_FILES = 200
MAX_FILE_BYTES = 4 * 1024 * 1024
IDLE_SECONDS = 24 * 3600
SUFFIX = ".mem"
PENDING_SUFFIX = ".pend"
LOG_SUFFIX = ".log"
LOG_TRIM_BYTES = 256 * 1024  # past this the log keeps its last MAX_LOG lines
CALL, TIME, DIGEST, RECALL, IDS = range(5)  # a `shown` entry


def directory() -> str:
    return os.path.join(paths.data_dir_path(), "session")


def file_for(context_key: str) -> str:
    """`<digest of host|session>-<digest of agent>.mem`: a session's contexts share a prefix, so a
    boundary (compaction, /clear) finds them all."""
    session, _, agent = context_key.rpartition("|")
    return os.path.join(directory(), f"{session_prefix(session)}{_digest(agent)}{SUFFIX}")


def session_prefix(host_and_session: str) -> str:
    return _digest(host_and_session) + "-"


def session_files(host_and_session: str) -> list[str]:
    prefix = session_prefix(host_and_session)
    return [os.path.join(directory(), name) for name in _names() if name.startswith(prefix)]


def _digest(text: str) -> str:
    """A file name that says nothing of the session: the first 16 hex of its blake2b."""
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover
        from hashlib import blake2b
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def empty(context_key: str) -> State:
    return {"v": VERSION, "key": context_key, "calls": 0, "epoch": 0, "shown": {}, "items": {},
            "tpos": (0, 0, ""), "created": time.time(), "last": 0.0}


def remember(state: State, key: str, call: int, now: float, digest: str, recall_id: str | None,
             ids: tuple[str, ...] = ()) -> None:
    """`key` was shown whole at `call` (the newest entry: the caps drop the oldest first)."""
    state["shown"].pop(key, None)
    state["shown"][key] = (call, now, digest, recall_id, ids)


def log(state: State, call: int, now: float, kind: str, command: str, before: int, after: int) -> None:
    """One line of `rtk session`, appended to the context's log when the lock is released."""
    state.setdefault("_log", []).append((call, now, kind, command, before, after))


class Locked:
    """`with Locked(key) as state:` the context's state, written back when the block ends well.
    `path` names the file when the key is not known (a boundary walks a session's files)."""

    def __init__(self, context_key: str, create: bool = True, path: str | None = None) -> None:
        self.key, self.create = context_key, create
        self.path = path or file_for(context_key)
        self.fd = -1
        self.state: State = {}

    def __enter__(self) -> State:
        import fcntl

        if self.create:
            paths.private_dir_path(directory())
            if not os.path.exists(self.path):
                prune()  # a new context: the moment to let idle ones go (a listdir, not every call)
        flags = os.O_RDWR | os.O_NOFOLLOW | (os.O_CREAT if self.create else 0)
        self.fd = os.open(self.path, flags, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        self.state = _read(self.fd, self.key)
        return self.state

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        try:
            if kind is None:
                lines = self.state.pop("_log", [])
                _write(self.fd, self.state)
                if lines:
                    _append_log(self.path[:-len(SUFFIX)] + LOG_SUFFIX, lines)
        finally:
            os.close(self.fd)  # closing drops the lock


def _read(fd: int, key: str) -> State:
    try:
        size = os.fstat(fd).st_size
        if size == 0 or size > MAX_FILE_BYTES:
            return empty(key)
        data = os.pread(fd, size, 0)
        state = marshal.loads(data)
    except (OSError, EOFError, ValueError, TypeError):
        return empty(key)
    if isinstance(state, dict) and key == "" and state.get("v") == VERSION:
        return state  # a boundary walking a session's files takes each as it is
    if not isinstance(state, dict) or state.get("v") != VERSION or state.get("key") != key:
        return empty(key)  # another version's, or (a hash collision) another context's: start afresh
    return state


def _write(fd: int, state: State) -> None:
    _cap(state)
    data = marshal.dumps(state)
    os.pwrite(fd, data, 0)
    os.ftruncate(fd, len(data))  # after the write: truncating to 0 first costs a page-cache drop


def _append_log(path: str, entries: list[tuple[int, float, str, str, int, int]]) -> None:
    text = "".join(f"{call}\t{stamp:.0f}\t{kind}\t{before}\t{after}\t{_escape(command)}\n"
                   for call, stamp, kind, command, before, after in entries)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, text.encode("utf-8", "backslashreplace"))
        if os.fstat(fd).st_size > LOG_TRIM_BYTES:
            kept = read_log(path)[-MAX_LOG:]
            os.ftruncate(fd, 0)
            os.write(fd, "".join(f"{c}\t{t:.0f}\t{k}\t{b}\t{a}\t{_escape(m)}\n"
                                 for c, t, k, m, b, a in kept).encode("utf-8", "backslashreplace"))
    finally:
        os.close(fd)


def _escape(text: str) -> str:
    """One call, one line, nothing a terminal would act on: kept escaped when listed too."""
    return text.replace("\\", "\\\\").translate(ESCAPES)


ESCAPES = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}
ESCAPES.update({ord("\n"): "\\n", ord("\t"): "\\t", ord("\r"): "\\r"})


def read_log(path: str) -> list[tuple[int, float, str, str, int, int]]:
    """The logged calls: (call, time, kind, command, chars before, chars after)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    entries = []
    for line in lines:
        fields = line.split("\t", 5)
        if len(fields) == 6 and fields[0].isdigit() and fields[3].isdigit() and fields[4].isdigit():
            entries.append((int(fields[0]), float(fields[1]), fields[2], fields[5], int(fields[3]), int(fields[4])))
    return entries


def log_of(state: State) -> list[tuple[int, float, str, str, int, int]]:
    return read_log(file_for(state.get("key", ""))[:-len(SUFFIX)] + LOG_SUFFIX)


def _cap(state: State) -> None:
    """Keep the newest entries within the caps (dicts keep insertion order: oldest first)."""
    shown = state["shown"]
    while len(shown) > MAX_SHOWN:
        del shown[next(iter(shown))]
    for scope, items in list(state["items"].items()):
        while len(items) > MAX_ITEMS:
            del items[next(iter(items))]
        if not items:
            del state["items"][scope]


def load(context_key: str) -> State | None:
    """A context's state without locking it (for listings); None when it has none."""
    try:
        fd = os.open(file_for(context_key), os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        return _read(fd, context_key)
    finally:
        os.close(fd)


def all_states() -> list[State]:
    """Every stored context, oldest first (for `rtk session`)."""
    found = []
    for name in _names():
        try:
            with open(os.path.join(directory(), name), "rb") as handle:
                state = marshal.loads(handle.read(MAX_FILE_BYTES))
        except (OSError, EOFError, ValueError, TypeError):
            continue
        if isinstance(state, dict) and state.get("v") == VERSION:
            found.append(state)
    return sorted(found, key=lambda s: s.get("created", 0))


def _names(suffixes: tuple[str, ...] = (SUFFIX,)) -> list[str]:
    try:
        return [name for name in os.listdir(directory()) if name.endswith(suffixes)]
    except OSError:
        return []


def prune(now: float | None = None, idle: float = IDLE_SECONDS, max_files: int = MAX_FILES) -> int:
    """Drop contexts idle for `idle` seconds, then the least recently used past `max_files`."""
    now = time.time() if now is None else now
    stamped = []
    for name in _names((SUFFIX, PENDING_SUFFIX, LOG_SUFFIX)):
        path = os.path.join(directory(), name)
        try:
            stamped.append((os.stat(path).st_mtime, path))
        except OSError:
            continue
    stamped.sort()
    doomed = [path for mtime, path in stamped if now - mtime > idle]
    alive = len(stamped) - len(doomed)
    doomed += [path for _, path in stamped if path not in doomed][:max(0, alive - max_files)]
    for path in doomed:
        try:
            os.unlink(path)
        except OSError:
            pass
    return len(doomed)
