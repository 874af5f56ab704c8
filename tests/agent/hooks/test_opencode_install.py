"""OpenCode: `rtk init --agent opencode` writes the plugin file, uninstall removes it, --show knows
it; and the plugin itself, run by node against stub rtk programs: it replaces the output only on a
good answer, and on anything else keeps it, never throwing and never printing."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from rtk.agent.install import InstallError, Options, run_init, show
from rtk.agent.install.opencode import MARKER, is_ours, plugin_program, plugin_source
from tests.conftest import rtk_executable


@pytest.fixture
def config(agent_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """OpenCode's config directory, where XDG_CONFIG_HOME says (as OpenCode reads it)."""
    base = agent_home / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base))
    return base / "opencode"


def init(home: Path, *, uninstall: bool = False, program: str | None = "/opt/rtk/bin/rtk",
         global_: bool = True, cwd: Path | None = None) -> list[str]:
    lines: list[str] = []
    run_init(Options(("opencode",), global_, uninstall, home=home, cwd=cwd, program=program), lines.append)
    return lines


def test_install_writes_the_plugin_and_is_idempotent(agent_home: Path, config: Path) -> None:
    lines = init(agent_home)
    plugin = config / "plugins/rtk.js"
    data = plugin.read_bytes()
    assert data == plugin_source(["/opt/rtk/bin/rtk"]) and is_ours(data)
    assert plugin_program(data) == ["/opt/rtk/bin/rtk"]
    assert any(str(plugin) in line and "/opt/rtk/bin/rtk hook opencode" in line for line in lines)
    assert all("already installed" in line for line in init(agent_home))
    init(agent_home, program="/new/rtk")
    assert plugin_program(plugin.read_bytes()) == ["/new/rtk"]


