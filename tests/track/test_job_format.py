"""Jobs in the queue: the run side's marshal header, older JSON-headed jobs, and broken ones."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rtk import paths
from rtk.track import accounting, worker
from rtk.track import history as tracking
from rtk.track.queue import MARSHAL_MAGIC


def recorded_commands() -> list[str]:
    if not paths.db_path().exists():
        return []
    conn = tracking.connect()
    rows = [row[0] for row in conn.execute("SELECT command FROM runs")]
    conn.close()
    return rows


def queue_with_job(tmp_path: Path, argv: list[str]) -> tuple[Path, str]:
    acc = accounting.Accountant(argv, "generic", tmp_path / "queue", 90)
    acc.raw(b"hello\nworld\n")
    acc.printed(b"hello\n")
    record = accounting.RunRecord(argv=argv, filter="generic", exit_code=0, wall_ms=3, cwd=str(tmp_path),
                                  started=1.0, raw_bytes=12, printed_bytes=6)
    return tmp_path / "queue", acc._write_job(record)


def test_the_run_side_writes_a_marshal_header_the_worker_reads(tmp_path: Path) -> None:
    _, job = queue_with_job(tmp_path, ["echo", "é 'quoted'"])
    assert Path(job).read_bytes().startswith(MARSHAL_MAGIC)
    header, inline = worker._read_job(Path(job))
    assert header["record"]["argv"] == ["echo", "é 'quoted'"] and inline == b"hello\nworld\nhello\n"
    worker.process_now(job)
    assert len(recorded_commands()) == 1 and not Path(job).exists()


def test_an_older_json_headed_job_is_still_recorded(tmp_path: Path) -> None:
    queue, job = queue_with_job(tmp_path, ["ls", "-la"])
    header, inline = worker._read_job(Path(job))
    legacy = queue / "1-2.job"
    legacy.write_bytes(json.dumps(header).encode() + b"\n" + inline)
    os.unlink(job)
    worker.process_now(legacy)
    assert len(recorded_commands()) == 1 and not legacy.exists()


@pytest.mark.parametrize("damage", [lambda data: data[:len(MARSHAL_MAGIC) + 10],
                                    lambda data: MARSHAL_MAGIC + (5).to_bytes(8, "big") + b"\xff" * 5])
def test_a_broken_job_is_logged_and_removed(tmp_path: Path, damage: object) -> None:
    _, job = queue_with_job(tmp_path, ["true"])
    Path(job).write_bytes(damage(Path(job).read_bytes()))  # type: ignore[operator]
    worker.process_now(job)
    assert recorded_commands() == [] and not Path(job).exists()
    assert "a run could not be recorded" in (tmp_path / tracking.errors_path().name).read_text()
