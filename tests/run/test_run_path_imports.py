"""The commands an agent runs most (`ls -la`, `grep -rn`, `git status`...) take a few milliseconds;
their run path, filter included, imports none of the modules that cost more than that (`re` with
`enum`, `collections`, `typing`, `subprocess`, `pathlib`...): their line readers use str methods,
and a run that keeps its raw output for `rtk recall` writes it without `json` or `gzip` (issue
22). An editable install's import hook loads `re` itself, so there the check is weaker."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SLOW = frozenset({"re", "enum", "collections", "typing", "subprocess", "pathlib", "dataclasses", "inspect",
                  "json", "shlex", "selectors", "threading", "trio", "tiktoken", "sqlite3", "gzip",
                  "operator", "functools", "contextlib", "string"})  # (`_operator`, `_functools`: built in)
# extension modules: each is a shared library to load (~0.3 ms apiece here)
SHARED_LIBRARIES = frozenset({"_blake2", "_hashlib", "fcntl", "zlib", "termios"})
PROBE = """
import sys
before = set(sys.modules)
from rtk.run import fast_finish
fast_finish.BUDGET_SECONDS = 30.0  # a loaded machine must not turn this into a timing test
from rtk.run.runner import run_command
code = run_command({argv!r})
print(repr([code, sorted(set(sys.modules) - before)]), file=sys.stderr)  # json would load re
"""
COMMANDS = [["ls", "-la"], ["ls", "-la", "many"], ["ls"], ["grep", "-rn", "needle", "."], ["wc", "-l", "a.txt"],
            ["find", ".", "-name", "*.txt"], ["diff", "a.txt", "b.txt"], ["cat", "a.txt"], ["git", "status"],
            ["true"], ["echo", "an", "unknown", "command"]]


@pytest.mark.parametrize("host", [{}, {"CLAUDECODE": "1"}], ids=["", "claude"])  # its windows, maps (issue 40)
@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_a_short_command_imports_no_slow_module(argv: list[str], host: dict[str, str], tmp_path: Path) -> None:
    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed here")
    (tmp_path / "a.txt").write_text("needle\nhay\n")
    (tmp_path / "b.txt").write_text("needle\nstraw\n")
    (tmp_path / "many").mkdir()
    for n in range(500):  # past the listing's limit: the raw output is kept for `rtk recall`
        (tmp_path / "many" / f"f{n}.txt").touch()
    if argv[0] == "git":
        subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    baseline = subprocess.run([sys.executable, "-c", "import sys; print(repr(sorted(sys.modules)))"],
                              capture_output=True, text=True, check=True)
    proc = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], cwd=tmp_path, capture_output=True,
                          text=True, check=False, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                                                       "XDG_DATA_HOME": str(tmp_path / "d"), **host})
    code, loaded = ast.literal_eval(proc.stderr.splitlines()[-1])
    assert code == (1 if argv[0] == "diff" else 0), proc.stdout
    new = set(loaded) - set(ast.literal_eval(baseline.stdout))
    assert not new & SLOW, sorted(new & SLOW)
    if "rtk recall" not in proc.stdout:  # nothing kept: no hash, no gzip; tracking's lock probe needs no fcntl
        assert not new & SHARED_LIBRARIES, sorted(new & SHARED_LIBRARIES)
