"""`rtk pipe --cmd LINE` classifies LINE exactly as the runner sees it after a hook's rewrite:
the argv after the `rtk` a hook inserts, with env assignments and transparent wrappers left in
front of it."""
from __future__ import annotations

import shlex
import subprocess

import pytest

from rtk.agent.rewrite import decide
from rtk.run.replay import PipeError, pick_filter
from tests.conftest import rtk_executable

LINES = [
    "RUST_BACKTRACE=1 cargo test",
    "RUST_BACKTRACE=1 CARGO_TERM_COLOR=never cargo test --workspace",
    "timeout 60 pytest -x",
    "env FOO=1 nice -n 5 git status",
    "time cargo build --release",
    'FOO="a b" command git log -3',
    "nohup npx tsc --noEmit",
    "timeout -s INT 5m python -m pytest tests",
]


def argv_after_rtk(rewritten: str) -> list[str]:
    words = shlex.split(rewritten)
    return words[words.index("rtk") + 1:]


@pytest.mark.parametrize("line", LINES)
def test_pipe_sees_the_argv_the_hook_hands_to_rtk(line: str) -> None:
    decision = decide(line, None)
    assert " rtk " in f" {decision.command} ", decision
    name, argv = pick_filter(None, line)
    assert argv == argv_after_rtk(decision.command)
    assert name != "generic"


def test_the_issue_case_is_cargo() -> None:
    assert pick_filter(None, "RUST_BACKTRACE=1 cargo test") == ("cargo", ["cargo", "test"])


def test_a_wrapper_used_in_a_way_hooks_do_not_look_through_stays() -> None:
    assert pick_filter(None, "timeout notaduration cargo test")[1][0] == "timeout"


@pytest.mark.parametrize("line", ["", "   ", "FOO=1", "env FOO=1"])
def test_a_line_without_a_command_is_a_usage_error(line: str) -> None:
    with pytest.raises(PipeError):
        pick_filter(None, line)


def test_the_installed_rtk_pipe_uses_it() -> None:
    raw = b"warning: unused variable: `x`\n --> src/lib.rs:3:9\n" * 3
    via_env = subprocess.run([*rtk_executable(), "pipe", "--cmd", "RUST_BACKTRACE=1 cargo build"],
                             input=raw, capture_output=True, timeout=60, check=False)
    plain = subprocess.run([*rtk_executable(), "pipe", "--cmd", "cargo build"],
                           input=raw, capture_output=True, timeout=60, check=False)
    assert via_env.returncode == plain.returncode == 0 and via_env.stdout == plain.stdout
