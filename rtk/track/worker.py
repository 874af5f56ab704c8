"""The tracking worker: turns queued run jobs (rtk/accounting.py) into database rows.

`python -m rtk.track.worker QUEUE_DIR` runs detached from every terminal. It takes the queue's
lock (or leaves at once: another worker is serving), claims jobs by renaming them (so a job is
counted once even when `rtk gain` drains the queue at the same time), counts tokens, inserts the
rows, and lingers `RTK_TRACK_LINGER` seconds (default 10) for more. After releasing the lock it
looks once more, so a job queued while it was leaving is not stranded. Every failure becomes an
entry of the tracking error log, never output.
"""
from __future__ import annotations

import json
import marshal
import os
import shlex
import sqlite3
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rtk import redact
from rtk.track import history as tracking
from rtk.track import tokens
from rtk.track.queue import LOCK_NAME, MARSHAL_MAGIC, try_lock, unlock

POLL_SECONDS = 0.1
DEFAULT_LINGER = 10.0
READ_BLOCK = 1024 * 1024
STALE_SECONDS = 86400
MAX_IDLE_ROUNDS = 3  # rounds that found jobs it could not claim: leave rather than spin


class Worker:
    """Database connections by path, opened (and pruned) once per worker."""

    def __init__(self, queue: Path) -> None:
        self.queue = queue
        self.errors = queue.parent / tracking.errors_path().name
        self._conns: dict[str, sqlite3.Connection] = {}

    def process(self, claimed: Path) -> None:
        header: dict[str, Any] = {}
        try:
            header, inline = _read_job(claimed)
            self._insert(header, _build_run(header, inline, self.queue))
        except tracking.TrackingError as exc:
            self._log(f"{exc.path}: {exc.problem} (runs are not being recorded)")
        except Exception as exc:  # noqa: BLE001 - a bad job must not stop the worker
            self._log(f"a run could not be recorded ({type(exc).__name__}: {exc})")
        finally:
            _remove_job(claimed, header, self.queue)

    def _log(self, message: str) -> None:
        """Into the error log; a full disk loses the line, never the worker (the job is removed)."""
        try:
            tracking.log_error(message, self.errors)
        except OSError:
            pass

    def _insert(self, header: dict[str, Any], run: tracking.Run) -> None:
        db = str(header["db"])
        conn = self._conns.get(db) or self._open(db, int(header.get("history_days", 90)))
        try:
            tracking.insert(conn, run)
        except sqlite3.Error as exc:
            self._conns.pop(db, None)
            conn.close()
            raise tracking.classify(Path(db), exc) from None

    def _open(self, db: str, history_days: int) -> sqlite3.Connection:
        conn = tracking.connect(Path(db))
        try:
            tracking.prune(conn, history_days)
        except sqlite3.Error as exc:
            conn.close()
            raise tracking.classify(Path(db), exc) from None
        self._conns[db] = conn
        return conn

    def close(self) -> None:
        for conn in self._conns.values():
            conn.close()
        self._conns.clear()

    def drain(self) -> int:
        done = 0
        for job in pending(self.queue):
            if (claimed := claim(job)) is not None:
                self.process(claimed)
                done += 1
        return done


def _read_job(path: Path) -> tuple[dict[str, Any], bytes]:
    """The header and the inline bytes: marshal-headed jobs (queue.py), or an older JSON line."""
    data = path.read_bytes()
    if data.startswith(MARSHAL_MAGIC):
        start = len(MARSHAL_MAGIC) + 8
        end = start + int.from_bytes(data[len(MARSHAL_MAGIC):start], "big")
        header = marshal.loads(data[start:end])
        if not isinstance(header, dict) or end > len(data):
            raise ValueError("malformed job header")
        return header, data[end:]
    head, _, inline = data.partition(b"\n")
    return json.loads(head), inline


def _build_run(header: dict[str, Any], inline: bytes, queue: Path) -> tracking.Run:
    rec = header["record"]
    raw_inline = int(header["raw"].get("inline", 0))
    raw_tokens, raw_counter = _count(header["raw"], inline[:raw_inline], queue)
    if header["printed"].get("same_as_raw"):  # passthrough: what was printed is what was read
        printed_tokens, printed_counter = raw_tokens, raw_counter
    else:
        printed_tokens, printed_counter = _count(header["printed"], inline[raw_inline:], queue)
    counter = raw_counter if raw_counter == printed_counter else f"{raw_counter}+{printed_counter}"
    shown = rec.get("baseline_text")
    baseline = tokens.count_text(shown) if isinstance(shown, str) else \
        _host_baseline(int(rec.get("preview_limit") or 0), int(rec.get("preview_chars") or PREVIEW_CHARS),
                       header["raw"], inline[:raw_inline], queue)
    argv = redact.argv(rec["argv"])  # a job queued by an older rtk may hold them in clear
    return tracking.Run(
        timestamp=tracking.iso_utc(float(rec["started"])), command=shlex.join(argv),
        command_key=tracking.command_key(argv), filter=rec["filter"],
        raw_tokens=raw_tokens, printed_tokens=printed_tokens,
        saved_tokens=(raw_tokens if baseline is None else baseline) - printed_tokens,
        raw_bytes=int(rec["raw_bytes"]), printed_bytes=int(rec["printed_bytes"]),
        exit_code=int(rec["exit_code"]), wall_ms=int(rec["wall_ms"]),
        project=tracking.project_root(rec["cwd"]), counter=counter,
        recall_id=rec.get("recall_id"), filter_error=rec.get("filter_error"),
        via=str(rec.get("via") or "run"), baseline_tokens=baseline)


