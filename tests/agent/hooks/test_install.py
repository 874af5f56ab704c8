"""`rtk init` in a temporary HOME: fresh installs, merges, refusals, idempotence, round trips."""
from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rtk.agent.install import (
    AGENTS,
    ALL_AGENTS,
    InstallError,
    Options,
    UsageError,
    hook_program,
    run_init,
    show,
)
from rtk.agent.install.awareness import RTK_MD
from rtk.agent.install.files import dump_json
from tests.conftest import rtk_executable

GROUP = {"matcher": "Bash", "hooks": [{"type": "command", "command": "rtk hook claude"}]}
POST_GROUP = {"matcher": "Bash|Read", "hooks": [{"type": "command", "command": "rtk hook claude"}]}
SESSION_GROUP = {"hooks": [{"type": "command", "command": "rtk hook claude"}]}  # every PreCompact/SessionStart/Interrupt
FRESH: dict[str, tuple[str, Any]] = {
    "claude": (".claude/settings.json", {"hooks": {"PreToolUse": [GROUP], "PostToolUse": [POST_GROUP],
                                                   "PreCompact": [SESSION_GROUP], "SessionStart": [SESSION_GROUP],
                                                   "Interrupt": [SESSION_GROUP]}}),
    "cursor": (".cursor/hooks.json", {"version": 1, "hooks": {"preToolUse": [
        {"command": "rtk hook cursor", "matcher": "Shell"}]}}),
    "gemini": (".gemini/settings.json", {"hooks": {"BeforeTool": [
        {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "rtk hook gemini"}]}]}}),
    "codex": (".codex/hooks.json", {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "rtk hook codex"}]}]}}),
    "copilot": (".copilot/hooks/rtk-rewrite.json", {"version": 1, "hooks": {"postToolUse": [
        {"type": "command", "command": "rtk hook copilot", "timeoutSec": 30}]}}),
    "droid": (".factory/hooks.json", {"PreToolUse": [
        {"matcher": "Execute", "hooks": [{"type": "command", "command": "rtk hook droid"}]}]}),
    "trae": (".trae/hooks.json", {"version": 1, "hooks": {"PreToolUse": [
        {"matcher": "RunCommand", "hooks": [{"type": "command", "command": "rtk hook trae", "timeout": 30}]}]}}),
}


def init(home: Path, *agents: str, uninstall: bool = False, dry_run: bool = False,
         program: str = "rtk") -> list[str]:
    lines: list[str] = []
    run_init(Options(agents or ("claude",), True, uninstall, dry_run, home=home, program=program), lines.append)
    return lines


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes(), stat.S_IMODE(p.stat().st_mode))
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("agent", list(AGENTS))
def test_fresh_install_writes_the_spec_entry(agent_home: Path, agent: str) -> None:
    lines = init(agent_home, agent)
    relative, expected = FRESH[agent]
    path = agent_home / relative
    assert json.loads(path.read_text()) == expected
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert any(str(path) in line for line in lines)
    assert not Path(f"{path}.bak").exists()


def test_claude_awareness_files(agent_home: Path) -> None:
    init(agent_home)
    assert (agent_home / ".claude/RTK.md").read_text() == RTK_MD
    assert "rtk recall" in RTK_MD
    assert (agent_home / ".claude/CLAUDE.md").read_text() == "@RTK.md\n"
    (agent_home / ".claude/CLAUDE.md").write_text("# mine\nbe brief")
    init(agent_home)
    init(agent_home)
    assert (agent_home / ".claude/CLAUDE.md").read_text() == "# mine\nbe brief\n@RTK.md"
    assert (agent_home / ".claude/CLAUDE.md.bak").read_text() == "# mine\nbe brief"


USER_SETTINGS: dict[str, Any] = {
    "env": {"FOO": "1"},
    "permissions": {"allow": ["Bash(ls:*)"], "deny": []},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/guard.sh"}]},
                       {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt"}]}],
        "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "log"}]}],
    },
    "model": "opus",
}


