"""`rtk init` over what an older rtk (or upstream's) left: Claude's pre-only install gets its
PostToolUse hook, Copilot's pre hook becomes the post hook, upstream's legacy entries are replaced
where they stood; read-only files, CLAUDE.md's final newline, temp files of killed runs."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rtk.agent.install import InstallError, Options, run_init, show
from rtk.agent.install.atomic import remove_stale_temps
from rtk.agent.install.stale import install_note, stale_installs
from tests.conftest import rtk_executable

RTK = {"type": "command", "command": "rtk hook claude"}
GROUP = {"matcher": "Bash", "hooks": [RTK]}
GUARD = {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/guard.sh"}]}
EDIT = {"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt"}]}
LOG = {"matcher": "*", "hooks": [{"type": "command", "command": "log"}]}
LEGACY = {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/hooks/rtk-rewrite.sh"}]}
OLD_PROGRAM = {"matcher": "Bash", "hooks": [{"type": "command", "command": "/old/venv/bin/rtk hook claude"}]}
GUARD_AND_RTK = {"matcher": "Bash", "hooks": [GUARD["hooks"][0], RTK]}


def init(home: Path, *agents: str, uninstall: bool = False) -> list[str]:
    lines: list[str] = []
    run_init(Options(agents or ("claude",), True, uninstall, home=home, program="rtk"), lines.append)
    return lines


def write_json(path: Path, doc: Any, mode: int = 0o644) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(doc, indent=2).encode()
    path.write_bytes(data)
    path.chmod(mode)
    return data


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


POST = {"matcher": "Bash|Read", "hooks": [RTK]}  # the Read tool too: session memory's re-reads
SESSION = {"PreCompact": [{"hooks": [RTK]}], "SessionStart": [{"hooks": [RTK]}], "Interrupt": [{"hooks": [RTK]}]}


def full(hooks: dict[str, Any]) -> dict[str, Any]:
    """An install as this rtk leaves it: the session memory's boundary hooks after the others."""
    return {**hooks, **SESSION}


CLAUDE_UPGRADES = [
    # (what an older install left, what rtk init makes of it)
    ({"hooks": {"PreToolUse": [GROUP]}}, {"hooks": full({"PreToolUse": [GROUP], "PostToolUse": [POST]})}),
    ({"model": "x", "hooks": {"PreToolUse": [EDIT, GROUP, GUARD], "PostToolUse": [LOG]}, "env": {}},
     {"model": "x", "hooks": full({"PreToolUse": [EDIT, GROUP, GUARD], "PostToolUse": [LOG, POST]}), "env": {}}),
    ({"hooks": {"PreToolUse": [EDIT, LEGACY, GUARD]}},
     {"hooks": full({"PreToolUse": [EDIT, GROUP, GUARD], "PostToolUse": [POST]})}),
    ({"hooks": {"PreToolUse": [GUARD_AND_RTK, EDIT]}},  # a Bash group shared with the user's hook is ours too
     {"hooks": full({"PreToolUse": [GUARD_AND_RTK, EDIT], "PostToolUse": [POST]})}),
    ({"hooks": {"PreToolUse": [{**GUARD_AND_RTK, "matcher": "*"}, EDIT]}},
     {"hooks": full({"PreToolUse": [{**GUARD, "matcher": "*"}, GROUP, EDIT], "PostToolUse": [POST]})}),
    ({"hooks": {"PreToolUse": [OLD_PROGRAM], "PostToolUse": [LOG, OLD_PROGRAM]}},
     {"hooks": full({"PreToolUse": [GROUP], "PostToolUse": [LOG, POST]})}),
    ({"hooks": {"PreToolUse": [GROUP, EDIT, GROUP]}},
     {"hooks": full({"PreToolUse": [GROUP, EDIT], "PostToolUse": [POST]})}),
    ({"hooks": {"PostToolUse": [GROUP]}}, {"hooks": full({"PostToolUse": [POST], "PreToolUse": [GROUP]})}),
    # an install from before session memory: the Read matcher and the boundary hooks are added
    ({"hooks": {"PreToolUse": [GROUP], "PostToolUse": [LOG, GROUP]}},
     {"hooks": full({"PreToolUse": [GROUP], "PostToolUse": [LOG, POST]})}),
]


