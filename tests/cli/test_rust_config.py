"""The Rust rtk's default config.toml in the shared place: shared keys read, its own ones silent.

`tests/track/data/rust_rtk_config.toml` is the file `rtk config --create` of the Rust rtk 1.1.0
wrote (tests/track/data/ABOUT.md).
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from click.testing import CliRunner

from rtk import config, paths
from rtk.cli.config import config_cmd
from tests.conftest import rtk_executable, rust_rtk

RUST_CONFIG = Path(__file__).parent.parent / "track" / "data" / "rust_rtk_config.toml"


def install(extra: str = "") -> Path:
    target = paths.config_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(RUST_CONFIG, target)
    if extra:
        with target.open("a") as handle:
            handle.write(extra)
    config.reset_cache()
    return target


def test_the_shared_keys_are_read_and_the_rust_only_ones_set_aside_without_a_problem() -> None:
    origin = str(install())
    cfg = config.load(report=False)
    assert cfg.problems == []
    assert cfg.sources["hooks.exclude_commands"] == origin and cfg.sources["tracking.history_days"] == origin
    assert cfg.limits == {"grep_max_per_file": 25}  # same name, same meaning in both tools
    assert {"display", "retriever", "telemetry", "awareness", "filters.ignore_dirs",
            "hooks.suppress_hook_warning", "limits.status_max_files"} <= set(cfg.ignored)


def test_a_run_and_a_hook_print_nothing_more_on_stderr_with_that_file(tmp_path: Path) -> None:
    install()
    run = subprocess.run([*rtk_executable(), "echo", "hi"], capture_output=True, check=False, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert (run.returncode, run.stdout, run.stderr) == (0, b"hi\n", b"")
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s", "cwd": str(tmp_path),
               "tool_input": {"command": "git status"}}
    hook = subprocess.run([*rtk_executable(), "hook", "claude"], input=json.dumps(payload).encode(),
                          capture_output=True, check=False, timeout=60)
    assert hook.returncode == 0 and hook.stderr == b""


def test_rtk_config_names_the_keys_it_does_not_read() -> None:
    install('\n[mystery]\nvalue = 1\n')
    out = CliRunner().invoke(config_cmd, []).stdout
    assert "display  (the Rust rtk's setting)" in out and "mystery  (unknown key)" in out
    assert "grep_max_per_file = 25" in out


def test_a_wrong_value_for_a_key_we_read_is_still_said() -> None:
    install('\n[recall]\nenabled = "yes"\n')
    problems = config.load(report=False).problems
    assert len(problems) == 1 and "'recall.enabled' expects true or false" in problems[0]


def test_the_file_rtk_config_init_writes_leaves_the_rust_rtk_able_to_read_it(tmp_path: Path) -> None:
    import tomllib

    from rtk.cli.config import DEFAULT_FILE, RUST_REQUIRED

    assert not set(tomllib.loads(DEFAULT_FILE)) & set(RUST_REQUIRED)  # no table it would refuse
    assert CliRunner().invoke(config_cmd, ["--init"]).exit_code == 0
    rust = rust_rtk()
    if rust is not None:  # the real reader, when the Rust rtk is installed (CI: .ci/rust-rtk)
        shown = subprocess.run([str(rust), "config"], capture_output=True, text=True, check=False, timeout=60,
                               stdin=subprocess.DEVNULL, cwd=tmp_path)
        assert "missing field" not in shown.stdout + shown.stderr


def test_rtk_config_says_when_a_table_would_make_the_rust_rtk_ignore_the_file() -> None:
    target = paths.config_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text('[filters]\ndisabled = ["git log"]\n')
    out = CliRunner().invoke(config_cmd, []).stdout
    assert "the Rust rtk, if you use it, cannot read this file" in out and "[filters] lacks ignore_dirs" in out
    install()
    assert "cannot read this file" not in CliRunner().invoke(config_cmd, []).stdout
