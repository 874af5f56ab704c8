"""rtk at a terminal acts as a job-control shell for its child: the child's group is the terminal's
foreground (Ctrl-C reaches it once and its own exit code comes back), Ctrl-Z stops the job and
`fg` continues it, and a child that reads the terminal while rtk's stdout is a pipe still can."""
from __future__ import annotations

import io
from pathlib import Path

import pexpect

from tests.conftest import rtk_executable
from tests.run.terminal.conftest import TIMEOUT, person_env, run_to_end, spawn_rtk

FOREGROUND = """
import os
print("foreground" if os.tcgetpgrp(0) == os.getpgrp() else "background", flush=True)
"""
HANDLES_CTRL_C = """
import signal, sys, time
signal.signal(signal.SIGINT, lambda *_: sys.exit(2))
print("ready", flush=True)
time.sleep(60)
"""
TICKS = "import time\nfor i in range(200):\n    print('tick', i, flush=True)\n    time.sleep(0.2)\n"
PROMPT = """
import os
tty = os.open("/dev/tty", os.O_RDWR)
os.write(tty, b"Username: ")
print("hello", os.read(tty, 100).decode().strip(), flush=True)
"""


def test_the_child_holds_the_terminal(script, tmp_path: Path) -> None:
    output, status = run_to_end(spawn_rtk(script("fg.py", FOREGROUND), tmp_path))
    assert status == 0 and "foreground" in output


def test_ctrl_c_gives_the_child_s_own_exit_code(script, tmp_path: Path) -> None:
    child = spawn_rtk(script("int.py", HANDLES_CTRL_C), tmp_path)
    child.expect("ready")
    child.sendintr()
    _, status = run_to_end(child)
    assert status == 2  # what pytest does on Ctrl-C; not 130


def test_ctrl_z_stops_the_job_and_fg_continues_it(script, tmp_path: Path) -> None:
    argv = " ".join([*rtk_executable(), *script("ticks.py", TICKS)])
    shell = pexpect.spawn("bash", ["--norc", "--noprofile", "-i"], cwd=str(tmp_path),
                          env=person_env({"PS1": "PROMPT$ "}), timeout=TIMEOUT, encoding="utf-8")
    shell.logfile_read = io.StringIO()
    shell.expect_exact("PROMPT$ ")
    shell.sendline(argv)
    shell.expect("tick 2")
    shell.sendcontrol("z")
    shell.expect("Stopped")
    shell.expect_exact("PROMPT$ ")  # the shell has the terminal back
    shell.sendline("fg")
    shell.expect(r"tick (\d+)")
    shell.expect(r"tick (\d+)")  # ticking again after fg
    shell.sendintr()
    shell.expect_exact("PROMPT$ ")
    shell.sendline("echo code=$?")
    shell.expect(r"code=(\d+)")
    assert shell.match.group(1) == "130"  # the child died of the Ctrl-C
    shell.sendline("exit")
    shell.expect(pexpect.EOF)


def test_a_prompt_works_when_stdout_is_a_pipe(script, tmp_path: Path) -> None:
    """`rtk cmd | cat`: rtk's job keeps the terminal; the child asking for it gets it."""
    argv = " ".join([*rtk_executable(), *script("prompt.py", PROMPT)])
    child = pexpect.spawn("/bin/sh", ["-c", f"{argv} | cat"], cwd=str(tmp_path), env=person_env(),
                          timeout=TIMEOUT, encoding="utf-8")
    child.expect("Username: ")
    child.sendline("bob")
    output, status = run_to_end(child)
    assert status == 0 and "hello bob" in (child.before or "") + output
