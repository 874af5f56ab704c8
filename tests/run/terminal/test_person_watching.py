"""Progress and colours only when a person watches: in a real pty, an agent's marker, CI,
TERM=dumb or a stdin that is no terminal silence the status line and the colours; RTK_PROGRESS
overrides the status line both ways."""
from __future__ import annotations

import re
from pathlib import Path

import pexpect
import pytest

from rtk.run.terminal import AGENT_MARKERS, agent_marker
from tests.conftest import rtk_executable
from tests.run.terminal.conftest import STATUS_RE, TIMEOUT, person_env, run_to_end, spawn_rtk

SLOW_COLOURED = """
import sys, time
for i in range(3):
    print(f"\\x1b[32mstep {i}\\x1b[0m tty={sys.stdout.isatty()}", flush=True)
    time.sleep(0.6)
"""
REDRAW = "\x1b[K"


@pytest.mark.parametrize("marker", [
    {"CLAUDECODE": "1"}, {"CURSOR_AGENT": "1"}, {"CODEX_SANDBOX": "seatbelt"}, {"GEMINI_CLI": "1"},
    {"COPILOT_CLI": "1"}, {"WINDSURF_CASCADE_TERMINAL": "1"}, {"AI_AGENT": "aider"},
    {"CURSOR_TRACE_ID": "abc", "PAGER": "head -n 10000 | cat"}, {"CI": "true"}, {"TERM": "dumb"},
])
def test_no_status_line_and_no_colours_when_a_machine_reads_the_pty(script, tmp_path: Path,
                                                                    marker: dict[str, str]) -> None:
    output, status = run_to_end(spawn_rtk(script("slow.py", SLOW_COLOURED), tmp_path, marker))
    assert status == 0
    assert not STATUS_RE.search(output) and REDRAW not in output
    assert "\x1b[" not in output  # no colours either
    assert "step 2 tty=False" in output  # and the child had pipes, so it wrote no terminal codes


def test_a_person_gets_the_status_line_and_colours(script, tmp_path: Path) -> None:
    output, status = run_to_end(spawn_rtk(script("slow.py", SLOW_COLOURED), tmp_path))
    assert status == 0
    assert STATUS_RE.search(output) and "\x1b[32mstep 0" in output and "tty=True" in output


def test_rtk_progress_1_draws_even_under_an_agent(script, tmp_path: Path) -> None:
    env = {"CLAUDECODE": "1", "RTK_PROGRESS": "1"}
    output, status = run_to_end(spawn_rtk(script("slow.py", SLOW_COLOURED), tmp_path, env))
    assert status == 0
    assert STATUS_RE.search(output)
    assert "\x1b[32m" not in output  # the override is for the status line only


def test_rtk_progress_0_silences_a_person_s_status_line(script, tmp_path: Path) -> None:
    output, status = run_to_end(spawn_rtk(script("slow.py", SLOW_COLOURED), tmp_path, {"RTK_PROGRESS": "0"}))
    assert status == 0
    assert not STATUS_RE.search(output) and "\x1b[32mstep 0" in output


def test_no_status_line_when_stdin_is_no_terminal(script, tmp_path: Path) -> None:
    argv = " ".join([*rtk_executable(), *script("slow.py", SLOW_COLOURED)])
    child = pexpect.spawn("/bin/sh", ["-c", f"{argv} < /dev/null"], cwd=str(tmp_path), env=person_env(),
                          timeout=TIMEOUT, encoding="utf-8")
    output, status = run_to_end(child)
    assert status == 0
    assert not STATUS_RE.search(output) and not re.search(r"\x1b\[[0-9;]*m", output)


def test_agent_markers() -> None:
    assert agent_marker({}) is None
    assert agent_marker({"CLAUDECODE": "1"}) == "CLAUDECODE"
    assert agent_marker({"CLAUDECODE": "0", "AGENT": ""}) is None  # set to a false word: not marked
    assert agent_marker({"CURSOR_TRACE_ID": "x"}) is None  # a person in Cursor's own terminal
    assert all(agent_marker({name: "1"}) == name for name in AGENT_MARKERS)
