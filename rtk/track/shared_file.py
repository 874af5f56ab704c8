"""Living beside the Rust rtk: its history is `<data dir>/rtk/history.db`, another schema.

The Rust rtk creates that file with its own tables (`commands`, ...) and numbers its own
migrations with `PRAGMA user_version`, so the two tools cannot share one file: ours would see
version 2 and never create `runs`, and our migrations would bump a number the Rust rtk reads.
So rtk (Python) keeps its own file (`paths.OWN_DB_NAME`). A history of ours found at the old,
shared place is recognised by its schema (a `runs` table with our columns) and copied into our
file once; the old file is removed only when nothing but our tables is in it. A file someone
points `RTK_DB_PATH` at that holds the Rust rtk's tables is never written: our runs go to a
sibling file. Every look at a file that may be foreign opens it read-only (`mode=ro`).
"""
from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from rtk import paths

BASE_COLUMNS = frozenset({"timestamp", "command", "command_key", "filter", "raw_tokens", "printed_tokens",
                          "saved_tokens", "exit_code", "project"})
RUST_TABLE = "commands"
Migrate = Callable[[sqlite3.Connection], None]  # history.migrate: our schema, passed in (no cycle)
Log = Callable[[str], None]                       # history.log_error


def ro_uri(path: Path | str) -> str:
    return f"file:{quote(str(path))}?mode=ro"


def tables(path: Path) -> dict[str, set[str]] | None:
    """Table name -> its columns, read without writing a byte; None when absent or unreadable."""
    if not path.is_file() or path.stat().st_size == 0:
        return None
    try:
        conn = sqlite3.connect(ro_uri(path), uri=True, timeout=5)
    except sqlite3.Error:
        return None
    try:
        names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: {row[1] for row in conn.execute(f"PRAGMA table_info('{name}')")}
                for name in names if not name.startswith("sqlite_")}
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def kind(found: dict[str, set[str]] | None) -> str:
    """`ours`, `rust` (the Rust rtk's alone), `shared` (both tools' tables), `other`, or `new`."""
    if not found:
        return "new"
    has_ours = BASE_COLUMNS <= found.get("runs", set())
    if has_ours:  # tables a later migration of ours adds are ours too: only the Rust rtk's make it shared
        return "shared" if RUST_TABLE in found else "ours"
    return "rust" if RUST_TABLE in found else "other"


def sibling(path: Path) -> Path:
    return path.with_name(f"{path.stem}-rtk-python{path.suffix or '.db'}")


def resolve(path: Path, migrate: Migrate, log: Log) -> Path:
    """The file our runs go to, given the one configured; adopts a history of ours left at the
    shared place on the way. Never raises: problems surface when the file is opened."""
    try:
        if str(path) == paths.default_db_path_str():
            if not path.exists():
                adopt(path, Path(paths.shared_db_path_str()), migrate, log)
            return path
        found = kind(tables(path))
        if found in ("rust", "shared", "other"):
            target = sibling(path)
            if found == "shared" and not target.exists():
                adopt(target, path, migrate, log)
            return target
    except OSError:
        pass
    return path


def adopt(target: Path, old: Path, migrate: Migrate, log: Log) -> bool:
    """Copy our runs from `old` into a new `target` (atomically: built aside, then linked so a
    racing process cannot overwrite it). `old` is deleted only when it held our tables alone."""
    found = kind(tables(old))
    if found not in ("ours", "shared"):
        return False
    paths.private_dir(target.parent)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.adopting")
    tmp.unlink(missing_ok=True)
    try:
        _copy_runs(tmp, old, migrate)
        os.link(tmp, target)
    except FileExistsError:
        return False  # another rtk adopted it first
    except (sqlite3.Error, OSError) as exc:
        log(f"{old}: the history of rtk (Python) there could not be moved to {target} "
                          f"({exc}); it is left in place")
        return False
    finally:
        tmp.unlink(missing_ok=True)
    if found == "ours" and kind(tables(old)) == "ours":
        for victim in (old, Path(f"{old}-wal"), Path(f"{old}-shm")):
            victim.unlink(missing_ok=True)
    return True


def _copy_runs(tmp: Path, old: Path, migrate: Migrate) -> None:
    os.close(paths.open_private(tmp, os.O_WRONLY))
    conn = sqlite3.connect(f"file:{quote(str(tmp))}", uri=True, isolation_level=None)
    try:
        migrate(conn)
        conn.execute("ATTACH DATABASE ? AS old", (ro_uri(old),))
        ours = {row[1] for row in conn.execute("PRAGMA main.table_info('runs')")}
        theirs = {row[1] for row in conn.execute("PRAGMA old.table_info('runs')")}
        columns = ", ".join(sorted(ours & theirs))
        conn.execute(f"INSERT INTO main.runs ({columns}) SELECT {columns} FROM old.runs ORDER BY id")
        conn.execute("DETACH DATABASE old")
    finally:
        conn.close()
