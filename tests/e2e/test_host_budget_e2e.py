"""Under Claude Code (CLAUDECODE=1) what rtk prints fits in the host's 30,000 chars (issue 33).

Past that size Claude Code shows the model a ~2 KB preview of the output, so a longer filtered
output would be worth no more than no rtk at all. These run the real `rtk` on real tools whose
filtered output is far over the limit and check what an agent then reads: at most 30,000 chars,
the failures, the summary and the recall hint; and that without the marker nothing changes."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import rtk_executable

LIMIT = 30_000
FAILING_LIMIT = 10_000
MANY_FAILURES = '''
import pytest

@pytest.mark.parametrize("n", range(300))
def test_value(n):
    expected = {f"key{i}": i for i in range(30)}
    actual = dict(expected, key7=n)
    assert actual == expected
'''


def rtk(args: list[str], cwd: Path, claude: bool, **host: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CLAUDECODE" and not k.startswith("CODEX_")}
    if claude:
        env["CLAUDECODE"] = "1"
    env.update(host)
    return subprocess.run([*rtk_executable(), *args], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def test_a_failing_pytest_run_fits_with_its_failures_and_hint(tmp_path: Path) -> None:
    (tmp_path / "test_many.py").write_text(MANY_FAILURES)
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_many.py"]
    plain = rtk(argv, tmp_path, claude=False)
    assert plain.returncode == 1 and len(plain.stdout + plain.stderr) > 2 * LIMIT  # the case is real
    folded = rtk(argv, tmp_path, claude=True)
    printed = folded.stdout + folded.stderr
    assert folded.returncode == 1
    assert len(printed) <= FAILING_LIMIT, len(printed)  # a failing command's window (issue 40)
    assert "[full output: rtk recall " in printed
    assert "[rtk: 299 failures: every id first" in printed.splitlines()[0]
    assert "test_many.py::test_value[0]" in printed  # the first failure, whole
    assert "{'key7': 0} != {'key7': 7}" in printed
    assert "pytest: 299 failed, 1 passed" in printed  # the summary


def test_a_long_file_read_fits_with_its_outline(tmp_path: Path) -> None:
    source = "\n".join(f"def function_{n}(value):\n    return value + {n}\n\n" for n in range(1500))
    (tmp_path / "big.py").write_text(source)
    plain = rtk(["cat", "big.py"], tmp_path, claude=False)
    assert ": def function_" in plain.stdout.split("not shown", 1)[1]  # 6,000 lines: outlined anyway
    folded = rtk(["cat", "big.py"], tmp_path, claude=True)
    assert len(folded.stdout) <= 6_000, len(folded.stdout)  # past the host's window: a map (issue 40)
    assert folded.stdout.startswith("[rtk: big.py: 5,999 lines, ") and "def function_0(value):" in folded.stdout
    assert "print them: sed -n '" in folded.stdout and "sed -n 'A,Bp' big.py" in folded.stdout
    assert "rtk recall " in folded.stdout.splitlines()[-1]
    assert ": def function_" in folded.stdout.split("not shown", 1)[1]  # the outline of the middle


@pytest.mark.parametrize("claude", [False, True])
def test_a_short_output_is_untouched(tmp_path: Path, claude: bool) -> None:
    (tmp_path / "small.py").write_text("print('hello')\n" * 50)
    assert rtk(["cat", "small.py"], tmp_path, claude).stdout == "print('hello')\n" * 50


def test_under_codex_a_failing_run_fits_its_10_kb_cut(tmp_path: Path) -> None:
    """Codex (it sets CODEX_THREAD_ID) keeps ~10,000 bytes of a tool output: rtk's form fits."""
    (tmp_path / "test_many.py").write_text(MANY_FAILURES)
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_many.py"]
    folded = rtk(argv, tmp_path, claude=False, CODEX_THREAD_ID="t1")
    printed = folded.stdout + folded.stderr
    assert folded.returncode == 1 and len(printed.encode()) <= 10_000, len(printed)
    assert "test_many.py::test_value[0]" in printed and "pytest: 299 failed, 1 passed" in printed
    assert "[full output: rtk recall " in printed
