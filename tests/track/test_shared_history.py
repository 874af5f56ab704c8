"""Beside the Rust rtk: its history at the shared path, ours in our own file, `rtk gain` showing both.

`data/rust_rtk_history.sql` is the dump of a history.db the Rust rtk 1.1.0 created (data/ABOUT.md).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rtk import paths
from rtk.cli.gain import gain
from rtk.track import history as tracking
from rtk.track import shared_file
from tests.track.test_tracking import make_run

DATA = Path(__file__).parent / "data"


def rust_history(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.executescript((DATA / "rust_rtk_history.sql").read_text())
    conn.close()
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def record(*runs: tracking.Run, path: Path | None = None) -> None:
    conn = tracking.connect(path)
    for run in runs:
        tracking.insert(conn, run)
    conn.close()


def gain_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(gain, ["--json", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_with_the_rust_history_at_the_shared_path_ours_records_and_gain_shows_both_labelled() -> None:
    shared = rust_history(Path(paths.shared_db_path_str()))
    before = digest(shared)
    record(make_run(1), make_run(2))
    assert tracking.own_path() == paths.db_path() != shared
    data = gain_json()
    assert data["summary"]["runs"] == 2 and data["source"]["tool"] == "rtk (Python)"
    rust = data["rust_rtk"]
    assert rust["tool"] == "the Rust rtk" and rust["read_only"] is True and rust["path"] == str(shared)
    conn = sqlite3.connect(shared)
    saved = conn.execute("SELECT SUM(saved_tokens) FROM commands").fetchone()[0]
    conn.close()
    assert rust["summary"]["runs"] == 5 and rust["summary"]["saved_tokens"] == saved
    assert [c["command"] for c in rust["by_command"]][:2] == ["ls", "git status"]
    assert digest(shared) == before  # read with mode=ro: not a byte written
    text = CliRunner().invoke(gain, []).stdout
    assert "rtk (Python) (" in text and "the Rust rtk (read-only: " in text and "both tools: 7 runs" in text


def test_every_view_of_the_rust_history_and_csv_says_whose_row() -> None:
    rust_history(Path(paths.shared_db_path_str()))
    record(make_run(1))
    history = gain_json("--history", "-n", "2")["rust_rtk"]["history"]
    assert [h["command"] for h in history] == ["git status", "grep -rn def rtk/gain"]
    assert history[0]["exit_code"] is None and history[0]["timestamp"].endswith("Z")
    assert gain_json("--daily")["rust_rtk"]["daily"][0]["runs"] == 5
    assert "rust_rtk" not in gain_json("--failures")  # its failures are not in that table
    rows = CliRunner().invoke(gain, ["--monthly", "--format", "csv"]).stdout.splitlines()
    assert rows[0].startswith("source,month,") and rows[1].startswith("rtk-python,")
    assert rows[2].startswith("rust-rtk,2026-12,5,")


def test_an_older_rust_history_without_the_later_columns_still_reads(tmp_path: Path) -> None:
    shared = Path(paths.shared_db_path_str())
    shared.parent.mkdir(parents=True)
    conn = sqlite3.connect(shared)
    conn.execute("CREATE TABLE commands (id INTEGER PRIMARY KEY, timestamp TEXT NOT NULL, original_cmd TEXT "
                 "NOT NULL, rtk_cmd TEXT NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT "
                 "NULL, saved_tokens INTEGER NOT NULL, savings_pct REAL NOT NULL)")
    conn.execute("INSERT INTO commands VALUES (1, '2026-02-01T10:00:00.5+00:00', 'git status', "
                 "'rtk git status', 40, 10, 30, 75.0)")
    conn.commit()
    conn.close()
    rust = gain_json("--since", "2026-01-01")["rust_rtk"]
    assert rust["summary"]["runs"] == 1 and rust["summary"]["wall_ms"] == 0


def test_our_history_at_the_old_shared_path_moves_to_our_file() -> None:
    old = Path(paths.shared_db_path_str())
    record(make_run(1), make_run(2), make_run(3), path=old)  # what rtk (Python) 1.0 wrote there
    assert shared_file.kind(shared_file.tables(old)) == "ours"
    record(make_run(4))
    assert not old.exists() and not Path(f"{old}-wal").exists()
    conn = tracking.connect()
    rows = conn.execute("SELECT command FROM runs ORDER BY id").fetchall()
    conn.close()
    assert [r[0] for r in rows] == [f"git status -s {i}" for i in (1, 2, 3, 4)]


def test_a_file_holding_both_tools_tables_gives_up_our_runs_and_keeps_the_rust_ones() -> None:
    old = rust_history(Path(paths.shared_db_path_str()))
    conn = sqlite3.connect(old)
    conn.executescript(tracking.MIGRATIONS[0])  # ours, created in the same file by an older version
    first = [name for name in tracking.COLUMNS if name not in ("via", "baseline_tokens")]  # 1.0's columns
    values = {name: value for name, value in vars(make_run(7)).items() if name in first}
    conn.execute(f"INSERT INTO runs ({', '.join(first)}) VALUES ({', '.join(':' + n for n in first)})", values)
    conn.commit()
    conn.close()
    assert shared_file.kind(shared_file.tables(old)) == "shared"
    conn = tracking.connect()  # the default file: adopts the runs from the shared one
    assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 1
    conn.close()
    assert old.exists() and "commands" in (shared_file.tables(old) or {})


def test_rtk_db_path_at_the_rust_history_writes_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rust = rust_history(tmp_path / "rust" / "history.db")
    monkeypatch.setenv("RTK_DB_PATH", str(rust))  # the variable both tools read
    before = digest(rust)
    record(make_run(1))
    assert tracking.own_path() == tmp_path / "rust" / "history-rtk-python.db"
    data = gain_json()
    assert data["summary"]["runs"] == 1 and data["rust_rtk"]["path"] == str(rust)
    assert digest(rust) == before


def test_reset_deletes_ours_and_never_the_rust_history() -> None:
    shared = rust_history(Path(paths.shared_db_path_str()))
    record(make_run(1))
    result = CliRunner().invoke(gain, ["--reset", "--yes"])
    assert result.exit_code == 0 and str(paths.db_path()) in result.stdout
    assert not paths.db_path().exists() and shared_file.kind(shared_file.tables(shared)) == "rust"


def test_an_unreadable_rust_history_is_one_note_not_a_failure() -> None:
    shared = Path(paths.shared_db_path_str())
    rust_history(shared)
    record(make_run(1))
    conn = sqlite3.connect(shared)
    conn.execute("ALTER TABLE commands RENAME COLUMN original_cmd TO something_else")
    conn.commit()
    conn.close()
    result = CliRunner().invoke(gain, [])
    assert result.exit_code == 0 and "could not be read" in result.stdout


def test_project_scope_takes_the_rust_runs_made_below_the_projects_toplevel(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    shared = rust_history(Path(paths.shared_db_path_str()))
    conn = sqlite3.connect(shared)
    conn.execute("UPDATE commands SET project_path = ? WHERE id = 1", (str(project / "src"),))
    conn.execute("UPDATE commands SET project_path = ? WHERE id = 2", (str(project),))
    conn.commit()
    conn.close()
    record(make_run(1))
    monkeypatch.chdir(project / "src")
    assert gain_json("--project")["rust_rtk"]["summary"]["runs"] == 2