PREVIEW_CHARS = 2000  # what Claude Code shows of an output past its limit, beside a notice
PREVIEW_NOTICE = ("Output too large ({size}). Full output saved to: {path}\n\nPreview (first 2KB):\n")


def _host_baseline(limit: int, shown: int, part: dict[str, Any], inline: bytes, queue: Path) -> int | None:
    """Tokens the host would have shown the model of this raw output when it cuts long outputs
    (Claude Code: a 2,000-char preview past 30,000 chars; Codex: ~10,000 chars of start and end);
    None when it would have shown the output whole."""
    if limit <= 0:
        return None
    head = bytearray()
    for block in _blocks(part, inline, queue):
        head += block
        if len(head) > 4 * limit + 4:
            break
    text = bytes(head).decode("utf-8", "replace")
    if len(text) <= limit:
        return None
    if shown >= limit:  # a cut without a notice (Codex keeps start and end): that many chars of it
        return tokens.count_text(text[:shown])
    notice = PREVIEW_NOTICE.format(size=f"{len(head) // 1024}KB", path="/tmp/claude/tool-results/x.txt")
    return tokens.count_text(notice + text[:shown])


def _count(part: dict[str, Any], inline: bytes, queue: Path) -> tuple[int, str]:
    """Tokens of one stream; bytes past the spool cap are estimated at the counted ratio."""
    counter = tokens.TokenCounter()
    for block in _blocks(part, inline, queue):
        counter.feed(block)
    total = counter.total()
    dropped = int(part.get("dropped", 0))
    if not dropped:
        return total, counter.name
    ratio = total / counter.bytes if counter.bytes else 0.25
    return total + round(dropped * ratio), f"{counter.name}+{tokens.ESTIMATE}"


def _blocks(part: dict[str, Any], inline: bytes, queue: Path) -> Iterator[bytes]:
    if "file" not in part:
        yield inline
        return
    with open(queue / str(part["file"]), "rb") as source:
        while block := source.read(READ_BLOCK):
            yield block


def _remove_job(claimed: Path, header: dict[str, Any], queue: Path) -> None:
    for key in ("raw", "printed"):
        name = header.get(key, {}).get("file")
        if name:
            (queue / str(name)).unlink(missing_ok=True)
    claimed.unlink(missing_ok=True)


def pending(queue: Path) -> list[Path]:
    """Jobs waiting, oldest first, including claims left behind by a worker that died."""
    try:
        names = sorted(os.listdir(queue))
    except OSError:
        return []
    jobs = [queue / name for name in names if name.endswith(".job")]
    return jobs + [queue / name for name in names if ".claimed-" in name and _orphaned(name)]


def in_progress(queue: Path) -> bool:
    """A live worker is processing a job right now."""
    try:
        names = os.listdir(queue)
    except OSError:
        return False
    return any(".claimed-" in name and not _orphaned(name) for name in names)


def _orphaned(name: str) -> bool:
    pid = name.rsplit("-", 1)[-1]
    if not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def claim(job: Path) -> Path | None:
    stem = job.name.split(".", 1)[0]
    claimed = job.with_name(f"{stem}.claimed-{os.getpid()}")
    try:
        os.rename(job, claimed)
    except OSError:
        return None  # someone else took it
    return claimed


def process_now(job: str | Path) -> None:
    """RTK_TRACK_SYNC=1: record this one job in-process."""
    job = Path(job)
    worker = Worker(job.parent)
    try:
        if (claimed := claim(job)) is not None:
            worker.process(claimed)
    finally:
        worker.close()


def drain(queue: Path, wait: float = 5.0) -> None:
    """`rtk gain`: record what is queued now, and wait (a little) for jobs a worker is on."""
    worker = Worker(queue)
    try:
        worker.drain()
    finally:
        worker.close()
    deadline = time.monotonic() + wait
    while in_progress(queue) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)


def serve(queue: Path, linger: float) -> None:
    lock = os.open(queue / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    worker = Worker(queue)
    idle_rounds = 0
    try:
        while idle_rounds < MAX_IDLE_ROUNDS and try_lock(lock):
            _sweep_stale(queue)
            idle_rounds = 0 if _serve_until_idle(worker, linger) else idle_rounds + 1
            unlock(lock)
            if not pending(queue):  # a job queued while we were leaving: serve it (not one we cannot claim)
                break
    finally:
        worker.close()
        os.close(lock)


def _serve_until_idle(worker: Worker, linger: float) -> int:
    """Drain at least once, then until nothing came for `linger` seconds; returns jobs done."""
    done = 0
    idle_since = time.monotonic()
    while True:
        if count := worker.drain():
            done += count
            idle_since = time.monotonic()
        elif time.monotonic() - idle_since >= linger:
            return done
        else:
            time.sleep(POLL_SECONDS)


def _sweep_stale(queue: Path) -> None:
    """Spill files and temp files of runs that never finished (rtk killed), a day old."""
    now = time.time()
    for path in queue.glob("*"):
        if path.suffix in (".raw", ".out", ".tmp"):
            try:
                if now - path.stat().st_mtime > STALE_SECONDS:
                    path.unlink()
            except OSError:
                continue


def main(args: list[str]) -> int:
    if len(args) != 1:
        print("usage: python -m rtk.track.worker QUEUE_DIR", file=sys.stderr)
        return 2
    queue = Path(args[0]).resolve()
    os.chdir("/")
    try:
        os.nice(19)  # counting is background work: never compete with the commands being run
    except OSError:
        pass
    try:
        linger = float(os.environ.get("RTK_TRACK_LINGER", DEFAULT_LINGER))
    except ValueError:
        linger = DEFAULT_LINGER
    serve(queue, linger)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
