"""`rtk ruff`, `rtk mypy`, `rtk python` for real on a generated package (CI: pip install ruff mypy).

Each test compares with the same tool run without rtk: the exit code is the tool's, and every
finding the tool printed (file, line, code) is still in what rtk printed.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import rtk_executable

SHOP_PY = '''\
import os, sys
from typing import List

PRICES = {  'a':1 }

def total(prices: List[int]) -> int:
    unused = 3
    return sum(prices) + "0"


def label(name: str) -> str:
    if name == None:
        return "none"
    return name.upper(1)
'''
MAIN_PY = '''\
from shop import total


def main() -> None:
    print(total({"a": 1}))


if __name__ == "__main__":
    main()
'''


@pytest.fixture
def package(tmp_path: Path) -> Path:
    (tmp_path / "shop.py").write_text(SHOP_PY)
    (tmp_path / "main.py").write_text(MAIN_PY)
    return tmp_path


def tool(name: str) -> list[str]:
    if shutil.which(name):
        return [name]
    probe = subprocess.run([sys.executable, "-m", name, "--version"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"{name} is not installed (pip install {name})")
    return [sys.executable, "-m", name]


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False, timeout=300)


def test_ruff_check_keeps_every_finding(package: Path) -> None:
    ruff = tool("ruff")
    args = (*ruff, "check", "--no-cache", "--isolated", "--select", "E,F,UP", ".")
    plain = run(package, *args, "--output-format", "concise")
    through = run(package, *rtk_executable(), *args)
    assert through.returncode == plain.returncode == 1
    findings = re.findall(r"^(\S+):(\d+):\d+: (\S+)", plain.stdout, re.MULTILINE)
    assert findings
    out = through.stdout
    for path, line, code in findings:
        # ruff's own location form, alone or among the places that share one message
        assert re.search(rf"(?m)^(?:\S+ )*{re.escape(path)}:{line}:\d+(?: \S+)*: {re.escape(code)} ", out), \
            (path, line, code)
    assert re.search(r"^Found \d+ errors?\.", out, re.MULTILINE)


def test_ruff_format_check_lists_the_file(package: Path) -> None:
    ruff = tool("ruff")
    through = run(package, *rtk_executable(), *ruff, "format", "--no-cache", "--isolated", "--check", ".")
    assert through.returncode == 1
    assert "  shop.py" in through.stdout and "would be reformatted" in through.stdout


def test_mypy_keeps_every_error_plain_and_pretty(package: Path) -> None:
    mypy = tool("mypy")
    args = (*mypy, "--no-incremental", "--cache-dir", str(package / ".mypy_cache"), "shop.py", "main.py")
    plain = run(package, *args)
    errors = re.findall(r"^(\S+\.py):(\d+): error: .*\[([a-z-]+)\]$", plain.stdout, re.MULTILINE)
    assert errors
    for flags in ((), ("--pretty",)):
        through = run(package, *rtk_executable(), *args, *flags)
        assert through.returncode == plain.returncode == 1
        for path, line, code in errors:
            # a short output may come back as it was (never larger than raw): either form counts
            grouped = re.search(rf"\bL{line}\b[^\n]*\[{code}\]", through.stdout)
            assert grouped or f"{path}:{line}: error:" in through.stdout, (path, line, code)
        assert re.search(r"^Found \d+ errors? in 2 files", through.stdout, re.MULTILINE)


def test_python_traceback_keeps_the_user_frames(package: Path) -> None:
    plain = run(package, sys.executable, "main.py")
    through = run(package, *rtk_executable(), sys.executable, "main.py")
    assert through.returncode == plain.returncode == 1
    err = through.stderr + through.stdout
    assert re.search(r"main\.py:5 in main: print\(total\(\{\"a\": 1\}\)\)", err)
    assert re.search(r"shop\.py:8 in total: return sum\(prices\) \+ \"0\"", err)
    assert plain.stderr.strip().splitlines()[-1] in err
