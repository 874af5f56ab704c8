"""A sandbox that refuses trio's wakeup socket options (Codex's default read-only sandbox:
`setsockopt(SO_RCVBUF)` -> EPERM) must not cost the command its output or its exit status: the run
goes on with poll(2). Was: `rtk: internal error (PermissionError ...)`, the child killed, exit 143."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROBE = """
import errno, socket, sys
def refused(self, *args):
    raise PermissionError(errno.EPERM, "Operation not permitted")
socket.socket.setsockopt = refused
from rtk.__main__ import main
sys.exit(main(sys.argv[1:]))
"""
SLOW = ("import sys, time\n"
        "for i in range(400):\n"
        "    print(f'tests/test_x.py::test_{i} PASSED')\n"
        "    if i == 10: sys.stdout.flush(); time.sleep(0.4)\n"
        "print('1 failed, 399 passed', file=sys.stderr)\n"
        "sys.exit(5)\n")


def test_a_run_outlasting_the_fast_path_finishes_when_trio_cannot_start(tmp_path: Path) -> None:
    script = tmp_path / "slow.py"
    script.write_text(SLOW)
    result = subprocess.run([sys.executable, "-c", PROBE, "proxy", sys.executable, str(script)],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 5, result.stderr
    assert "internal error" not in result.stderr and "1 failed, 399 passed" in result.stderr
    assert result.stdout.count("PASSED") == 400


def test_a_filtered_run_keeps_its_summary_when_trio_cannot_start(tmp_path: Path) -> None:
    script = tmp_path / "slow.py"
    script.write_text(SLOW)
    result = subprocess.run([sys.executable, "-c", PROBE, "run", "--filter", "generic", "--", sys.executable,
                             str(script)], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 5 and "internal error" not in result.stderr
    assert "1 failed, 399 passed" in result.stdout + result.stderr