@pytest.mark.parametrize(("before", "after"), CLAUDE_UPGRADES)
def test_an_older_claude_install_is_upgraded_in_place(agent_home: Path, before: Any, after: Any) -> None:
    path = agent_home / ".claude/settings.json"
    original = write_json(path, before)
    lines = init(agent_home)
    assert json.loads(path.read_text()) == after
    assert list(json.loads(path.read_text())) == list(after)
    assert Path(f"{path}.bak").read_bytes() == original
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert any(str(path) in line and "PostToolUse" in line for line in lines)
    again = snapshot(agent_home)
    assert all("already installed" in line for line in init(agent_home))
    assert snapshot(agent_home) == again


def test_uninstall_takes_both_claude_hooks_out(agent_home: Path) -> None:
    path = agent_home / ".claude/settings.json"
    write_json(path, {"hooks": {"PreToolUse": [EDIT], "PostToolUse": [LOG]}})
    init(agent_home)
    init(agent_home, uninstall=True)
    assert json.loads(path.read_text()) == {"hooks": {"PreToolUse": [EDIT], "PostToolUse": [LOG]}}


COPILOT = {"type": "command", "command": "rtk hook copilot", "timeoutSec": 30}
OTHER = {"type": "command", "command": "audit.sh"}
COPILOT_UPGRADES = [
    ({"version": 1, "hooks": {"preToolUse": [{"type": "command", "command": "rtk hook copilot", "timeoutSec": 5}]}},
     {"version": 1, "hooks": {"postToolUse": [COPILOT]}}),
    ({"version": 1, "hooks": {"PreToolUse": [{"type": "command", "command": "rtk hook copilot", "timeout": 5}]}},
     {"version": 1, "hooks": {"postToolUse": [COPILOT]}}),
    ({"version": 1, "hooks": {"preToolUse": [OTHER, {"type": "command", "command": "rtk hook copilot"}],
                              "postToolUse": [OTHER]}},
     {"version": 1, "hooks": {"preToolUse": [OTHER], "postToolUse": [OTHER, COPILOT]}}),
    ({"version": 1, "hooks": {"postToolUse": [{"type": "command", "command": "rtk hook copilot", "timeoutSec": 5}]}},
     {"version": 1, "hooks": {"postToolUse": [COPILOT]}}),
]


@pytest.mark.parametrize(("before", "after"), COPILOT_UPGRADES)
def test_copilot_gets_the_post_hook_only(agent_home: Path, before: Any, after: Any) -> None:
    path = agent_home / ".copilot/hooks/rtk-rewrite.json"
    write_json(path, before)
    init(agent_home, "copilot")
    assert json.loads(path.read_text()) == after
    assert all("already installed" in line for line in init(agent_home, "copilot"))


PROMPT_FIRST = {"type": "prompt", "prompt": "first"}
PROMPT_LAST = {"type": "prompt", "prompt": "last"}
CURSOR_LEGACY = {"command": "./hooks/rtk-rewrite.sh", "matcher": "Shell"}
CURSOR_RTK = {"command": "rtk hook cursor", "matcher": "Shell"}
CURSOR_CASES = [
    ([PROMPT_FIRST, CURSOR_LEGACY, PROMPT_LAST], [PROMPT_FIRST, CURSOR_RTK, PROMPT_LAST]),
    ([CURSOR_LEGACY, PROMPT_LAST], [CURSOR_RTK, PROMPT_LAST]),
    ([PROMPT_FIRST, {"command": "rtk hook cursor"}, PROMPT_LAST], [PROMPT_FIRST, CURSOR_RTK, PROMPT_LAST]),
    ([PROMPT_FIRST], [PROMPT_FIRST, CURSOR_RTK]),
]


