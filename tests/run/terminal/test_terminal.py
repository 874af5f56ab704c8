"""rtk at a terminal: the child runs in a pty, a status line shows while it runs, Ctrl-C and
window resizes reach the child; and none of it when stdout is not a terminal."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pexpect

from tests.conftest import rtk_executable
from tests.run.terminal.conftest import STATUS_RE, TIMEOUT, final_screen, run_to_end, spawn_rtk

SLOW = """
import sys, time
for i in range(2):
    print(f"step {i} tty={sys.stdout.isatty()} err_tty={sys.stderr.isatty()}", flush=True)
    time.sleep(1.2)
print("done", flush=True)
"""
COLOURS = """
import os, sys
print("pager:", os.environ.get("PAGER"), os.environ.get("GIT_PAGER"), flush=True)
print("\\x1b[31mred alert\\x1b[0m" if sys.stdout.isatty() else "no terminal", flush=True)
print("\\x1b[1;33mwarning on stderr\\x1b[0m" if sys.stderr.isatty() else "no terminal", file=sys.stderr)
"""
ALWAYS_ANSI = """
import sys, time
print("\\x1b[32mgreen\\x1b[0m tty=" + str(sys.stdout.isatty()), flush=True)
time.sleep(0.8)
print("\\x1b[31mred\\x1b[0m", flush=True)
"""
WAIT_FOR_CTRL_C = """
import os, signal, time
heard = []
signal.signal(signal.SIGINT, lambda *_: heard.append(1))
print(f"child pid {os.getpid()}", flush=True)
deadline = time.monotonic() + 60
while not heard and time.monotonic() < deadline:
    time.sleep(0.05)
time.sleep(0.5)  # a second SIGINT, if any, arrives meanwhile
print(f"child interrupted {len(heard)} time(s)", flush=True)
raise SystemExit(1)
"""
PROMPT = """
import os, time
while not os.path.exists("status-seen"):  # the test saw the status line: no race with a loaded machine
    time.sleep(0.02)
tty = os.open("/dev/tty", os.O_RDWR)
os.write(tty, b"Username: ")
name = os.read(tty, 100).decode().strip()
print(f"hello {name}", flush=True)
"""
WATCH_SIZE = """
import os, signal, time
start = os.get_terminal_size(1)
changed = []
def show(*_):
    size = os.get_terminal_size(1)
    print(f"size {size.lines}x{size.columns}", flush=True)
    if size != start:
        changed.append(size)
signal.signal(signal.SIGWINCH, show)
show()
deadline = time.monotonic() + 20
while not changed and time.monotonic() < deadline:
    time.sleep(0.05)
"""


def test_status_line_shows_while_the_command_runs_and_is_gone_at_the_end(script, tmp_path: Path) -> None:
    child = spawn_rtk(script("slow.py", SLOW), tmp_path)
    child.expect(r"\d+\.\ds  python\S* \S+")  # elapsed time, command (and the filter's counters, if any)
    assert "done" not in (child.before or "")  # visible while the child sleeps
    output, status = run_to_end(child)
    assert status == 0
    screen = [row for row in final_screen(output) if row]
    assert screen == ["step 0 tty=True err_tty=True", "step 1 tty=True err_tty=True", "done"]


def test_no_progress_flag_and_variable_silence_the_status_line(script, tmp_path: Path) -> None:
    argv = script("slow.py", SLOW.replace("1.2", "0.5"))
    for args, env in ((["--no-progress", *argv], None), (argv, {"RTK_NO_PROGRESS": "1"})):
        output, status = run_to_end(spawn_rtk(args, tmp_path, env))
        assert status == 0
        assert not STATUS_RE.search(output) and "\x1b[K" not in output
        assert "step 1 tty=True" in output


def test_kept_lines_keep_the_child_colours(script, tmp_path: Path) -> None:
    output, status = run_to_end(spawn_rtk(script("colours.py", COLOURS), tmp_path, {"PAGER": "less"}))
    assert status == 0
    assert "\x1b[31mred alert" in output
    assert "pager: cat cat" in output  # a pager cannot work behind a filter
    assert "\x1b[1;33mwarning on stderr" in output


def test_no_color_prints_the_kept_lines_plain(script, tmp_path: Path) -> None:
    output, status = run_to_end(spawn_rtk(script("colours.py", COLOURS), tmp_path, {"NO_COLOR": "1"}))
    assert status == 0
    assert "red alert" in output and "warning on stderr" in output
    assert not re.search(r"\x1b\[[0-9;]*m", output)


def test_no_tty_flag_gives_the_child_pipes(script, tmp_path: Path) -> None:
    argv = ["--no-tty", *script("colours.py", COLOURS)]
    output, status = run_to_end(spawn_rtk(argv, tmp_path, {"PAGER": "less", "GIT_PAGER": "more"}))
    assert status == 0
    assert output.count("no terminal") == 2
    assert "pager: less more" in output  # pipes: the environment is untouched


def test_piped_stdout_gets_no_status_line_and_no_ansi(script, tmp_path: Path) -> None:
    argv = " ".join(script("ansi.py", ALWAYS_ANSI))
    rtk = " ".join(rtk_executable())
    child = pexpect.spawn("/bin/sh", ["-c", f"{rtk} {argv} | cat"], cwd=str(tmp_path),
                          timeout=TIMEOUT, encoding="utf-8")  # rtk's stderr stays the terminal
    output, status = run_to_end(child)
    assert status == 0
    assert "green tty=False" in output and "red" in output
    assert "\x1b" not in output and not STATUS_RE.search(output)


def test_ctrl_c_reaches_the_child_once_and_rtk_exits_with_its_code(script, tmp_path: Path) -> None:
    child = spawn_rtk(script("wait.py", WAIT_FOR_CTRL_C), tmp_path)
    child.expect(r"child pid (\d+)")
    pid = int(child.match.group(1))
    child.sendintr()
    output, status = run_to_end(child)
    assert status == 1  # the child handled SIGINT and exited 1: its code, not 130
    assert "child interrupted 1 time(s)" in output  # once: from the terminal, not again from rtk
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)


def test_window_resize_reaches_the_child(script, tmp_path: Path) -> None:
    child = spawn_rtk(script("size.py", WATCH_SIZE), tmp_path, size=(24, 80))
    child.expect("size 24x80")  # the pty started with rtk's window size
    child.setwinsize(40, 100)
    child.expect("size 40x100")
    _, status = run_to_end(child)
    assert status == 0


def test_a_prompt_on_the_terminal_is_not_wiped_by_the_status_line(script, tmp_path: Path) -> None:
    child = spawn_rtk(script("prompt.py", PROMPT), tmp_path)
    child.expect(STATUS_RE)  # drawn while the child is still silent
    (tmp_path / "status-seen").touch()
    child.expect("Username: ")
    try:  # the status line would have been redrawn several times by now
        later = child.read_nonblocking(4096, timeout=0.6)
    except pexpect.TIMEOUT:
        later = ""
    assert "\r" not in later and "\x1b[K" not in later
    child.sendline("bob")
    output, status = run_to_end(child)
    assert status == 0
    screen = final_screen(output)
    assert "hello bob" in screen and any(row.endswith("Username: bob") for row in screen)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not Path(f"/proc/{pid}/stat").read_text().split(")")[-1].strip().startswith("Z")
