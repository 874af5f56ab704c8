"""Inside a read-only sandbox (Codex's default) rtk prints nothing of its own: a data dir that
cannot be written (EROFS, EACCES, EPERM) costs the tracking silently; other errors still say so."""
from __future__ import annotations

import errno
from pathlib import Path

import pytest

from rtk.track import accounting


def _record() -> accounting.RunRecord:
    return accounting.RunRecord(**{name: None for name in accounting.RunRecord.FIELDS})


@pytest.mark.parametrize(("code", "lines"), [(errno.EROFS, 0), (errno.EACCES, 0), (errno.EPERM, 0),
                                             (errno.ENOSPC, 1)])
def test_tracking_skipped_line_only_outside_a_sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str], code: int,
                                                      lines: int) -> None:
    def refuse(self: accounting.Accountant, record: accounting.RunRecord) -> None:
        raise OSError(code, "refused", str(tmp_path))

    monkeypatch.setattr(accounting.Accountant, "_write_job", refuse)
    tracker = accounting.Accountant(["git", "status"], "git", tmp_path / "queue", 90)
    tracker.finish(_record())
    assert len(capsys.readouterr().err.splitlines()) == lines