def test_without_xdg_config_home_the_plugin_goes_to_dot_config(agent_home: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    init(agent_home)
    assert is_ours((agent_home / ".config/opencode/plugins/rtk.js").read_bytes())


def test_the_default_program_is_this_rtk_by_absolute_path(agent_home: Path, config: Path) -> None:
    init(agent_home, program=None)
    program = plugin_program((config / "plugins/rtk.js").read_bytes())
    assert program is not None and os.path.isabs(program[0])
    done = subprocess.run([*program, "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "rtk" in done.stdout


def test_uninstall_removes_the_plugin_and_the_folders_it_leaves_empty(agent_home: Path, config: Path) -> None:
    (config).mkdir(parents=True)
    (config / "opencode.json").write_text("{}")
    init(agent_home)
    lines = init(agent_home, uninstall=True)
    assert not (config / "plugins").exists() and (config / "opencode.json").read_text() == "{}"
    assert any("removed" in line for line in lines)
    assert all("nothing to remove" in line for line in init(agent_home, uninstall=True))


def test_a_plugin_file_rtk_did_not_write_is_never_touched(agent_home: Path, config: Path) -> None:
    plugin = config / "plugins/rtk.js"
    plugin.parent.mkdir(parents=True)
    plugin.write_text("export const Mine = async () => ({})\n")
    with pytest.raises(InstallError, match="not written by rtk"):
        init(agent_home)
    init(agent_home, uninstall=True)
    assert plugin.read_text() == "export const Mine = async () => ({})\n"
    out: list[str] = []
    show(("opencode",), agent_home, agent_home, out.append, out.append)
    assert out == [f"opencode: not installed ({plugin} exists but was not written by rtk)"]


def test_local_install_goes_to_the_projects_dot_opencode(agent_home: Path, tmp_path: Path, config: Path) -> None:
    project = tmp_path / "project"
    init(agent_home, global_=False, cwd=project)
    assert is_ours((project / ".opencode/plugins/rtk.js").read_bytes())
    assert not (config / "plugins").exists()


def test_show_says_where_and_what_it_runs(agent_home: Path, config: Path, tmp_path: Path) -> None:
    out: list[str] = []
    warnings: list[str] = []
    show(("opencode",), agent_home, agent_home, out.append, warnings.append)
    assert out == [f"opencode: not installed ({config / 'plugins/rtk.js'})"]
    init(agent_home, program=str(tmp_path / "gone/rtk"))
    out.clear()
    show(("opencode",), agent_home, agent_home, out.append, warnings.append)
    assert out == [f"opencode: installed in {config / 'plugins/rtk.js'} ({tmp_path / 'gone/rtk'} hook opencode)"]
    assert len(warnings) == 1 and "no longer exists" in warnings[0] and "rtk init -g --agent opencode" in warnings[0]


def test_cli_install_show_uninstall(agent_home: Path, config: Path) -> None:
    env = dict(os.environ, HOME=str(agent_home))
    run = [*rtk_executable(), "init"]
    done = subprocess.run([*run, "-g", "--agent", "opencode"], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert is_ours((config / "plugins/rtk.js").read_bytes())
    shown = subprocess.run([*run, "--show", "--agent", "opencode"], env=env, capture_output=True, text=True,
                           check=False)
    assert shown.stdout.startswith(f"opencode: installed in {config / 'plugins/rtk.js'}")
    gone = subprocess.run([*rtk_executable(), "uninstall", "-g", "--agent", "opencode"], env=env,
                          capture_output=True, text=True, check=False)
    assert gone.returncode == 0 and not (config / "plugins/rtk.js").exists()


# The plugin under node: a driver imports it as OpenCode does and calls tool.execute.after.
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: the plugin's JavaScript is not run")
DRIVER = """
import { pathToFileURL } from "node:url"
const [plugin, directory, inputJson, outputJson] = process.argv.slice(2)
const mod = await import(pathToFileURL(plugin).href)
const hooks = await mod.RtkPlugin({ directory })
const input = JSON.parse(inputJson)
const output = JSON.parse(outputJson)
try {
  await hooks["tool.execute.after"](input, output)
  process.stdout.write(JSON.stringify({ output }))
} catch (error) {
  process.stdout.write(JSON.stringify({ threw: String(error) }))
}
"""
BASH_INPUT = {"tool": "bash", "sessionID": "s", "callID": "c", "args": {"command": "ls -la", "description": "d"}}
BASH_OUTPUT = {"title": "ls -la", "output": "total 0\nraw\n", "metadata": {"exit": 3, "output": "total 0\nraw\n"}}


def stub(folder: Path, body: str) -> Path:
    """An `rtk` that saves its argv and stdin, then does what `body` says."""
    path = folder / "rtk"
    path.write_text(f'#!/bin/sh\necho "$@" > "{folder}/argv"\ncat > "{folder}/stdin"\n{body}\n')
    path.chmod(0o755)
    return path


def drive(tmp_path: Path, program: list[str], input_: object = BASH_INPUT, output: object = BASH_OUTPUT,
          timeout_ms: int | None = None) -> dict[str, object]:
    source = plugin_source(program).decode()
    if timeout_ms is not None:
        source = source.replace("const TIMEOUT_MS = 30000", f"const TIMEOUT_MS = {timeout_ms}")
    plugin = tmp_path / "plugin.mjs"
    plugin.write_text(source)
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER)
    assert NODE is not None
    done = subprocess.run([NODE, str(driver), str(plugin), str(tmp_path), json.dumps(input_), json.dumps(output)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@needs_node
def test_the_plugin_hands_rtk_the_contract_payload_and_takes_its_answer(tmp_path: Path) -> None:
    program = stub(tmp_path, """printf '{"output": "condensed"}\\n'""")
    result = drive(tmp_path, [str(program)])
    assert result == {"output": {**BASH_OUTPUT, "output": "condensed"}}
    assert (tmp_path / "argv").read_text() == "hook opencode\n"
    assert json.loads((tmp_path / "stdin").read_text()) == {
        "hook_event_name": "tool.execute.after", "tool": "bash", "args": BASH_INPUT["args"],
        "cwd": str(tmp_path), "exit": 3, "output": "total 0\nraw\n"}


@needs_node
def test_the_plugin_runs_a_program_with_arguments(tmp_path: Path) -> None:
    script = tmp_path / "rtk.py"
    script.write_text("import sys, json; sys.stdin.read(); print(json.dumps({'output': ' '.join(sys.argv[1:])}))")
    result = drive(tmp_path, [shutil.which("python3") or "python3", str(script)])
    assert result["output"] == {**BASH_OUTPUT, "output": "hook opencode"}


KEPT = {
    "empty answer": "true",
    "non-zero exit": """printf '{"output": "x"}'; exit 1""",
    "bad JSON": "echo 'not json'",
    "output not a string": """printf '{"output": 5}'""",
    "JSON not an object": "echo '[1]'",
    "killed": "kill -9 $$",
    "stderr only": "echo oops >&2",
}


@needs_node
@pytest.mark.parametrize("body", list(KEPT.values()), ids=list(KEPT))
def test_anything_but_a_good_answer_keeps_the_output(tmp_path: Path, body: str) -> None:
    assert drive(tmp_path, [str(stub(tmp_path, body))]) == {"output": BASH_OUTPUT}


@needs_node
def test_a_missing_program_keeps_the_output(tmp_path: Path) -> None:
    assert drive(tmp_path, [str(tmp_path / "nowhere/rtk")]) == {"output": BASH_OUTPUT}


@needs_node
def test_a_slow_rtk_is_cut_by_the_timeout(tmp_path: Path) -> None:
    program = stub(tmp_path, """sleep 20; printf '{"output": "late"}'""")
    started = time.monotonic()
    assert drive(tmp_path, [str(program)], timeout_ms=300) == {"output": BASH_OUTPUT}
    assert time.monotonic() - started < 15


@needs_node
@pytest.mark.parametrize(("input_", "output"), [
    ({**BASH_INPUT, "tool": "read"}, BASH_OUTPUT),
    (BASH_INPUT, {"title": "x", "metadata": {}}),
    (BASH_INPUT, {"output": None}),
    (None, BASH_OUTPUT),
    (BASH_INPUT, None),
    ({"tool": "bash"}, {"output": "x"}),
])
def test_other_tools_and_odd_shapes_never_call_rtk_or_throw(tmp_path: Path, input_: object, output: object) -> None:
    program = stub(tmp_path, """printf '{"output": "condensed"}'""")
    result = drive(tmp_path, [str(program)], input_, output)
    if input_ == {"tool": "bash"}:
        assert result == {"output": {"output": "condensed"}}  # no args: rtk decides
    else:
        assert result == {"output": output}
        assert not (tmp_path / "argv").exists()


def test_the_plugin_imports_nothing_but_nodes_own_modules() -> None:
    source = plugin_source(["rtk"]).decode()
    assert source.startswith(MARKER)
    imports = [line for line in source.splitlines() if line.startswith("import ")]
    assert imports == ['import { spawnSync } from "node:child_process"']
    assert "console." not in source and "throw " not in source


UPSTREAM = "// This is a thin compat shim: all rewrite and permission logic lives in\n// `rtk hook opencode`\n"


def test_the_rust_rtks_plugin_is_left_alone_and_named(agent_home: Path, config: Path) -> None:
    upstream = config / "plugins/rtk.ts"
    upstream.parent.mkdir(parents=True)
    upstream.write_text(UPSTREAM)
    lines = init(agent_home)
    assert any("Rust rtk's plugin" in line and str(upstream) in line for line in lines)
    out: list[str] = []
    show(("opencode",), agent_home, agent_home, out.append, lambda line: None)
    assert str(upstream) in out[0] and out[0].startswith(f"opencode: installed in {config / 'plugins/rtk.js'}")
    init(agent_home, uninstall=True)
    assert upstream.read_text() == UPSTREAM
    assert not (config / "plugins/rtk.js").exists()
