"""User and project TOML filters for real: a temporary HOME, a project, the installed rtk.

A user filter (the Rust rtk's format, unchanged) filters `rtk mytool` and routes `mytool` in
hooks; a project filter applies only after `rtk trust`, stops when its file changes, and
`rtk verify` runs both files' inline tests.
"""
from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

from tests.conftest import rtk_executable

USER_FILTERS = '''schema_version = 1

[filters.mytool]
description = "mytool: drop the noise lines"
match_command = "^mytool\\\\b"
strip_lines_matching = ["^noise "]

[filters.myeditor]
match = ["myeditor *"]
rewrite = false

[[tests.mytool]]
name = "noise dropped"
input = "noise 1\\nkept 1\\n"
expected = "kept 1"
'''
PROJECT_FILTERS = '''[filters.projtool]
match = ["projtool *"]
keep_lines_matching = ["^ERROR"]
summary = "projtool: {lines} lines read"
counters = { lines = "." }

[[tests.projtool]]
name = "errors only"
input = "x\\nERROR a\\n"
expected = "ERROR a\\nprojtool: 2 lines read"
'''


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home, project, bin_dir = tmp_path / "home", tmp_path / "project", tmp_path / "bin"
    for folder in (home / ".config" / "rtk", project / ".rtk", bin_dir):
        folder.mkdir(parents=True)
    (home / ".config" / "rtk" / "filters.toml").write_text(USER_FILTERS)
    (project / ".rtk" / "filters.toml").write_text(PROJECT_FILTERS)
    for tool in ("mytool", "projtool"):
        script = bin_dir / tool
        script.write_text("#!/bin/sh\ni=0\nwhile [ $i -lt 80 ]; do echo \"noise $i of the run\"; "
                          "echo \"kept $i of the run\"; i=$((i+1)); done\necho 'ERROR the end'\n")
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RTK_", "XDG_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / "data"),
               PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", RTK_TRACK="0")
    return project, env


def rtk(project: Path, env: dict[str, str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*rtk_executable(), *args], cwd=project, env=env, input=stdin, capture_output=True,
                          text=True, timeout=60, check=False)


def test_user_filter_filters_and_routes(world: tuple[Path, dict[str, str]]) -> None:
    project, env = world
    run = rtk(project, env, "mytool")
    assert run.returncode == 0
    assert "noise 3 of the run" not in run.stdout and "kept 79 of the run" in run.stdout
    rewrite = rtk(project, env, "rewrite", "mytool --x")
    assert (rewrite.returncode, rewrite.stdout) == (3, "rtk mytool --x")
    assert rtk(project, env, "rewrite", "myeditor notes.txt").returncode == 1  # rewrite = false
    assert "never routed" in rtk(project, env, "filters", "--explain", "myeditor notes.txt").stdout
    listing = rtk(project, env, "filters")
    assert any(line.split()[:2] == ["mytool", "user"] for line in listing.stdout.splitlines())
    explain = rtk(project, env, "filters", "--explain", "mytool -v")
    assert "filter: mytool (user)" in explain.stdout and "match_command /^mytool\\b/" in explain.stdout


def test_project_filter_needs_trust_and_loses_it_when_the_file_changes(world: tuple[Path, dict[str, str]]) -> None:
    project, env = world
    before = rtk(project, env, "projtool")
    assert "noise 3 of the run" in before.stdout  # not applied: the generic filter kept everything
    assert before.stderr.count("not trusted") == 1 and "rtk trust" in before.stderr
    assert rtk(project, env, "rewrite", "projtool").returncode == 1

    listed = [line.split() for line in rtk(project, env, "filters").stdout.splitlines()]
    assert ["projtool", "(project,", "untrusted:", "see", "rtk", "trust)", "projtool", "*"] in listed
    explain = rtk(project, env, "filters", "--explain", "projtool -x")
    assert "would serve it once trusted" in explain.stdout
    refused = rtk(project, env, "trust")  # stdin is not a terminal: --yes is required
    assert refused.returncode == 1 and "--yes" in refused.stderr
    trusted = rtk(project, env, "trust", "--yes")
    assert trusted.returncode == 0 and "projtool: projtool *" in trusted.stdout
    assert "trusted" in rtk(project, env, "trust", "--list").stdout

    after = rtk(project, env, "projtool")
    assert after.stdout.splitlines()[:2] == ["ERROR the end", "projtool: 161 lines read"]
    assert rtk(project, env, "rewrite", "projtool -q").stdout == "rtk projtool -q"

    with open(project / ".rtk" / "filters.toml", "a") as handle:
        handle.write("# changed\n")
    changed = rtk(project, env, "projtool")
    assert "noise 3 of the run" in changed.stdout
    assert changed.stderr.count("changed since it was trusted") == 1

    rtk(project, env, "trust", "--yes")
    assert rtk(project, env, "untrust").returncode == 0
    assert rtk(project, env, "rewrite", "projtool").returncode == 1


def test_verify_runs_every_files_tests_and_fails_on_a_broken_one(world: tuple[Path, dict[str, str]]) -> None:
    project, env = world
    rtk(project, env, "trust", "--yes")
    ok = rtk(project, env, "verify")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    rows = {line.split()[0]: line.split() for line in ok.stdout.splitlines()[1:-1]}
    assert rows["mytool"][1:] == ["user", "1/1", "ok"] and rows["projtool"][1:] == ["project", "1/1", "ok"]
    one = rtk(project, env, "verify", "--filter", "mytool")
    assert [line.split()[0] for line in one.stdout.splitlines()[1:-1]] == ["mytool"]

    user_file = Path(env["XDG_CONFIG_HOME"]) / "rtk" / "filters.toml"
    user_file.write_text(USER_FILTERS.replace('expected = "kept 1"', 'expected = "kept 2"')
                         + '\n[filters.broken]\nmatch = ["broken *"]\nmax_lnes = 3\n')
    bad = rtk(project, env, "verify")
    assert bad.returncode == 1
    assert "FAIL" in bad.stdout and "unknown field 'max_lnes'" in bad.stderr
    still = rtk(project, env, "mytool")  # the broken filter is skipped, the rest still works
    assert "noise 3 of the run" not in still.stdout
    assert still.stderr.count("unknown field 'max_lnes'") == 1
