"""The real OpenCode with rtk's plugin as `rtk init -g --agent opencode` installs it, driven by a fake
model on 127.0.0.1: OpenCode loads the plugin from its config directory, runs the bash command under
its own rules, and the model reads what `rtk hook opencode` answered instead of the raw output.

OpenCode comes from npm (`npm install --prefix "$RTK_HOSTS_PREFIX" opencode-ai`, default prefix
/tmp/rtk-hosts; `RTK_OPENCODE` names another binary); without it the tests skip, saying so. How
OpenCode is pointed at the fake model (the same for any CI job that drives it): a temporary HOME
and XDG_CONFIG_HOME/XDG_DATA_HOME/XDG_CACHE_HOME/XDG_STATE_HOME inside it;
`$XDG_CONFIG_HOME/opencode/opencode.json` declares a provider `fake` with `"npm": "@ai-sdk/anthropic"`
(bundled in OpenCode, so nothing is downloaded) and `options.baseURL` = the fake server + `/v1`, and
`"model": "fake/fake-model"`; PWD set to the project directory (OpenCode takes its directory from
it, not from the process's working directory); OPENCODE_DISABLE_MODELS_FETCH, OPENCODE_DISABLE_AUTOUPDATE,
OPENCODE_DISABLE_DEFAULT_PLUGINS and OPENCODE_DISABLE_SHARE keep it off the network; then
`opencode run "run it"` in the project directory. The fake model speaks Anthropic's Messages API and
asks for OpenCode's `bash` tool (lower case) with `{"command", "description"}`.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rtk.agent.install import Options, run_init
from tests.conftest import rtk_executable
from tests.e2e.fake_model_server import FakeModel

PREFIX = Path(os.environ.get("RTK_HOSTS_PREFIX", "/tmp/rtk-hosts"))
CHECKOUT = Path(__file__).resolve().parents[2]


def opencode_bin() -> str | None:
    if explicit := os.environ.get("RTK_OPENCODE"):
        return explicit
    for prefix in (PREFIX, CHECKOUT):
        if (found := prefix / "node_modules" / ".bin" / "opencode").exists():
            return str(found)
    return shutil.which("opencode")


OPENCODE = opencode_bin()
pytestmark = pytest.mark.skipif(
    OPENCODE is None, reason=f"OpenCode is not installed: npm install --prefix {PREFIX} opencode-ai")


class OpenCodeModel(FakeModel):
    """Asks for OpenCode's `bash` tool once, then ends the turn."""

    def reply(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        tools = {tool.get("name") for tool in body.get("tools", []) if isinstance(tool, dict)}
        content = body.get("messages", [{}])[-1].get("content")
        answered = isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
        if "bash" in tools and not answered:
            return [{"type": "tool_use", "id": "toolu_01", "name": "bash",
                     "input": {"command": self.command, "description": "run it"}}]
        return [{"type": "text", "text": "done"}]

    def result_text(self) -> str:
        """What the model read as the bash tool's result."""
        results = self.tool_results()
        assert len(results) == 1, results
        content = results[0].get("content")
        if isinstance(content, list):
            return "".join(str(block.get("text", "")) for block in content if isinstance(block, dict))
        return str(content)


@pytest.fixture(scope="module")
def shared_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """One HOME for the module: OpenCode npm-installs `@opencode-ai/plugin` into a config directory
    it has not seen (~15 s here), so the tests share it."""
    return environment(tmp_path_factory.mktemp("opencode"))


def environment(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    env = {**os.environ, "HOME": str(home), "OPENCODE_DISABLE_MODELS_FETCH": "1",
           "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
           "OPENCODE_DISABLE_SHARE": "1"}
    for variable, folder in (("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"),
                             ("XDG_CACHE_HOME", ".cache"), ("XDG_STATE_HOME", ".local/state")):
        env[variable] = str(home / folder)
        (home / folder).mkdir(parents=True, exist_ok=True)
    return env


def configure(env: dict[str, str], url: str) -> None:
    config = Path(env["XDG_CONFIG_HOME"]) / "opencode" / "opencode.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({
        "$schema": "https://opencode.ai/config.json",
        "model": "fake/fake-model",
        "autoupdate": False,
        "share": "disabled",
        "provider": {"fake": {"npm": "@ai-sdk/anthropic", "name": "Fake",
                              "options": {"baseURL": f"{url}/v1", "apiKey": "test"},
                              "models": {"fake-model": {"name": "Fake", "tool_call": True}}}},
    }))


def run_opencode(env: dict[str, str], work: Path) -> subprocess.CompletedProcess[str]:
    assert OPENCODE is not None
    env = {**env, "PWD": str(work)}  # OpenCode takes its project directory from PWD
    done = subprocess.run([OPENCODE, "run", "run it"], cwd=work, env=env, capture_output=True, text=True,
                          timeout=240, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def plugin_path(env: dict[str, str]) -> Path:
    return Path(env["XDG_CONFIG_HOME"]) / "opencode" / "plugins" / "rtk.js"


def test_the_plugin_hands_the_run_to_rtk_and_the_model_reads_its_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_env: dict[str, str]) -> None:
    """A stub rtk: the exact payload OpenCode's plugin sends, and its answer reaching the model."""
    env = shared_env
    work = tmp_path / "work"
    work.mkdir()
    stub = tmp_path / "stub-rtk"
    stub.write_text(f'#!/bin/sh\necho "$@" > "{tmp_path}/argv"\ncat > "{tmp_path}/stdin"\n'
                    """printf '{"output": "REPLACED BY RTK"}'\n""")
    stub.chmod(0o755)
    monkeypatch.setenv("XDG_CONFIG_HOME", env["XDG_CONFIG_HOME"])
    run_init(Options(("opencode",), True, home=Path(env["HOME"]), program=str(stub)), lambda line: None)
    assert plugin_path(env).is_file()
    with OpenCodeModel("echo raw-output; exit 3") as model:
        configure(env, model.url)
        run_opencode(env, work)
    assert model.result_text() == "REPLACED BY RTK"
    assert (tmp_path / "argv").read_text() == "hook opencode\n"
    payload = json.loads((tmp_path / "stdin").read_text())
    assert payload == {"hook_event_name": "tool.execute.after", "tool": "bash",
                       "args": {"command": "echo raw-output; exit 3", "description": "run it"},
                       "cwd": str(work), "exit": 3, "output": "raw-output\n"}


def test_rtk_init_then_opencode_reads_rtks_filtered_listing(tmp_path: Path, shared_env: dict[str, str]) -> None:
    """The real rtk, installed by `rtk init -g --agent opencode`: `ls -la` of 60 files reaches the
    model condensed (every name kept, no mode/owner/date columns), the listing OpenCode ran."""
    env = shared_env
    work = tmp_path / "work"
    work.mkdir()
    names = [f"module_{i:02d}.py" for i in range(60)]
    for name in names:
        (work / name).write_text("x = 1\n" * 10)
    done = subprocess.run([*rtk_executable(), "init", "-g", "--agent", "opencode"], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert str(plugin_path(env)) in done.stdout
    raw = subprocess.run(["ls", "-la"], cwd=work, capture_output=True, text=True, check=True).stdout
    with OpenCodeModel("ls -la") as model:
        configure(env, model.url)
        run_opencode(env, work)
    seen = model.result_text()
    assert all(name in seen for name in names)
    assert "-rw-" not in seen and len(seen) < len(raw) / 2, seen
