"""A short command completes before trio is loaded; a long one is handed over with nothing lost."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from rtk import config
from rtk.run import fast_finish
from rtk.run.child import Child
from rtk.run.output import RunOutput
from rtk.run.pty_child import spawn


def start(code: str) -> tuple[Child, dict[int, int], RunOutput]:
    spawned = spawn([sys.executable, "-c", code])
    output = RunOutput(["python"], "generic", config.load(), started=time.time(), t0=time.monotonic())
    return spawned.child, dict(spawned.fds), output


def test_a_quick_command_is_finished_without_trio(capfd: pytest.CaptureFixture[str]) -> None:
    child, fds, output = start("print('hello'); import sys; print('oops', file=sys.stderr)")
    assert fast_finish.drain(child, fds, output, [], budget=10.0)
    assert fds == {} and child.returncode == 0
    output.finish(0)
    captured = capfd.readouterr()
    assert (captured.out, captured.err) == ("hello\n", "oops\n")


def test_a_slow_command_is_handed_over_with_what_was_read(capfd: pytest.CaptureFixture[str]) -> None:
    child, fds, output = start("import time; print('first', flush=True); time.sleep(30)")
    try:
        assert not fast_finish.drain(child, fds, output, [], budget=2.0)
        assert set(fds) == {1, 2} and output.pipeline.raw_bytes == len(b"first\n")
    finally:
        child.kill()
        child.wait()


def test_a_signal_hands_over_at_once() -> None:
    child, fds, output = start("import time; time.sleep(30)")
    try:
        started = time.monotonic()
        assert not fast_finish.drain(child, fds, output, [15], budget=10.0)
        assert time.monotonic() - started < 5
    finally:
        child.kill()
        child.wait()


def test_the_fast_path_does_not_import_trio() -> None:
    code = ("import sys\n"
            "from rtk.run import fast_finish\n"
            "fast_finish.BUDGET_SECONDS = 30.0  # a loaded machine must not turn this into a timing test\n"
            "from rtk.run.runner import run_command\n"
            "code = run_command(['true'])\n"
            "print('trio' in sys.modules, code)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout.split() == ["False", "0"]
