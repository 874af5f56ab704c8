"""`rtk rewrite` as scripts call it, config exclusions, and the hot path's import budget."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rtk.agent.rewrite import decide
from rtk.cli.rewrite import main
from tests.conftest import rtk_executable


def run_rtk(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*rtk_executable(), "rewrite", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=60, check=False)


def test_cli_contract_split_and_joined_args_agree() -> None:
    joined = run_rtk("git status && cargo test")
    split = run_rtk("git", "status")
    assert (joined.stdout, joined.returncode) == ("rtk git status && rtk cargo test", 3)
    assert (split.stdout, split.returncode) == ("rtk git status", 3)
    assert run_rtk("git status").stdout == split.stdout


@pytest.mark.parametrize(("args", "stdout", "code"), [
    (["ls", "|", "wc", "-l"], "", 1),
    ([], "", 1),
    (["--", "git", "status"], "rtk git status", 3),
    (["--host", "codex", "git status"], "rtk git status", 3),
    (["--host=none", "pytest"], "rtk pytest", 3),
])
def test_main_output_and_exit(capsys, args: list[str], stdout: str, code: int) -> None:
    assert main(args) == code
    assert capsys.readouterr().out == stdout


def test_unknown_host_is_one_line(capsys) -> None:
    assert main(["--host", "vim", "git status"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "vim" in captured.err


def test_explain_prints_each_segment_and_the_verdict(capsys) -> None:
    assert main(["--explain", "cd src && pytest -x | grep F; git status"]) == 3
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "`cd src`: keep ('cd' is never rewritten)"
    assert lines[1] == "`pytest -x`: keep (piped into a command that consumes its exact output)"
    assert lines[2] == "`grep F`: keep (it reads the pipe before it, whose bytes stay exact)"
    assert lines[3] == "`git status`: rewrite -> `rtk git status`"
    assert lines[-1] == "exit 3: cd src && pytest -x | grep F; rtk git status"


def test_explain_names_the_unattestable_construct(capsys) -> None:
    assert main(["--explain", "git status > out.txt"]) == 1
    assert "unattestable: redirect > out.txt" in capsys.readouterr().out


def test_rtk_disabled_prefix_says_why_on_stderr(capsys) -> None:
    assert main(["RTK_DISABLED=1 git status"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "RTK_DISABLED" in captured.err


def test_rtk_disabled_in_environment(monkeypatch) -> None:
    monkeypatch.setenv("RTK_DISABLED", "1")
    assert decide("git status").code == 1
    monkeypatch.setenv("RTK_DISABLED", "0")
    assert decide("git status").code == 3


def write_config(hermetic_rtk: Path, text: str) -> None:
    path = hermetic_rtk / "config" / "rtk" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(("entries", "command", "expected"), [
    ('["git push"]', "git push origin main", ""),
    ('["git push"]', "git status && git push", "rtk git status && git push"),
    ('["git push"]', "git pushx", ""),  # not a git subcommand anyway
    ('["git  log"]', "git log -5", ""),
    ('["git"]', "/usr/bin/git status", ""),
    ('["cargo test"]', "RUST_BACKTRACE=1 timeout 60 cargo test --lib", ""),
    ('["cargo test"]', "cargo testx", ""),
    ('["cargo t"]', "cargo test", "rtk cargo test"),
    ('["^git (log|show)"]', "git show HEAD && git log", ""),
    ('["^git (log|show)"]', "git status", "rtk git status"),
    ('["^pytest.*-k"]', "cd x && pytest -x -k slow", ""),
    ('["^pytest.*-k"]', "cd x && pytest -x", "cd x && rtk pytest -x"),
])
def test_exclude_commands(hermetic_rtk: Path, entries: str, command: str, expected: str) -> None:
    write_config(hermetic_rtk, f"[hooks]\nexclude_commands = {entries}\n")
    decision = decide(command)
    assert decision.command == expected
    assert decision.code == (3 if expected else 1)


def test_invalid_regex_is_reported_once_and_used_as_prefix(hermetic_rtk: Path, capsys) -> None:
    write_config(hermetic_rtk, '[hooks]\nexclude_commands = ["^git (log"]\n')
    assert decide("git (log x").code == 1
    assert decide("git status").code == 3
    assert decide("git log").code == 3
    err = capsys.readouterr().err
    assert err.count("not a valid regex") == 1


def test_filters_disabled_in_config_are_not_rewritten(hermetic_rtk: Path) -> None:
    write_config(hermetic_rtk, '[filters]\ndisabled = ["git log"]\n')
    assert decide("git log -5 && git status").command == "git log -5 && rtk git status"


HOT_PATH_CHECK = """
import os, subprocess, sys
def forbidden(*a, **k):
    raise AssertionError("the rewrite path spawned a process")
for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "execv", "execve", "system", "popen"):
    if hasattr(os, name):
        setattr(os, name, forbidden)
subprocess.Popen = forbidden
for m in ("subprocess",):
    sys.modules.pop(m, None)
from rtk.__main__ import main
code = main(["rewrite", "git status && cargo test"])
heavy = sorted(m for m in ("trio", "tiktoken", "click", "sqlite3", "_sqlite3", "rtk.run.runner", "rtk.cli.group")
               if m in sys.modules)
print("|" + ",".join(heavy) + "|" + str(code))
"""


def test_hot_path_imports_nothing_heavy_and_spawns_nothing(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", HOT_PATH_CHECK], capture_output=True, text=True,
                          timeout=60, check=False, env={**os.environ, "HOME": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("||3\n"), proc.stdout


def test_importtime_lists_no_heavy_module(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", "import rtk.cli.rewrite"],
                          capture_output=True, text=True, timeout=60, check=False)
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()}
    assert "rtk.agent.rewrite" in imported
    assert not imported & {"trio", "tiktoken", "click", "sqlite3", "_sqlite3"}


def test_decision_behaves_like_a_frozen_dataclass() -> None:
    from rtk.agent.rewrite import Decision

    one = Decision(3, "rtk git status", ("why",))
    assert one == Decision(code=3, command="rtk git status", reasons=("why",))
    assert hash(one) == hash(Decision(3, "rtk git status", ("why",)))
    assert one != Decision(1, "", ())
    with pytest.raises(AttributeError):
        one.code = 0  # type: ignore[misc]
    assert "code=3" in repr(one)


def test_explain_shows_the_rewrite_of_the_source_text(capsys) -> None:
    assert main(["--explain", "FOO=1    git   status"]) == 3
    assert capsys.readouterr().out.splitlines()[0] == "`FOO=1 git status`: rewrite -> `FOO=1    rtk git   status`"
