"""`rtk init`/`rtk uninstall` for the agents of issue 41: Droid's hook file (events at the top),
Kilo's plugin, and the instruction files of the agents with no usable hook; the Rust rtk's own
installs of them (run for real when it is installed) recognised and migrated."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rtk.agent.install import InstallError, Options, run_init, show
from rtk.agent.install.opencode import global_file, is_ours, plugin_program
from rtk.agent.install.rules import AGENTS as RULES
from tests.conftest import RUST_RTK_HINT, rust_rtk

DROID = {"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "rtk hook droid"}]}]}


def init(root: Path, *agents: str, global_: bool = True, uninstall: bool = False, dry_run: bool = False,
         every: bool = False) -> list[str]:
    lines: list[str] = []
    run_init(Options(agents, global_, uninstall, dry_run, home=root, cwd=root, program="rtk", every_agent=every),
             lines.append)
    return lines


def test_droid_keeps_the_users_hooks_and_keys_around_its_entry(agent_home: Path) -> None:
    path = agent_home / ".factory/hooks.json"
    path.parent.mkdir()
    mine = {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}
    path.write_text(json.dumps({"hooksDisabled": False, "PreToolUse": [mine], "Stop": [mine]}))
    init(agent_home, "droid")
    assert json.loads(path.read_text()) == {"hooksDisabled": False, "PreToolUse": [mine, DROID["PreToolUse"][0]],
                                            "Stop": [mine]}
    assert all("already installed" in line for line in init(agent_home, "droid") if "droid" in line)
    init(agent_home, "droid", uninstall=True)
    assert json.loads(path.read_text()) == {"hooksDisabled": False, "PreToolUse": [mine], "Stop": [mine]}


def test_droid_refuses_an_event_that_is_not_a_list(agent_home: Path) -> None:
    path = agent_home / ".factory/hooks.json"
    path.parent.mkdir()
    path.write_text('{"PreToolUse": {}}')
    with pytest.raises(InstallError, match="'PreToolUse' is an object, expected an array"):
        init(agent_home, "droid")


def test_kilo_gets_opencodes_plugin_running_its_own_hook(agent_home: Path) -> None:
    init(agent_home, "kilo")
    path = global_file(agent_home, "kilo")
    assert path.parts[-3:] == ("kilo", "plugins", "rtk.js")
    data = path.read_bytes()
    assert is_ours(data) and plugin_program(data) == ["rtk"]
    assert b'"hook", "kilo"' in data and b"--agent kilo" in data
    lines: list[str] = []
    show(("kilo",), agent_home, agent_home, lines.append, lines.append)
    assert lines == [f"kilo: installed in {path} (rtk hook kilo)"]
    init(agent_home, "kilo", uninstall=True)
    assert not path.exists()


USER_TEXT = "# my rules\nbe brief"  # no final newline: uninstall must give these bytes back


@pytest.mark.parametrize("agent", sorted(RULES))
def test_an_instruction_block_round_trips_the_users_bytes(agent_home: Path, agent: str) -> None:
    spec = RULES[agent]
    global_ = spec.local_path is None
    path = agent_home / (spec.global_path if global_ else spec.local_path)  # type: ignore[operator]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(USER_TEXT)
    init(agent_home, agent, global_=global_)
    text = path.read_text()
    assert "rtk recall" in text and ("# my rules" in text) != spec.own
    assert Path(f"{path}.bak").read_text() == USER_TEXT
    assert all("already installed" in line for line in init(agent_home, agent, global_=global_))
    init(agent_home, agent, global_=global_, uninstall=True)
    assert (path.read_text() if path.exists() else "") == ("" if spec.own else USER_TEXT)


def test_show_says_instructions_are_advice(agent_home: Path) -> None:
    init(agent_home, "qwen", global_=False)
    lines: list[str] = []
    show(("qwen", "crush"), agent_home, agent_home, lines.append, lines.append)
    assert lines[0].startswith(f"qwen: instructions in {agent_home / 'QWEN.md'}")
    assert all("advice it may ignore" in line for line in lines)
    assert lines[1].startswith("crush: not installed")


def test_a_rules_folder_gets_a_file_of_rtks_own(agent_home: Path) -> None:
    folder = agent_home / ".windsurfrules"
    folder.mkdir()
    (folder / "style.md").write_text("tabs\n")
    init(agent_home, "windsurf", global_=False)
    assert "rtk recall" in (folder / "rtk.md").read_text()
    init(agent_home, "windsurf", global_=False, uninstall=True)
    assert sorted(p.name for p in folder.iterdir()) == ["style.md"]


def test_cline_gets_a_hook_script_of_rtks_own(agent_home: Path) -> None:
    """Cline 3 runs `~/.cline/hooks/PreToolUse.sh` with bash before each tool call."""
    init(agent_home, "cline")
    path = agent_home / ".cline/hooks/PreToolUse.sh"
    assert path.read_text().splitlines()[-1] == "rtk hook cline 2>/dev/null || true"
    assert all("already installed" in line for line in init(agent_home, "cline"))
    lines: list[str] = []
    show(("cline",), agent_home, agent_home, lines.append, lines.append)
    assert lines == [f"cline: installed in {path} (rtk hook cline)"]
    init(agent_home, "cline", uninstall=True)
    assert not path.exists()


def test_cline_hooks_are_global_and_a_script_rtk_did_not_write_stays(agent_home: Path) -> None:
    with pytest.raises(InstallError, match="global-only"):
        init(agent_home, "cline", global_=False)
    path = agent_home / ".cline/hooks/PreToolUse.sh"
    path.parent.mkdir(parents=True)
    path.write_text("echo '{}'\n")
    with pytest.raises(InstallError, match="not written by rtk"):
        init(agent_home, "cline")
    init(agent_home, "cline", uninstall=True)
    assert path.read_text() == "echo '{}'\n"


def test_an_agent_without_a_global_file_says_so(agent_home: Path) -> None:
    with pytest.raises(InstallError, match="Kimi has no global instruction file"):
        init(agent_home, "kimi")
    assert init(agent_home, "kimi", uninstall=True, every=True) == [
        "rtk is installed for no agent in your home directory; nothing to remove"]


def test_dry_run_writes_nothing(agent_home: Path) -> None:
    lines = init(agent_home, "qwen", "droid", dry_run=True)
    assert lines[0] == "dry run: nothing written" and any("+<!-- rtk: written by" in line for line in lines)
    assert not any(agent_home.rglob("*.md")) and not (agent_home / ".factory").exists()


def _rust_init(binary: Path, root: Path, agent: str, global_: bool) -> None:
    (root / "proj").mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q"], cwd=root / "proj", check=True)
    env = {"HOME": str(root / "home"), "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": str(root / "home/.config")}
    proc = subprocess.run([str(binary), "init", *(["-g"] if global_ else []), "--agent", agent, "--auto-patch",
                           "--no-trust-filters"], cwd=root / "proj", env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(("agent", "global_", "relative"), [
    ("droid", True, "home/.factory/hooks.json"),
    ("droid", False, "proj/.factory/hooks.json"),
    ("windsurf", True, "proj/.windsurfrules"),  # the Rust rtk's -g writes the project's file
    ("kilocode", False, "proj/.kilocode/rules/rtk-rules.md"),
    ("kimi", False, "proj/AGENTS.md"),
    ("trae", True, "home/.trae/hooks.json"),
    ("trae", False, "proj/.trae/hooks.json"),
])
def test_the_rust_rtks_install_is_recognised_and_migrated(tmp_path: Path, agent: str, global_: bool,
                                                          relative: str) -> None:
    binary = rust_rtk()
    if binary is None:
        pytest.skip(RUST_RTK_HINT)
    _rust_init(binary, tmp_path, agent, global_)
    path = tmp_path / relative
    assert path.exists(), f"the Rust rtk wrote no {relative}"
    ours_global = relative.startswith("home/")
    root = tmp_path / ("home" if ours_global else "proj")
    lines = init(root, agent, global_=ours_global)
    text = path.read_text()
    if agent in ("droid", "trae"):  # the same entry: already ours
        assert "already installed" in lines[-1] and f"rtk hook {agent}" in text
    else:
        assert not any("already installed" in line for line in lines)
        assert text.count("<!-- rtk: written by") == 1 and "Prefix every shell command" not in text
    init(root, agent, global_=ours_global, uninstall=True)
    assert not path.exists()


def test_hermes_gets_a_plugin_of_rtks_own_and_is_told_to_enable_it(agent_home: Path) -> None:
    lines = init(agent_home, "hermes")
    folder = agent_home / ".hermes/plugins/rtk"
    assert sorted(p.name for p in folder.iterdir()) == ["__init__.py", "plugin.yaml"]
    assert "hermes plugins enable rtk" in lines[-1]
    source = (folder / "__init__.py").read_text()
    compile(source, "__init__.py", "exec")  # Hermes imports it
    assert 'RTK = ["rtk"]' in source and 'ctx.register_hook("transform_tool_result", _transform)' in source
    assert all("already installed" in line for line in init(agent_home, "hermes"))
    init(agent_home, "hermes", uninstall=True)
    assert not folder.exists()
