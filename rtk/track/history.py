"""The tracking database: one SQLite row per rtk run (spec/gain.md, Tracking).

WAL mode and a busy timeout let many writers (parallel agents, the tracking worker, `rtk gain`)
share the file; `PRAGMA user_version` numbers the migrations; the file is created 0600 in a
0700 directory. Failures never reach a command: the worker logs them to a small JSON-lines file
beside the database (`tracking-errors.jsonl`), which `rtk gain --failures` shows, one line per
distinct problem.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from rtk import paths

BUSY_TIMEOUT_SECONDS = 30.0
MAX_ERROR_ENTRIES = 100
MIGRATIONS: list[str] = [
    """
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        timestamp TEXT NOT NULL,
        command TEXT NOT NULL,
        command_key TEXT NOT NULL,
        filter TEXT NOT NULL,
        raw_tokens INTEGER NOT NULL,
        printed_tokens INTEGER NOT NULL,
        saved_tokens INTEGER NOT NULL,
        raw_bytes INTEGER NOT NULL,
        printed_bytes INTEGER NOT NULL,
        exit_code INTEGER NOT NULL,
        wall_ms INTEGER NOT NULL,
        project TEXT NOT NULL,
        counter TEXT NOT NULL,
        recall_id TEXT,
        filter_error TEXT
    );
    CREATE INDEX runs_by_time ON runs (timestamp);
    CREATE INDEX runs_by_project ON runs (project, timestamp);
    """,
    # how a run reached rtk (`run`, `run:claude` under Claude Code, `post:<host>` for a hook that
    # replaced what the host captured) and the tokens the host would have shown the model without
    # rtk when that is less than the raw output (Claude Code's ~2 KB preview of long outputs)
    """
    ALTER TABLE runs ADD COLUMN via TEXT NOT NULL DEFAULT 'run';
    ALTER TABLE runs ADD COLUMN baseline_tokens INTEGER;
    """,
]
SUBCOMMAND_TOOLS = frozenset({
    "git", "cargo", "npm", "pnpm", "yarn", "bun", "npx", "bunx", "deno", "go", "docker", "podman",
    "kubectl", "helm", "terraform", "gh", "pip", "pip3", "uv", "poetry", "hatch", "pdm", "pipenv",
    "conda", "brew", "apt", "apt-get", "dotnet", "mvn", "gradle", "make", "just", "tox", "nox",
    "ruff", "rustup", "systemctl", "rtk"})
COLUMNS = ("timestamp", "command", "command_key", "filter", "raw_tokens", "printed_tokens",
           "saved_tokens", "raw_bytes", "printed_bytes", "exit_code", "wall_ms", "project",
           "counter", "recall_id", "filter_error", "via", "baseline_tokens")


@dataclass
class Run:
    timestamp: str
    command: str
    command_key: str
    filter: str
    raw_tokens: int
    printed_tokens: int
    saved_tokens: int
    raw_bytes: int
    printed_bytes: int
    exit_code: int
    wall_ms: int
    project: str
    counter: str
    recall_id: str | None = None
    filter_error: str | None = None
    via: str = "run"
    baseline_tokens: int | None = None  # None: the host would have shown the raw output whole


class TrackingError(Exception):
    """The database cannot be used: `problem` says why, for one line naming the file and the fix."""

    def __init__(self, path: Path, problem: str, kind: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path, self.problem, self.kind = path, problem, kind


def connect(path: Path | None = None) -> sqlite3.Connection:
    """Open (creating 0600 if needed) and migrate the database; TrackingError when unusable.

    Setting up can meet "database is locked" at once, busy_timeout or not: SQLite does not wait
    in every case (switching a new file to WAL while others open it, reading a schema another
    connection is changing), so that setup is tried again, with growing pauses, until the same
    timeout has passed (32 writers racing on a new file failed one in a few hundred runs).

    The file is ours alone: one holding the Rust rtk's tables is never written (shared_file)."""
    path = own_path(path)
    deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
    pause = 0.01
    while True:
        try:
            return _open(path)
        except OSError as exc:
            raise classify(path, exc) from None
        except sqlite3.Error as exc:
            if not _is_busy(exc) or time.monotonic() + pause > deadline:
                raise classify(path, exc) from None
        time.sleep(pause)
        pause = min(pause * 2, 0.5)


def own_path(path: Path | None = None) -> Path:
    """The file our runs go to: `path` (default: the configured one) unless it is the Rust rtk's."""
    from rtk.track import shared_file

    return shared_file.resolve(path or paths.db_path(), migrate, log_error)


def _open(path: Path) -> sqlite3.Connection:
    _create_private(path)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        migrate(conn)
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _is_busy(exc: sqlite3.Error) -> bool:
    message = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in message or "busy" in message)


