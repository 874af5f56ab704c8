"""`rtk python -m pytest` end to end: the installed rtk runs real pytest on a generated project."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tests.conftest import rtk_executable

SAMPLE = '''
    import pytest


    @pytest.fixture
    def broken_db():
        raise ConnectionError("database is down")


    def add(a, b):
        return a - b


    def test_passes():
        assert add(0, 0) == 0


    @pytest.mark.parametrize("a, b, total", [(1, 1, 2), (0, 0, 0)])
    def test_add(a, b, total):
        print(f"adding {a} and {b}")
        assert add(a, b) == total


    def test_needs_db(broken_db):
        pass


    @pytest.mark.skip(reason="not on this platform")
    def test_skipped():
        pass
'''


def run_rtk(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [*rtk_executable(), sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args]
    return subprocess.run(command, check=False, cwd=project, capture_output=True, text=True, timeout=120)


def write_project(root: Path, source: str) -> Path:
    (root / "test_sample.py").write_text(textwrap.dedent(source))
    return root


def test_failures_errors_and_the_summary(tmp_path: Path) -> None:
    result = run_rtk(write_project(tmp_path, SAMPLE))
    out = result.stdout
    assert result.returncode == 1, result.stderr
    assert "FAILED test_sample.py::test_add[1-1-2]" in out
    assert "> assert add(a, b) == total" in out
    assert "E       assert 0 == 2" in out
    assert "test_sample.py:21: AssertionError" in out
    assert "adding 1 and 1" in out  # captured stdout of the failing test
    assert "ERROR at setup of test_sample.py::test_needs_db" in out
    assert "ConnectionError: database is down" in out
    summary, hint = out.splitlines()[-2:]  # source context was left out: the recall hint closes the output
    assert summary.startswith("pytest: 1 failed, 2 passed, 1 skipped, 1 error in ") and hint.startswith("[full output: rtk recall ")
    assert out.index("ERROR at setup of") < out.index("FAILED test_sample.py") < out.index("pytest: 1 failed")
    for noise in ("test session starts", "PASSED", "rootdir:", "_____"):
        assert noise not in out


SLOW_SUMMARY = '''
    import time


    def pytest_terminal_summary(terminalreporter):
        time.sleep(4)  # runs after the FAILURES section, before the short summary
'''


def test_a_failure_is_printed_while_pytest_is_still_running(tmp_path: Path) -> None:
    project = write_project(tmp_path, "def test_first():\n    assert 1 == 2\n\n\n"
                                      "def test_second():\n    assert 'a' == 'b'\n")
    (project / "conftest.py").write_text(textwrap.dedent(SLOW_SUMMARY))
    command = [*rtk_executable(), sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
    with subprocess.Popen(command, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as proc:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        printed_at = time.monotonic()
        rest = proc.stdout.read()
    assert first == "FAILED test_sample.py::test_first\n"
    assert time.monotonic() - printed_at > 2, "the first failure came only at the end of the run"
    assert "FAILED test_sample.py::test_second" in rest
    assert proc.returncode == 1


def test_a_passing_run_is_one_line(tmp_path: Path) -> None:
    project = write_project(tmp_path, SAMPLE.replace("a - b", "a + b").replace("raise ConnectionError", "return"))
    result = run_rtk(project, "-v")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("pytest: 4 passed, 1 skipped in ")
    assert len(result.stdout.splitlines()) == 1


def test_no_tests_collected_exits_5_with_one_line(tmp_path: Path) -> None:
    result = run_rtk(write_project(tmp_path, SAMPLE), "-k", "no_such_test")
    assert result.returncode == 5
    assert result.stdout == "pytest: no tests collected (5 deselected)\n"


def test_usage_errors_pass_through_with_their_exit_code(tmp_path: Path) -> None:
    result = run_rtk(write_project(tmp_path, SAMPLE), "--no-such-option")
    assert result.returncode == 4
    assert "unrecognized arguments: --no-such-option" in result.stderr + result.stdout
