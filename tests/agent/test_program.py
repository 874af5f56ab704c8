"""How a rewrite names rtk: `rtk` only when the agent's PATH finds this rtk; else its path."""
from __future__ import annotations

from pathlib import Path

import pytest

from rtk.agent import program


def test_rtk_when_path_finds_this_one(tmp_path: Path) -> None:
    mine = tmp_path / "bin" / "rtk"
    mine.parent.mkdir()
    mine.write_text("#!/bin/sh\n")
    mine.chmod(0o755)
    assert program.resolve(str(mine), str(mine)) == "rtk"


def test_the_path_when_path_finds_another_or_none(tmp_path: Path) -> None:
    mine, other = tmp_path / "a b" / "rtk", tmp_path / "other" / "rtk"
    for path in (mine, other):
        path.parent.mkdir()
        path.write_text("#!/bin/sh\n")
    assert program.resolve(str(other), str(mine)) == f"'{mine}'"
    assert program.resolve(None, str(mine)) == f"'{mine}'"
    assert program.resolve(None, None).endswith(" -m rtk")


def test_a_login_shell_host_always_gets_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Codex runs `bash -lc`: the profile's PATH, not the hook's, finds the command."""
    script = program.own_script()
    if script is None:
        pytest.skip("no installed rtk script next to the interpreter")
    program.reset()
    assert program.name() == "rtk"  # tests put this rtk first on PATH
    assert program.name(login_shell=True) == program.quote(script)


def test_which_follows_path(tmp_path: Path) -> None:
    tool = tmp_path / "tool"
    tool.write_text("")
    assert program.which("tool", str(tmp_path)) is None  # not executable
    tool.chmod(0o755)
    assert program.which("tool", f"/nonexistent:{tmp_path}") == str(tool)