def test_existing_settings_keep_other_hooks_keys_and_order(agent_home: Path) -> None:
    path = agent_home / ".claude/settings.json"
    path.parent.mkdir()
    original = json.dumps(USER_SETTINGS, indent=4).encode()
    path.write_bytes(original)
    lines = init(agent_home)
    doc = json.loads(path.read_text())
    assert list(doc) == list(USER_SETTINGS)
    assert doc["hooks"]["PreToolUse"] == [*USER_SETTINGS["hooks"]["PreToolUse"], GROUP]
    assert {k: v for k, v in doc.items() if k != "hooks"} == {k: v for k, v in USER_SETTINGS.items() if k != "hooks"}
    assert doc["hooks"]["PostToolUse"] == [*USER_SETTINGS["hooks"]["PostToolUse"], POST_GROUP]
    assert Path(f"{path}.bak").read_bytes() == original
    assert any(f"{path}.bak" in line for line in lines)


def test_malformed_json_writes_nothing_anywhere(agent_home: Path) -> None:
    (agent_home / ".gemini").mkdir()
    (agent_home / ".gemini/settings.json").write_text('{"theme": "dark",}')
    (agent_home / ".claude").mkdir()
    (agent_home / ".claude/settings.json").write_text('{"model": "opus"}')
    before = snapshot(agent_home)
    with pytest.raises(InstallError, match=r"\.gemini/settings\.json: invalid JSON") as info:
        init(agent_home, "claude", "gemini")
    assert info.value.exit_code == 1
    assert snapshot(agent_home) == before


@pytest.mark.parametrize("content", ['{"hooks": []}', '{"hooks": {"PreToolUse": {}}}', "[1]",
                                     '{"a": 1, "a": 2}', "\xff"])
def test_shapes_rtk_cannot_merge_into_are_refused(agent_home: Path, content: str) -> None:
    path = agent_home / ".claude/settings.json"
    path.parent.mkdir()
    path.write_bytes(content.encode("latin-1"))
    before = snapshot(agent_home)
    with pytest.raises(InstallError, match=str(path)):
        init(agent_home)
    assert snapshot(agent_home) == before


def test_second_install_changes_nothing(agent_home: Path) -> None:
    init(agent_home, *AGENTS)
    before = snapshot(agent_home)
    lines = init(agent_home, *AGENTS)
    assert snapshot(agent_home) == before
    assert all("already installed in" in line for line in lines)
    assert len(lines) == len(AGENTS) + 2


def test_reinstall_from_elsewhere_updates_the_entry(agent_home: Path) -> None:
    init(agent_home, program="/old/venv/bin/rtk")
    init(agent_home, program="rtk")
    doc = json.loads((agent_home / ".claude/settings.json").read_text())
    assert doc == FRESH["claude"][1]


@pytest.mark.parametrize("agent", list(AGENTS))
def test_uninstall_round_trip_is_byte_identical(agent_home: Path, agent: str) -> None:
    relative = FRESH[agent][0]
    path = agent_home / relative
    path.parent.mkdir(parents=True)
    user = {"version": 1, "hooks": {AGENTS[agent].events[0]: [{"matcher": "x", "command": "mine", "hooks": []}],
                                    "Other": [{"command": "keep"}]}, "theme": "ünïcode ✓"}
    path.write_bytes(dump_json(user))
    os.chmod(path, 0o644)
    if agent == "claude":
        (path.parent / "CLAUDE.md").write_text("# notes\n")
    before = snapshot(agent_home)
    init(agent_home, agent)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert stat.S_IMODE(Path(f"{path}.bak").stat().st_mode) == 0o644
    init(agent_home, agent, uninstall=True)
    after = {k: v for k, v in snapshot(agent_home).items() if not k.endswith(".bak")}
    assert after == before