@pytest.mark.parametrize(("before", "after"), CURSOR_CASES)
def test_cursor_entries_keep_their_order(agent_home: Path, before: list[Any], after: list[Any]) -> None:
    path = agent_home / ".cursor/hooks.json"
    write_json(path, {"version": 1, "hooks": {"preToolUse": before, "afterFileEdit": [{"command": "fmt"}]}})
    init(agent_home, "cursor")
    assert json.loads(path.read_text()) == {"version": 1, "hooks": {"preToolUse": after,
                                                                     "afterFileEdit": [{"command": "fmt"}]}}
    init(agent_home, "cursor", uninstall=True)
    kept = [entry for entry in after if entry != CURSOR_RTK]
    assert json.loads(path.read_text())["hooks"]["preToolUse"] == kept


USER_PROMPT_RUNNING_RTK = {"type": "prompt", "command": "rtk hook cursor", "prompt": "check it", "matcher": "Shell"}


def test_a_cursor_prompt_entry_running_rtk_is_the_users(agent_home: Path) -> None:
    """Only rtk's own command entries are rtk's: a `type: "prompt"` entry whose command happens to
    be `rtk hook cursor` stays through init and uninstall (issue 41)."""
    path = agent_home / ".cursor/hooks.json"
    write_json(path, {"version": 1, "hooks": {"preToolUse": [USER_PROMPT_RUNNING_RTK]}})
    init(agent_home, "cursor")
    assert json.loads(path.read_text())["hooks"]["preToolUse"] == [USER_PROMPT_RUNNING_RTK, CURSOR_RTK]
    init(agent_home, "cursor", uninstall=True)
    assert json.loads(path.read_text()) == {"version": 1, "hooks": {"preToolUse": [USER_PROMPT_RUNNING_RTK]}}
    lines = init(agent_home, "cursor", uninstall=True)
    assert json.loads(path.read_text())["hooks"]["preToolUse"] == [USER_PROMPT_RUNNING_RTK]
    assert any("nothing to remove" in line for line in lines)


SCRIPT = "#!/usr/bin/env bash\n# rtk-hook-version: 3\nexec rtk rewrite \"$@\"\n"


@pytest.mark.parametrize("uninstall", [False, True])
@pytest.mark.parametrize(("agent", "folder"), [("cursor", ".cursor"), ("claude", ".claude")])
def test_upstream_legacy_script_goes_even_when_no_entry_names_it(agent_home: Path, agent: str, folder: str,
                                                                  uninstall: bool) -> None:
    script = agent_home / folder / "hooks/rtk-rewrite.sh"
    script.parent.mkdir(parents=True)
    script.write_text(SCRIPT)
    if uninstall:
        init(agent_home, agent)
        script.write_text(SCRIPT)
    lines = init(agent_home, agent, uninstall=uninstall)
    assert not script.exists()
    assert Path(f"{script}.bak").read_text() == SCRIPT
    assert any(str(script) in line and "legacy" in line for line in lines)


def test_a_script_of_that_name_without_rtk_in_it_stays(agent_home: Path) -> None:
    script = agent_home / ".cursor/hooks/rtk-rewrite.sh"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\necho mine\n")
    init(agent_home, "cursor")
    assert script.read_text() == "#!/bin/sh\necho mine\n"