def _create_private(path: Path) -> None:
    if path.exists():
        return
    paths.private_dir(path.parent)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


def migrate(conn: sqlite3.Connection) -> None:
    if conn.execute("PRAGMA user_version").fetchone()[0] >= len(MIGRATIONS):
        return
    conn.execute("BEGIN IMMEDIATE")  # one migrator at a time; the others wait, then find it done
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for script in MIGRATIONS[version:]:
            for statement in filter(str.strip, script.split(";")):
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def check_writable(conn: sqlite3.Connection, path: Path) -> None:
    """Raise TrackingError unless a run could be recorded now (read-only file or directory)."""
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(f"PRAGMA user_version = {int(version)}")  # a real write, rolled back
        finally:
            conn.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise classify(path, exc) from None


def classify(path: Path, exc: BaseException) -> TrackingError:
    text = str(exc) or type(exc).__name__
    lowered = text.lower()
    if "readonly" in lowered or "read-only" in lowered or isinstance(exc, PermissionError):
        return TrackingError(path, text, "read-only")
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return TrackingError(path, text, "corrupt")
    return TrackingError(path, text, "unavailable")


def insert(conn: sqlite3.Connection, run: Run) -> None:
    values = asdict(run)
    placeholders = ", ".join(f":{name}" for name in COLUMNS)
    conn.execute(f"INSERT INTO runs ({', '.join(COLUMNS)}) VALUES ({placeholders})", values)


def prune(conn: sqlite3.Connection, history_days: int, now: float | None = None) -> int:
    """Delete rows older than `history_days`; returns how many went."""
    cutoff = iso_utc((now if now is not None else time.time()) - history_days * 86400)
    return conn.execute("DELETE FROM runs WHERE timestamp < ?", (cutoff,)).rowcount


def reset(path: Path | None = None) -> None:
    """Delete our database (and its WAL files) and the error log; works on a corrupt file.
    Never the Rust rtk's history: `own_path` steers away from a file that holds its tables."""
    path = own_path(path)
    for victim in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), errors_path()):
        victim.unlink(missing_ok=True)


def iso_utc(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def command_key(argv: list[str]) -> str:
    """The tool and its subcommand, for grouping: `git status`, `cargo test`, `pytest`, `ls`.

    Only tools known to take a subcommand get one, so `ls src` stays `ls`."""
    words = [os.path.basename(argv[0])] if argv else ["?"]
    rest = list(argv[1:])
    if words[0].startswith("python") and "-m" in rest[:3]:
        module_at = rest.index("-m") + 1
        words, rest = ([rest[module_at]] if module_at < len(rest) else words), rest[module_at + 1:]
    sub = _subcommand(rest) if words[0] in SUBCOMMAND_TOOLS else None
    return " ".join([*words, sub] if sub else words)


def _subcommand(rest: list[str]) -> str | None:
    i = 0
    while i < len(rest) and (rest[i].startswith(("-", "+"))):
        i += 2 if rest[i] in ("-C", "-c") else 1
    word = rest[i] if i < len(rest) else ""
    if word and word.replace("-", "").replace("_", "").isalnum() and word[0].isalpha():
        return word
    return None


def project_root(cwd: str) -> str:
    """The git toplevel containing `cwd` (a `.git` directory or file), else `cwd` itself."""
    current = Path(cwd)
    for candidate in (current, *current.parents):
        if (candidate / ".git").exists():
            return str(candidate)
    return cwd


def errors_path() -> Path:
    return paths.data_dir() / "tracking-errors.jsonl"


@dataclass
class ErrorEntry:
    first: str
    last: str
    count: int
    message: str


def log_error(message: str, path: Path | None = None, now: float | None = None) -> None:
    """Remember a tracking failure; a repeat of the last one bumps its count instead of a new line."""
    path = path or errors_path()
    stamp = iso_utc(now if now is not None else time.time())
    entries = read_errors(path)
    if entries and entries[-1].message == message:
        entries[-1].last, entries[-1].count = stamp, entries[-1].count + 1
    else:
        entries.append(ErrorEntry(stamp, stamp, 1, message))
    text = "".join(json.dumps(asdict(e)) + "\n" for e in entries[-MAX_ERROR_ENTRIES:])
    try:
        paths.private_dir(path.parent)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except OSError:
        pass  # nowhere left to say it; the command must not notice


def read_errors(path: Path | None = None) -> list[ErrorEntry]:
    path = path or errors_path()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    entries = []
    for line in lines:
        try:
            entries.append(ErrorEntry(**json.loads(line)))
        except (ValueError, TypeError):
            continue
    return entries