@pytest.mark.parametrize("agent", list(AGENTS))
def test_uninstall_of_a_fresh_install_removes_what_it_created(agent_home: Path, agent: str) -> None:
    (agent_home / "keep.txt").write_text("x")
    init(agent_home, agent)
    lines = init(agent_home, agent, uninstall=True)
    assert sorted(p.name for p in agent_home.rglob("*")) == ["keep.txt"]
    assert all(str(agent_home) in line for line in lines)
    lines = init(agent_home, agent, uninstall=True)
    assert all("nothing to remove" in line for line in lines)


def test_uninstall_leaves_a_foreign_rtk_md_and_other_lines(agent_home: Path) -> None:
    claude = agent_home / ".claude"
    init(agent_home)
    (claude / "RTK.md").write_text("my own notes\n")
    (claude / "CLAUDE.md").write_text("top\n@RTK.md\nbottom\n")
    init(agent_home, uninstall=True)
    assert (claude / "RTK.md").read_text() == "my own notes\n"
    assert (claude / "CLAUDE.md").read_text() == "top\nbottom\n"


def test_dry_run_writes_nothing_and_prints_a_diff_per_file(agent_home: Path) -> None:
    (agent_home / ".claude").mkdir()
    (agent_home / ".claude/settings.json").write_text('{"model": "opus"}\n')
    before = snapshot(agent_home)
    out = "\n".join(init(agent_home, "claude", "codex", dry_run=True))
    assert snapshot(agent_home) == before
    for name in (".claude/settings.json", ".claude/RTK.md", ".claude/CLAUDE.md", ".codex/hooks.json"):
        assert f"+++ {agent_home / name}" in out
    assert f"--- {agent_home / '.claude/settings.json'}" in out and "--- /dev/null" in out
    assert '+  "hooks": {' in out and '-{"model": "opus"}' in out
    init(agent_home)
    before = snapshot(agent_home)
    out = "\n".join(init(agent_home, uninstall=True, dry_run=True))
    assert snapshot(agent_home) == before and "+++ /dev/null" in out


