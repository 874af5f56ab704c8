"""The installed `rtk` as an agent meets it: exit codes, streams, bad input, signals."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import rtk_executable

PY = sys.executable


def rtk(*args: str, input: bytes | None = None, env: dict[str, str] | None = None,
        timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*rtk_executable(), *args], input=input, capture_output=True,
                          timeout=timeout, env={**os.environ, **(env or {})}, check=False)


@pytest.mark.parametrize("code", [0, 1, 2, 3, 7, 42, 100, 125, 126, 127, 128, 129, 130, 141, 200, 254, 255])
def test_exit_code_is_the_childs(code: int) -> None:
    assert rtk(PY, "-c", f"import sys; print('x'); sys.exit({code})").returncode == code


def test_missing_command_is_127_with_one_line() -> None:
    result = rtk("no-such-command-rtk-test", "--flag")
    assert result.returncode == 127
    assert result.stderr.decode() == "rtk: no-such-command-rtk-test: command not found\n"


def test_not_executable_is_126(tmp_path: Path) -> None:
    script = tmp_path / "script.sh"
    script.write_text("echo hi\n")
    result = rtk(str(script))
    assert result.returncode == 126
    assert b"Permission denied" in result.stderr and b"Traceback" not in result.stderr


def test_killed_child_maps_to_128_plus_signal() -> None:
    result = rtk(PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    assert result.returncode == 128 + signal.SIGKILL


def test_argv_is_passed_exactly() -> None:
    args = ["a b", "$HOME", "*", "'q'", "", "--x=1"]
    result = rtk(PY, "-c", "import sys, json; print(json.dumps(sys.argv[1:]))", *args)
    assert result.stdout.decode().strip() == __import__("json").dumps(args)


def test_stdin_reaches_the_child() -> None:
    result = rtk("cat", input=b"from stdin\n")
    assert result.stdout == b"from stdin\n"


def test_stderr_stays_on_stderr() -> None:
    result = rtk(PY, "-c", "import sys; print('out'); print('err', file=sys.stderr)")
    assert result.stdout == b"out\n" and result.stderr == b"err\n"


def test_binary_and_invalid_utf8_never_crash() -> None:
    result = rtk(PY, "-c", "import sys, os; sys.stdout.buffer.write(os.urandom(20000) + b'\\nend\\n')")
    assert result.returncode == 0 and b"Traceback" not in result.stderr
    body, marker = result.stdout.rstrip(b"\n").rsplit(b"\n", 1)
    assert body.endswith(b"\nend")
    assert re.fullmatch(rb"\[rtk: invalid UTF-8 in the output is shown as U\+FFFD; exact bytes: rtk recall [0-9a-f]+\]",
                        marker)


def test_repeated_lines_are_collapsed_by_the_generic_filter() -> None:
    result = rtk("sh", "-c", "echo header; i=0; while [ $i -lt 500 ]; do echo 'same line'; i=$((i+1)); done; echo footer")
    out = result.stdout.decode()
    assert out.startswith("header\nsame line\n(x500)\nfooter\n")
    assert out.count("same line") == 1
    hint = out.splitlines()[-1]  # 499 copies left out: the raw output is kept, and named
    assert re.fullmatch(r"\[full output: rtk recall [0-9a-f]+\]", hint)


def test_proxy_passes_bytes_untouched() -> None:
    payload = b"\x1b[31mred\x1b[0m\r\n" + b"same\n" * 100
    result = rtk("proxy", PY, "-c", f"import sys; sys.stdout.buffer.write({payload!r})")
    assert result.stdout == payload


def test_run_with_a_forced_filter() -> None:
    result = rtk("run", "--filter", "generic", "--", PY, "-c", "print('\\x1b[32mgreen\\x1b[0m')")
    assert result.stdout == b"green\n"


def test_run_with_an_unknown_filter_is_a_usage_error() -> None:
    result = rtk("run", "--filter", "nope", "--", "true")
    assert result.returncode == 2 and result.stderr.startswith(b"rtk: ")


def test_disabled_runs_raw() -> None:
    payload = "x\n" * 50
    result = rtk(PY, "-c", f"print({payload!r}, end='')", env={"RTK_DISABLED": "1"})
    assert result.stdout.decode() == payload


def test_broken_config_warns_once_and_runs(hermetic_rtk: Path) -> None:
    config = hermetic_rtk / "config" / "rtk" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[tracking\nenabled = maybe\n")
    result = rtk("echo", "still runs")
    assert result.returncode == 0 and result.stdout == b"still runs\n"
    assert result.stderr.count(b"\n") == 1 and str(config).encode() in result.stderr


def test_closed_reader_ends_rtk_quietly() -> None:
    shell = f"{' '.join(rtk_executable())} seq 1 100000000 | head -2"
    started = time.monotonic()
    result = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True, timeout=60,
                            check=False)
    assert result.stdout == b"1\n2\n" and result.stderr == b""
    assert result.returncode == 141 and time.monotonic() - started < 30


def test_output_streams_while_the_child_runs() -> None:
    code = "import time\nfor i in range(40): print('line', i, flush=True)\ntime.sleep(30)"
    proc = subprocess.Popen([*rtk_executable(), PY, "-c", code], stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        started = time.monotonic()
        first = proc.stdout.readline()
        assert first == b"line 0\n" and time.monotonic() - started < 15
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 130


def test_ctrl_c_reaches_the_child_and_exits_130(tmp_path: Path) -> None:
    marker = tmp_path / "child-got-sigint"
    code = ("import signal, sys, time\n"
            f"def h(*a): open({str(marker)!r}, 'w').close(); sys.exit(130)\n"
            "signal.signal(signal.SIGINT, h)\nprint('ready', flush=True)\ntime.sleep(60)")
    proc = subprocess.Popen([*rtk_executable(), PY, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"ready\n"
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=20) == 130
    assert marker.exists()


def test_pipe_chooses_the_filter_like_the_runner() -> None:
    result = rtk("pipe", "--cmd", "some-unknown-tool --x", input=b"a\n" + b"b\n" * 50)
    out = result.stdout.decode()
    assert result.returncode == 0 and out.startswith("a\nb\n") and "(x50)" in out
    assert out.count("b") <= 2


def test_pipe_without_a_choice_is_a_usage_error() -> None:
    result = rtk("pipe", input=b"")
    assert result.returncode == 2 and b"Traceback" not in result.stderr


def test_filters_lists_every_registered_filter() -> None:
    from rtk.filters.registry import REGISTRY

    out = rtk("filters").stdout.decode()
    assert all(line.split()[0] in REGISTRY for line in out.splitlines())
    assert len(out.splitlines()) == len(REGISTRY)


def test_version() -> None:
    from rtk import __version__

    assert rtk("--version").stdout.decode().strip() == f"rtk {__version__}"


def test_recall_of_an_unknown_id() -> None:
    result = rtk("recall", "deadbeef")
    assert result.returncode == 1 and result.stderr == b"rtk: no recall entry deadbeef\n"


def test_recall_list_when_empty() -> None:
    assert rtk("recall", "--list").stdout == b"no recall entries\n"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie still answers kill(0)
        return stat.read().split(") ")[-1][0] != "Z"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_signals_reach_the_child_and_leave_nothing_behind(sig: int) -> None:
    code = "import os, time; print(os.getpid(), flush=True); time.sleep(60)"
    proc = subprocess.Popen([*rtk_executable(), PY, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    child = int(proc.stdout.readline())
    proc.send_signal(sig)
    assert proc.wait(timeout=20) == 128 + sig
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


def test_child_ignoring_sigterm_is_killed_after_the_grace_period() -> None:
    code = ("import os, signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "print(os.getpid(), flush=True); time.sleep(120)")
    proc = subprocess.Popen([*rtk_executable(), PY, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    child = int(proc.stdout.readline())
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGKILL  # the child's own status: killed after the grace
    assert not _alive(child)


def test_a_200_mb_output_streams_through_whole(tmp_path: Path) -> None:
    line = b"%09d some varied text for the generic filter\n"
    big = tmp_path / "big.txt"
    with open(big, "wb") as handle:
        handle.writelines(b"".join(line % (block * 1000 + i) for i in range(1000)) for block in range(4000))
    size = big.stat().st_size
    proc = subprocess.Popen([*rtk_executable(), "run", "--filter", "generic", "--", "cat", str(big)],
                            stdout=subprocess.PIPE)
    assert proc.stdout is not None
    received, last = 0, b""
    while chunk := proc.stdout.read(1 << 20):
        received += len(chunk)
        last = chunk
    assert proc.wait(timeout=120) == 0
    assert size >= 200_000_000 and received == size
    assert last.endswith(line % 3_999_999)


def test_a_grandchild_holding_the_pipe_does_not_keep_a_signalled_rtk_alive() -> None:
    code = ("import subprocess, time\n"
            "worker = subprocess.Popen(['sleep', '120'])\n"
            "print(worker.pid, flush=True)\n"
            "time.sleep(120)")
    proc = subprocess.Popen([*rtk_executable(), PY, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    worker = int(proc.stdout.readline())
    try:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 128 + signal.SIGTERM
    finally:
        os.kill(worker, signal.SIGKILL)
