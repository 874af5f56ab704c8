"""Hook and install tests run with HOME in tmp_path: no real agent settings are read or written."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import rtk_executable


@pytest.fixture(autouse=True)
def agent_home(isolated_home: Path) -> Path:
    return isolated_home


def write_files(home: Path, files: dict[str, Any]) -> None:
    for relative, content in files.items():
        path = home / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")


def run_hook(host: str, data: bytes, extra_env: dict[str, str] | None = None,
             args: list[str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """`rtk hook HOST` exactly as an agent host runs it: payload on stdin, env and cwd inherited,
    and this rtk first on PATH (as `rtk init` expects), so rewrites name it `rtk`."""
    env = dict(os.environ, **(extra_env or {}))
    env["PATH"] = os.path.dirname(rtk_executable()[0]) + os.pathsep + env.get("PATH", "")
    return subprocess.run([*rtk_executable(), "hook", *(args or [host])], input=data, check=False,
                          capture_output=True, env=env, timeout=60)
