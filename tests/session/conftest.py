from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def claude_free(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No outer Claude Code session leaks in; the hook's chdir is undone after each test."""
    for var in ("CLAUDE_CODE_SESSION_ID", "CLAUDECODE", "RTK_SESSION_MEMORY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
