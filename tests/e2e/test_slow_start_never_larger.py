"""Never larger, also for a command slow to start (issue 34).

A failing-conftest pytest run printed 35 bytes more than its raw output: the 1-second hold that
lets a short output print as the smaller of raw and filtered was counted from the launch, so a
command that spent that second importing (a conftest, on a loaded machine) had its short output
streamed, summary line added. The hold now counts from the first output. Each case replays a real
captured output after a pause longer than the hold, through the installed `rtk`.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import rtk_executable
from tests.filters.fixture_cases import FIXTURES, Case

PAUSE = 1.3  # seconds before the first byte: longer than rtk's hold (pipeline.HOLD_SECONDS)
CASES = ["pytest/itsd_conftest_ignores_everything_q", "pytest/exit5_no_tests_q", "go/test_build_error",
         "ruff/check_missing_path"]
SLOW = "import sys, time; time.sleep({pause}); sys.stdout.buffer.write(open(sys.argv[1], 'rb').read()); sys.exit({code})"


@pytest.mark.parametrize("case_id", CASES)
def test_a_slow_start_still_prints_no_more_than_raw(case_id: str) -> None:
    case = Case(FIXTURES / case_id)
    tool = Path(case_id).parent.name
    script = SLOW.format(pause=PAUSE, code=case.exit_code)
    result = subprocess.run([*rtk_executable(), "run", "-f", tool, "--", sys.executable, "-c", script,
                             str(case.path / "raw.txt")], capture_output=True, timeout=60, check=False)
    assert result.returncode == case.exit_code
    assert len(result.stdout) + len(result.stderr) <= len(case.raw), result.stdout.decode()