@pytest.mark.parametrize("uninstall", [False, True])
@pytest.mark.parametrize("mode", [0o444, 0o400, 0o555])
def test_a_read_only_settings_file_is_refused(agent_home: Path, mode: int, uninstall: bool) -> None:
    path = agent_home / ".claude/settings.json"
    write_json(path, {"model": "x", "hooks": {"PreToolUse": [GROUP]}}, mode=0o644)
    path.chmod(mode)
    before = snapshot(agent_home)
    with pytest.raises(InstallError) as info:
        init(agent_home, uninstall=uninstall)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and "read-only" in message
    assert f"{mode:04o}" in message and "nothing written" in message
    assert snapshot(agent_home) == before
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_read_only_refusal_is_one_line_and_exit_1_on_the_cli(agent_home: Path) -> None:
    path = agent_home / ".claude/settings.json"
    write_json(path, {"model": "x"})
    path.chmod(0o444)
    done = subprocess.run([*rtk_executable(), "init", "-g"], env=dict(os.environ, HOME=str(agent_home)),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "read-only" in done.stderr and "Traceback" not in done.stderr
    assert json.loads(path.read_text()) == {"model": "x"}


@pytest.mark.parametrize("text", ["# mine\nbe brief", "# mine\nbe brief\n", "", "a\r\nb", "a\r\nb\r\n",
                                  "top\n@RTK.md\nbottom", "x"])
def test_claude_md_round_trip_keeps_its_bytes(agent_home: Path, text: str) -> None:
    claude_md = agent_home / ".claude/CLAUDE.md"
    claude_md.parent.mkdir()
    claude_md.write_bytes(text.encode())
    init(agent_home)
    installed = claude_md.read_bytes().decode()
    assert installed.count("@RTK.md") == 1
    init(agent_home, uninstall=True)
    if "@RTK.md" in text:
        assert claude_md.read_bytes() == text.replace("@RTK.md\n", "").encode()
    elif text.strip():
        assert claude_md.read_bytes() == text.encode()
    else:
        assert not claude_md.exists()


def _temp(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text("half-written")
    return path


def test_temp_files_of_killed_runs_are_removed_on_the_next_run(agent_home: Path) -> None:
    folder = agent_home / ".claude"
    write_json(folder / "settings.json", {"model": "x"})
    ours = [_temp(folder, ".settings.json.ab12_z9q.tmp"), _temp(folder, ".settings.json.bak.0123abcd.tmp"),
            _temp(folder, ".CLAUDE.md.zzzzzzzz.tmp")]
    others = [_temp(folder, ".settings.json.tmp"), _temp(folder, "notes.ab12_z9q.tmp"),
              _temp(folder, ".settings.json.TOOLONGXX.tmp"), _temp(folder, ".other.json.ab12_z9q.tmp")]
    lines = init(agent_home)
    assert not any(p.exists() for p in ours)
    assert all(p.exists() for p in others)
    assert sum("interrupted rtk init" in line for line in lines) == len(ours)
    assert not any("interrupted" in line for line in init(agent_home))


HOLDER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="flock: POSIX only")
def test_a_temp_file_a_live_run_holds_is_kept_and_one_killed_runs_left_is_not(agent_home: Path) -> None:
    target = agent_home / "settings.json"
    temp = agent_home / ".settings.json.abcd1234.tmp"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(temp)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        assert remove_stale_temps(target) == [] and temp.exists()
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=30)
        assert remove_stale_temps(target) == [temp] and not temp.exists()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def test_a_symlink_or_directory_named_like_a_temp_file_is_left(agent_home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "precious"
    outside.write_text("keep")
    (agent_home / ".settings.json.abcd1234.tmp").symlink_to(outside)
    (agent_home / ".settings.json.dddd1234.tmp").mkdir()
    assert remove_stale_temps(agent_home / "settings.json") == []
    assert outside.read_text() == "keep"


def test_an_old_claude_install_is_flagged_by_show_and_gain(agent_home: Path, tmp_path: Path) -> None:
    path = agent_home / ".claude/settings.json"
    write_json(path, {"hooks": {"PreToolUse": [GROUP]}})
    out: list[str] = []
    show(("claude",), agent_home, tmp_path, out.append, out.append)
    assert len(out) == 1 and "PostToolUse" in out[0] and "run `rtk init -g --agent claude` again" in out[0]
    note = install_note(agent_home, tmp_path)
    assert note is not None and "\n" not in note and str(path) in note and "`rtk init -g`" in note
    assert [s.missing for s in stale_installs(agent_home, tmp_path)] == [("PostToolUse", "PreCompact", "SessionStart", "Interrupt")]
    init(agent_home)
    assert install_note(agent_home, tmp_path) is None
    out.clear()
    show(("claude",), agent_home, tmp_path, out.append, out.append)
    assert "again" not in out[0]


def test_an_old_copilot_install_and_a_local_one_are_flagged(agent_home: Path, tmp_path: Path) -> None:
    write_json(agent_home / ".copilot/hooks/rtk-rewrite.json",
               {"version": 1, "hooks": {"preToolUse": [{"type": "command", "command": "rtk hook copilot"}]}})
    project = tmp_path / "project"
    write_json(project / ".claude/settings.json", {"hooks": {"PreToolUse": [GROUP]}})
    stale = stale_installs(agent_home, project)
    assert [(s.agent, s.rerun()) for s in stale] == [("claude", "rtk init"), ("copilot", "rtk init -g --agent copilot")]
    note = install_note(agent_home, project)
    assert note is not None and note.endswith("(and 1 more: rtk init --show)")


@pytest.mark.parametrize("content", ["{", "[]", '{"hooks": []}', '{"hooks": {"PreToolUse": {}}}', "\xff"])
def test_the_note_never_fails_on_a_broken_file(agent_home: Path, tmp_path: Path, content: str) -> None:
    path = agent_home / ".claude/settings.json"
    path.parent.mkdir()
    path.write_bytes(content.encode("latin-1"))
    assert install_note(agent_home, tmp_path) is None


def test_rtk_gain_prints_the_note(agent_home: Path) -> None:
    write_json(agent_home / ".claude/settings.json", {"hooks": {"PreToolUse": [GROUP]}})
    done = subprocess.run([*rtk_executable(), "gain"], env=dict(os.environ, HOME=str(agent_home)),
                          capture_output=True, text=True, check=False, cwd=agent_home)
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stdout.splitlines() if "older rtk" in line]
    assert len(notes) == 1 and "rtk init -g" in notes[0]


