"""`rtk tsc` for real: the installed rtk runs the real TypeScript compiler on a generated project.

The compiler is found through $RTK_TEST_TSC, `tsc` on PATH, or `node_modules/.bin/tsc` under the
repository root (CI runs `npm install typescript@7` there; node_modules is gitignored). The tests hold
for TypeScript 5.x (the JavaScript compiler) and 7.x (the Go-native one): exit codes are compared
with what the same compiler returns without rtk (TS 5 exits 2 for type errors, TS 7 exits 1), and
where the two word a message differently either form is accepted.
"""
from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, rtk_executable


def find_tsc() -> str | None:
    candidates = [os.environ.get("RTK_TEST_TSC"), shutil.which("tsc"), str(ROOT / "node_modules" / ".bin" / "tsc")]
    return next((c for c in candidates if c and os.access(c, os.X_OK) and Path(c).is_file()), None)


TSC = find_tsc()
pytestmark = pytest.mark.skipif(
    TSC is None or shutil.which("node") is None,
    reason="no TypeScript compiler: set RTK_TEST_TSC, put tsc on PATH or `npm install typescript` in the repo root",
)

PLAIN_ERROR = re.compile(r"^(\S+)\((\d+),(\d+)\): error (TS\d+): (.*)$", re.MULTILINE)
TSCONFIG = '{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2020"}, "include": ["src"]}\n'
SHAPES_TS = """\
export interface Shape { kind: "circle" | "square"; size: number }

export function area(shape: Shape): number {
  return shape.kind === "circle" ? Math.PI * shape.size ** 2 : shape.size ** 2;
}

export const unit: Shape = { kind: "triangle", size: 1 };
"""
MAIN_TS = """\
import { area, Shape } from "./shapes";

const big: Shape = { kind: "square", size: "10" };
console.log(area(big, 2));
console.log(area(big).toFixed("2"));
function describe(s) { return s.kind; }
export { describe };
"""


# rtk holds a short output back and prints raw output when it is the smaller (the 5 plain error
# lines here end within that hold under TS 7, not under the slower TS 5). Files one directory down
# make the grouped output the smaller, so the grouping is what is printed whatever the timing.
SRC = "src/geometry"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "e2e_ts"
    (root / SRC).mkdir(parents=True)
    (root / "tsconfig.json").write_text(TSCONFIG)
    (root / SRC / "shapes.ts").write_text(SHAPES_TS)
    (root / SRC / "main.ts").write_text(MAIN_TS)
    return root