def test_symlinked_settings_are_written_through(agent_home: Path, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text("{}")
    (agent_home / ".claude").mkdir()
    (agent_home / ".claude/settings.json").symlink_to(real)
    init(agent_home)
    assert (agent_home / ".claude/settings.json").is_symlink()
    assert json.loads(real.read_text()) == FRESH["claude"][1]


def test_global_only_agents_need_g(agent_home: Path, tmp_path: Path) -> None:
    for agent in ("cursor", "gemini"):
        with pytest.raises(UsageError, match=f"{agent.capitalize()} hooks are global-only. Use: rtk init -g "
                                              f"--agent {agent}"):
            run_init(Options((agent,), False, home=agent_home, cwd=tmp_path, program="rtk"), print)
    run_init(Options(("claude", "codex"), False, home=agent_home, cwd=tmp_path / "project", program="rtk"),
             print)
    assert (tmp_path / "project/.claude/settings.json").is_file()
    assert (tmp_path / "project/.codex/hooks.json").is_file()
    assert not (agent_home / ".claude").exists()


def test_show_one_line_per_agent_and_warns_on_a_missing_program(agent_home: Path, tmp_path: Path) -> None:
    init(agent_home, "claude", program="rtk")
    init(agent_home, "codex", program=str(tmp_path / "gone" / "rtk"))
    out: list[str] = []
    warnings: list[str] = []
    show((), agent_home, agent_home, out.append, warnings.append)
    assert [line.split(":")[0] for line in out] == list(ALL_AGENTS)
    assert out[0] == f"claude: installed in {agent_home / '.claude/settings.json'} (rtk hook claude)"
    assert out[1] == f"cursor: not installed ({agent_home / '.cursor/hooks.json'})"
    assert len(warnings) == 1 and "no longer exists" in warnings[0] and "hooks.json" in warnings[0]


def test_hook_program_prefers_rtk_on_path_only_when_it_is_this_one(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    mine = Path(rtk_executable()[0])
    if mine.name != "rtk":
        pytest.skip("no installed rtk script")
    monkeypatch.setenv("PATH", str(mine.parent))
    assert hook_program() == "rtk"
    other = tmp_path / "bin"
    other.mkdir()
    (other / "rtk").write_text("#!/bin/sh\n")
    (other / "rtk").chmod(0o755)
    monkeypatch.setenv("PATH", str(other))
    assert hook_program() == str(mine)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert hook_program() == str(mine)


def cli(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HOME=str(home))
    return subprocess.run([*rtk_executable(), "init", *args], capture_output=True, text=True, env=env,
                          check=False)


def test_cli_exit_codes_and_messages(agent_home: Path) -> None:
    first = cli("-g", "--agent", "claude", "--agent", "cursor", home=agent_home)
    assert first.returncode == 0, first.stderr
    assert str(agent_home / ".cursor/hooks.json") in first.stdout
    assert "already installed" in cli("-g", "--agent", "cursor", home=agent_home).stdout
    assert cli("--agent", "gemini", home=agent_home).returncode == 2
    (agent_home / ".codex").mkdir()
    (agent_home / ".codex/hooks.json").write_text("{")
    bad = cli("-g", "--agent", "codex", home=agent_home)
    assert bad.returncode == 1 and str(agent_home / ".codex/hooks.json") in bad.stderr
    shown = cli("--show", home=agent_home)
    assert shown.returncode == 0 and len(shown.stdout.splitlines()) == len(ALL_AGENTS)
    assert cli("-g", "--uninstall", "--agent", "claude", "--agent", "cursor", home=agent_home).returncode == 0
    assert not (agent_home / ".claude").exists() and not (agent_home / ".cursor").exists()


@pytest.mark.parametrize(("agent", "variable", "relative"), [
    ("claude", "CLAUDE_CONFIG_DIR", "settings.json"), ("codex", "CODEX_HOME", "hooks.json"),
    ("copilot", "COPILOT_HOME", "hooks/rtk-rewrite.json")])
def test_the_agents_own_config_variables(agent_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         agent: str, variable: str, relative: str) -> None:
    monkeypatch.setenv(variable, str(tmp_path / "elsewhere"))
    init(agent_home, agent)
    assert json.loads((tmp_path / "elsewhere" / relative).read_text()) == FRESH[agent][1]
    assert not (agent_home / FRESH[agent][0]).exists()
    init(agent_home, agent, uninstall=True)
    assert not (tmp_path / "elsewhere" / relative).exists()


LEGACY_SCRIPT = "#!/usr/bin/env bash\n# rtk-hook-version: 2\nexec rtk rewrite \"$@\"\n"


@pytest.mark.parametrize(("agent", "command", "script"), [
    ("claude", "~/.claude/hooks/rtk-rewrite.sh", ".claude/hooks/rtk-rewrite.sh"),
    ("cursor", "./hooks/rtk-rewrite.sh", ".cursor/hooks/rtk-rewrite.sh")])
def test_upstream_legacy_hook_is_migrated(agent_home: Path, agent: str, command: str, script: str) -> None:
    relative, fresh = FRESH[agent]
    legacy: dict[str, Any] = ({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command}]}]}} if agent == "claude" else
        {"version": 1, "hooks": {"preToolUse": [{"command": command, "matcher": "Shell"}]}})
    (agent_home / relative).parent.mkdir(parents=True)
    (agent_home / relative).write_text(json.dumps(legacy))
    (agent_home / script).parent.mkdir(parents=True, exist_ok=True)
    (agent_home / script).write_text(LEGACY_SCRIPT)
    lines = init(agent_home, agent)
    assert json.loads((agent_home / relative).read_text()) == fresh
    assert not (agent_home / script).exists()
    assert (agent_home / f"{script}.bak").read_text() == LEGACY_SCRIPT
    assert any("legacy" in line and script in line for line in lines)
    assert all("already installed" in line for line in init(agent_home, agent))


def test_uninstall_removes_a_legacy_entry_too(agent_home: Path) -> None:
    path = agent_home / ".claude/settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"model": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "bash /opt/rtk/rtk-rewrite.sh"}]}]}}))
    init(agent_home, uninstall=True)
    assert json.loads(path.read_text()) == {"model": "x"}


