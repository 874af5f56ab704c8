"""What the latency benchmarks share: which interpreter a console script runs, and what it imports."""
from __future__ import annotations

import sys


def script_note(script: str) -> str:
    """Older pip writes console scripts that `import re` (~5 ms rtk cannot avoid); newer pip does not."""
    with open(script, "rb") as f:
        head = f.read(400)
    if b"\nimport re\n" in head:
        return "rtk script imports re (older pip's template): ~5 ms of every run is the script's"
    return "rtk script: no re import"


def interpreter_of(script: str) -> str:
    with open(script, "rb") as f:
        first = f.readline()
    return first[2:].decode().strip() if first.startswith(b"#!") else sys.executable