def test_rtk_uninstall_with_no_agent_takes_rtk_out_everywhere(agent_home: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(agent_home / ".config"))
    env = dict(os.environ, HOME=str(agent_home))
    write_json(agent_home / ".gemini/settings.json", {"theme": "dark"})
    for agent in ("claude", "cursor", "copilot", "opencode"):
        assert subprocess.run([*rtk_executable(), "init", "-g", "--agent", agent], env=env,
                              capture_output=True, check=False).returncode == 0
    done = subprocess.run([*rtk_executable(), "uninstall", "-g"], env=env, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert sorted(str(p.relative_to(agent_home)) for p in agent_home.rglob("*") if p.is_file()) == [
        ".gemini/settings.json"]
    assert "nothing to remove" not in done.stdout and "opencode" in done.stdout and "copilot" in done.stdout
    again = subprocess.run([*rtk_executable(), "uninstall", "-g"], env=env, capture_output=True, text=True,
                           check=False)
    assert again.returncode == 0 and again.stdout.strip() == (
        "rtk is installed for no agent in your home directory; nothing to remove")
    local = subprocess.run([*rtk_executable(), "uninstall"], env=env, capture_output=True, text=True,
                           check=False, cwd=agent_home)
    assert local.returncode == 0 and "nothing to remove" in local.stdout


KILLED_RUNS = 16


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL: POSIX only")
def test_runs_killed_at_random_points_never_leave_a_broken_file_nor_temp_files(agent_home: Path) -> None:
    """`rtk init` and `rtk uninstall` killed with SIGKILL at staggered moments: settings.json is
    always whole JSON (old or new), and the next run leaves no temporary file behind."""
    import random
    import time

    path = agent_home / ".claude/settings.json"
    write_json(path, {"model": "x", "permissions": {"allow": [f"Bash(tool{i}:*)" for i in range(2000)]}})
    env = dict(os.environ, HOME=str(agent_home))
    rng = random.Random(35)
    for n in range(KILLED_RUNS):
        verb = ["init", "-g"] if n % 2 == 0 else ["uninstall", "-g", "--agent", "claude"]
        child = subprocess.Popen([*rtk_executable(), *verb], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, 0.6))
        child.send_signal(signal.SIGKILL)
        child.wait()
        doc = json.loads(path.read_text())
        assert doc["model"] == "x" and len(doc["permissions"]["allow"]) == 2000
    done = subprocess.run([*rtk_executable(), "init", "-g"], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert not [p for p in agent_home.rglob("*.tmp")]