def test_an_rtk_entry_of_another_matcher_is_replaced(agent_home: Path) -> None:
    path = agent_home / ".claude/settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "*", "hooks": [{"type": "command", "command": "rtk hook claude"}]}]}}))
    lines = init(agent_home)
    assert "already installed" not in lines[0]
    assert json.loads(path.read_text()) == FRESH["claude"][1]


def test_a_prompt_entry_naming_rtk_is_the_users(agent_home: Path) -> None:
    """Only command entries run a command: a `type: "prompt"` one is the user's, kept as it is."""
    prompt = {"matcher": "Bash", "hooks": [{"type": "prompt", "command": "rtk hook claude"}]}
    path = agent_home / ".claude/settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"PreToolUse": [prompt]}}))
    init(agent_home)
    assert json.loads(path.read_text())["hooks"]["PreToolUse"] == [prompt, GROUP]
    init(agent_home, uninstall=True)
    assert json.loads(path.read_text()) == {"hooks": {"PreToolUse": [prompt]}}


def test_copilot_old_event_and_timeout_field_are_migrated(agent_home: Path) -> None:
    path = agent_home / FRESH["copilot"][0]
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 1, "hooks": {"PreToolUse": [
        {"type": "command", "command": "rtk hook copilot", "timeout": 5}]}}))
    init(agent_home, "copilot")
    assert json.loads(path.read_text()) == FRESH["copilot"][1]


def test_an_unwritable_backup_is_one_clear_error_and_nothing_written(agent_home: Path) -> None:
    path = agent_home / ".claude/settings.json"
    path.parent.mkdir()
    path.write_text('{"model": "x"}')
    Path(f"{path}.bak").mkdir()  # a directory where the backup must go
    before = snapshot(agent_home)
    with pytest.raises(InstallError, match="cannot write the backup"):
        init(agent_home)
    assert snapshot(agent_home) == before


def test_gemini_twins_of_allow_rules_are_added_and_removed(agent_home: Path) -> None:
    path = agent_home / ".gemini/settings.json"
    path.parent.mkdir()
    allowed = ["run_shell_command(git status)", "read_file", "run_shell_command(cargo test)"]
    path.write_text(json.dumps({"tools": {"allowed": list(allowed)}}))
    lines = init(agent_home, "gemini")
    doc = json.loads(path.read_text())
    assert doc["tools"]["allowed"] == [*allowed, "run_shell_command(rtk git status)",
                                       "run_shell_command(rtk cargo test)"]
    assert any("2 rtk-form twins" in line for line in lines)
    init(agent_home, "gemini", uninstall=True)
    assert json.loads(path.read_text()) == {"tools": {"allowed": allowed}}


def test_codex_install_says_the_hook_must_be_trusted(agent_home: Path) -> None:
    assert any("/hooks" in line and "trust" in line for line in init(agent_home, "codex"))
    assert not any("trust" in line for line in init(agent_home, "codex"))


def test_rtk_uninstall_verb(agent_home: Path) -> None:
    env = dict(os.environ, HOME=str(agent_home))
    run = [*rtk_executable(), "uninstall"]
    assert subprocess.run([*rtk_executable(), "init", "-g"], env=env, capture_output=True,
                          check=False).returncode == 0
    dry = subprocess.run([*run, "-g", "--dry-run"], env=env, capture_output=True, text=True, check=False)
    assert dry.returncode == 0 and "+++ /dev/null" in dry.stdout
    assert (agent_home / ".claude/settings.json").exists()
    done = subprocess.run([*run, "-g"], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and not (agent_home / ".claude/settings.json").exists()
    local = subprocess.run([*run, "--agent", "cursor"], env=env, capture_output=True, text=True, check=False)
    assert local.returncode == 2
    assert local.stderr.strip() == "rtk: Cursor hooks are global-only. Use: rtk init -g --agent cursor"
