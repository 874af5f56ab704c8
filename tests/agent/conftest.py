"""Agent tests run with this rtk first on PATH, as `rtk init` expects of an agent's environment, so
rewrites name it `rtk` (rtk/agent/program.py names it by its path otherwise)."""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from rtk.agent import program


@pytest.fixture(autouse=True)
def rtk_on_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME"):
        monkeypatch.delenv(name, raising=False)
    program.reset()
    yield
    program.reset()