def rtk_tsc(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert TSC is not None
    return subprocess.run([*rtk_executable(), TSC, *args], check=False, cwd=project, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_COLOR": "1"})


def direct_tsc(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert TSC is not None
    return subprocess.run([TSC, *args], check=False, cwd=project, capture_output=True, text=True, timeout=300)


def test_plain_errors_are_grouped_by_file_with_line_column_code_and_message(project: Path) -> None:
    direct = direct_tsc(project, "--pretty", "false")
    result = rtk_tsc(project, "--pretty", "false")
    assert result.returncode == direct.returncode != 0
    out = result.stdout.splitlines()
    errors = [m.groups() for m in PLAIN_ERROR.finditer(direct.stdout)]
    assert len(errors) == 5
    if result.stdout == direct.stdout:
        return  # five short lines: grouped they are not clearly smaller in tokens, so raw is printed
    for file, line, col, code, message in errors:
        entry = out.index(f"  L{line}:{col} {code} {message}")
        assert max(i for i in range(entry) if not out[i].startswith(" ")) == out.index(file)
    assert out[-1].startswith("tsc: 5 errors in 2 files (TS2322 x2, ")
    assert "error TS" not in result.stdout  # tsc's own line format is gone


def test_pretty_output_loses_its_code_frames_but_no_error(project: Path) -> None:
    errors = [m.groups() for m in PLAIN_ERROR.finditer(direct_tsc(project, "--pretty", "false").stdout)]
    result = rtk_tsc(project, "--pretty")
    assert result.returncode == direct_tsc(project, "--pretty").returncode != 0
    assert "~~~" not in result.stdout and "Found 5 errors" not in result.stdout
    assert len(errors) == 5
    for file, line, col, code, message in errors:
        assert file in result.stdout and f"L{line}:{col} {code} {message}" in result.stdout
    assert "The expected type comes from property 'size'" in result.stdout  # related information


def test_a_clean_compile_prints_no_errors_and_exits_0(project: Path) -> None:
    (project / SRC / "main.ts").write_text('import { area } from "./shapes";\nconsole.log(area({ kind: "square", size: 2 }));\n')
    (project / SRC / "shapes.ts").write_text(SHAPES_TS.replace('"triangle"', '"circle"'))
    result = rtk_tsc(project)
    assert result.returncode == direct_tsc(project).returncode == 0
    assert result.stdout.strip() in ("", "tsc: no errors")


# TS 5: `error TS5025: Unknown compiler option '--strictt'. Did you mean 'strict'?`;
# TS 7: `error TS5023: Unknown compiler option '--strictt'.` (no suggestion).
UNKNOWN_OPTION = re.compile(r"^error TS50(?:25|23): Unknown compiler option '--strictt'\.(?: Did you mean 'strict'\?)?$")


def test_an_unknown_option_is_reported_verbatim(project: Path) -> None:
    direct = direct_tsc(project, "--strictt")
    result = rtk_tsc(project, "--strictt")
    assert result.returncode == direct.returncode != 0
    assert UNKNOWN_OPTION.match(direct.stdout.strip())
    assert direct.stdout.strip() in result.stdout.splitlines()


def test_watch_cycles_are_reported_while_tsc_keeps_running(project: Path) -> None:
    assert TSC is not None
    # Its own process group, so that the end can be a Ctrl-C: see stop_like_ctrl_c.
    proc = subprocess.Popen([*rtk_executable(), TSC, "--watch", "--pretty", "false"], cwd=project,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line.rstrip("\n")) for line in proc.stdout or ()],
                     daemon=True).start()
    try:
        first = read_until(lines, "tsc: ", 120)
        assert first[-1] == "tsc: 5 errors in 2 files (TS2322 x2, TS2554 x1, TS2345 x1, TS7006 x1); " \
                            "Found 5 errors. Watching for file changes."
        assert "  L4:23 TS2554 Expected 1 arguments, but got 2." in first
        (project / SRC / "main.ts").write_text('import { area } from "./shapes";\n'
                                               'console.log(area({ kind: "square", size: 2 }));\n')
        second = read_until(lines, "tsc: ", 120)  # the error left was printed in full by the first compile
        assert second == [f"unchanged since the last compile: {SRC}/shapes.ts:7:30 TS2322",
                          "tsc: 1 error in 1 file (TS2322 x1); Found 1 error. Watching for file changes."]
        assert stop_like_ctrl_c(proc) == 130
        assert read_until(lines, "tsc: ", 30) == ["tsc: watch stopped (exit 130)"]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def stop_like_ctrl_c(proc: subprocess.Popen[str]) -> int:
    """SIGINT to the whole process group, as a terminal sends it for Ctrl-C; rtk's exit code.

    Not `proc.terminate()`: under Node < 22.15 TypeScript 7's `tsc` is a node launcher that runs
    the native compiler as a child process and does not pass signals on, so a SIGTERM that reaches
    the launcher alone (from rtk, or from anyone without rtk) leaves the compiler running, holding
    the output pipe open. rtk then keeps reading and never exits; so would `tsc --watch | cat`.
    """
    os.killpg(proc.pid, signal.SIGINT)
    return proc.wait(timeout=30)


def read_until(lines: queue.Queue[str], prefix: str, timeout: float) -> list[str]:
    """Lines rtk printed, up to and including the first one starting with `prefix`."""
    got: list[str] = []
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            got.append(lines.get(timeout=left))
        except queue.Empty:
            break
        if got[-1].startswith(prefix):
            return got
    raise AssertionError(f"no {prefix!r} line within {timeout}s; got {got}")
