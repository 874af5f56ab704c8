"""Helpers for the terminal tests: run the installed rtk in a real pseudo-terminal."""
from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from tests.conftest import rtk_executable

TIMEOUT = 30  # generous: a loaded 2-core machine may take seconds to start python + trio
STATUS_RE = re.compile(r"\d+\.\ds  ")  # the elapsed-time field of the status line


def person_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a person at a terminal: no CI, no coding agent's marker (CI sets CI=true,
    and these tests may themselves run under an agent), plus `extra`."""
    from rtk.run.terminal import AGENT_MARKERS

    machine = {"CI", "RTK_PROGRESS", "RTK_NO_PROGRESS", "CURSOR_TRACE_ID", *AGENT_MARKERS}
    base = {name: value for name, value in os.environ.items() if name not in machine}
    return {**base, "LANG": "C.UTF-8", "TERM": "xterm", **(extra or {})}


def spawn_rtk(args: list[str], cwd: Path, env: dict[str, str] | None = None,
              size: tuple[int, int] = (24, 80)) -> pexpect.spawn:
    command = rtk_executable()
    full_env = person_env(env)
    child = pexpect.spawn(command[0], [*command[1:], *args], cwd=str(cwd), env=full_env,
                          dimensions=size, timeout=TIMEOUT, encoding="utf-8", codec_errors="replace")
    child.logfile_read = io.StringIO()
    return child


def run_to_end(child: pexpect.spawn) -> tuple[str, int | None]:
    """Everything the terminal received from the start until rtk exited, and rtk's exit status."""
    child.expect(pexpect.EOF)
    child.close()
    log = child.logfile_read
    return (log.getvalue() if isinstance(log, io.StringIO) else child.before or ""), child.exitstatus


def final_screen(raw: str) -> list[str]:
    """What the terminal shows at the end: `\\r`, `\\n` and erase-line applied, colours dropped."""
    rows, row, col = [""], 0, 0
    for token in re.finditer(r"\x1b\[[0-9;?]*[ -/]*[@-~]|.", raw, re.DOTALL):
        text = token[0]
        if text == "\r":
            col = 0
        elif text == "\n":
            row += 1
            rows.extend([""] * (row + 1 - len(rows)))
        elif text.endswith("K") and text.startswith("\x1b["):
            rows[row] = rows[row][:col]
        elif not text.startswith("\x1b"):
            line = rows[row].ljust(col)
            rows[row] = line[:col] + text + line[col + 1:]
            col += 1
    return [r.rstrip() for r in rows]


@pytest.fixture
def script(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Write a python child script and return the argv that runs it."""
    def make(name: str, body: str) -> list[str]:
        path = tmp_path / name
        path.write_text(body)
        return [sys.executable, str(path)]

    return make
