"""`rtk hook` as a process: size cap, audit log, `hook check`, fail-open paths, the import budget."""
from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rtk.agent import hooks
from rtk.agent.hosts import HOSTS
from tests.agent.hooks.conftest import run_hook

PAYLOAD = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
           "tool_input": {"command": "cargo build && cargo test"}}


def payload(command: str) -> bytes:
    return json.dumps({"tool_name": "Bash", "tool_input": {"command": command}}).encode()


@pytest.mark.parametrize("host", list(HOSTS))
def test_over_one_mib_gets_no_opinion_and_one_stderr_line(host: str) -> None:
    big = {"tool_name": "Bash", "tool_input": {"command": "git status", "pad": "x" * (2**20)}}
    result = run_hook(host, json.dumps(big).encode())
    assert result.returncode == 0
    assert result.stdout == hooks.render(HOSTS[host].no_opinion).encode()
    assert len(result.stderr.splitlines()) == 1 and b"1048576" in result.stderr


def test_exactly_one_mib_is_still_read() -> None:
    data = payload("cargo test")
    data = data[:-1] + b" " * (2**20 - len(data)) + b"}"
    assert len(data) == 2**20
    assert b"rtk cargo test" in run_hook("claude", data).stdout


def test_unknown_host_or_no_host_is_exit_0_with_one_stderr_line() -> None:
    for args in (["claud"], [], ["claude", "extra"]):
        result = run_hook("", payload("git status"), args=args)
        assert (result.returncode, result.stdout) == (0, b"")
        assert len(result.stderr.splitlines()) == 1 and b"Traceback" not in result.stderr


def test_audit_log_lines(tmp_path: Path) -> None:
    audit_dir = tmp_path / "audit"
    env = {"RTK_HOOK_AUDIT": "1", "RTK_AUDIT_DIR": str(audit_dir)}
    commands = ["cargo test", "git status > f", "rtk git status", "git status", "cargo test || echo 'a\\b'\r",
                "git status && cargo test"]
    for command in commands:
        assert run_hook("claude", payload(command), env).returncode == 0
    run_hook("claude", b"{}", env)  # no command: no decision, no line
    log = audit_dir / "hook-audit.log"
    lines = log.read_text().splitlines()
    assert len(lines) == 6
    fields = [line.split(" | ", 1)[1] for line in lines]
    assert fields == ["ask | cargo test | rtk cargo test", "skip:defer | git status > f | ",
                      "skip:none | rtk git status | ",
                      "skip:post | git status | ",
                      "ask | cargo test \\|\\| echo 'a\\\\b'\\r | rtk cargo test \\|\\| echo 'a\\\\b'\\r",
                      "skip:defer | git status && cargo test | "]
    assert all(len(line.split(" | ")[0]) == len("2026-01-01T00:00:00") for line in lines)
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_audit_deny_rule_and_allow(agent_home: Path, tmp_path: Path) -> None:
    (agent_home / ".claude").mkdir()
    (agent_home / ".claude" / "settings.json").write_text(json.dumps(
        {"permissions": {"allow": ["Bash(cargo test)"], "deny": ["Bash(git push:*)"]}}))
    env = {"RTK_HOOK_AUDIT": "1", "RTK_AUDIT_DIR": str(tmp_path / "a")}
    run_hook("claude", payload("git push"), env)
    run_hook("claude", payload("cargo test"), env)
    actions = [line.split(" | ")[1] for line in (tmp_path / "a" / "hook-audit.log").read_text().splitlines()]
    assert actions == ["skip:deny_rule", "rewrite"]


def test_audit_off_by_default_and_default_path_is_the_data_dir(hermetic_rtk: Path) -> None:
    run_hook("claude", payload("git status"))
    assert not list(hermetic_rtk.rglob("hook-audit.log"))
    run_hook("claude", payload("git status"), {"RTK_HOOK_AUDIT": "1"})
    assert (hermetic_rtk / "data" / "rtk" / "hook-audit.log").is_file()


def test_audit_write_failure_is_one_stderr_line_and_still_answers(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run_hook("claude", payload("cargo test"), {"RTK_HOOK_AUDIT": "1", "RTK_AUDIT_DIR": str(blocker)})
    assert result.returncode == 0 and b"rtk cargo test" in result.stdout
    assert len(result.stderr.splitlines()) == 1


def test_hook_check_prints_every_host() -> None:
    result = subprocess.run([sys.executable, "-m", "rtk", "hook", "check", "cargo", "test"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0
    rows = [line.split(None, 2) for line in result.stdout.splitlines()]
    expected = {"codex": "rewrite", "copilot": "-", "opencode": "-", "kilo": "-", "hermes": "-"}  # "-": post path only
    assert [row[:2] for row in rows] == [[name, expected.get(name, "ask")] for name in HOSTS]
    lines = {row[0]: row[2] for row in rows}
    assert json.loads(lines["claude"])["hookSpecificOutput"]["updatedInput"] == {"command": "rtk cargo test"}
    assert json.loads(lines["cursor"])["permission"] == "ask"
    assert lines["copilot"] == "(no output)"
    none = subprocess.run([sys.executable, "-m", "rtk", "hook", "check", "echo hi"],
                          capture_output=True, text=True, check=False).stdout
    assert "claude    skip:defer     (no output)" in none and "cursor    skip:defer     {}" in none


class Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_engine_crash_fails_open(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(command: str, host: str | None = None, *, cwd: str | None = None, program: str = "") -> object:
        raise RuntimeError("boom")

    for name in ("claude", "gemini"):
        sample = json.dumps(HOSTS[name].sample("cargo test", "/")).encode()
        monkeypatch.setattr(sys, "stdin", Stdin(sample))
        assert hooks.run_host(HOSTS[name], broken) == 0
        out, err = capsys.readouterr()
        assert out == hooks.render(HOSTS[name].no_opinion)
        assert err.count("\n") == 1 and "boom" in err


def test_closed_stdout_still_exits_0() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "rtk", "hook", "claude"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(payload("git status"), timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in err


def test_hot_path_imports_only_the_standard_library(tmp_path: Path) -> None:
    probe = (
        "import sys, io, json\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps({PAYLOAD!r}).encode()))\n"
        "from rtk.__main__ import main\n"
        "code = main(['hook', 'claude'])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('trio', 'click', 'tiktoken', 'tiktoken_ext', 'sqlite3', '_sqlite3', 'pexpect', 'ptyprocess'))\n"
        "print(json.dumps([code, heavy, sorted(m for m in sys.modules if m.startswith('rtk'))]), file=sys.stderr)\n"
    )
    env = dict(os.environ, RTK_HOOK_AUDIT="1", RTK_AUDIT_DIR=str(tmp_path))
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                            check=False)
    code, heavy, ours = json.loads(result.stderr.splitlines()[-1])
    assert code == 0 and heavy == []
    assert "rtk cargo build && rtk cargo test" in result.stdout
    assert not {"rtk.run.runner", "rtk.track.history", "rtk.track.tokens", "rtk.cli.group", "rtk.agent.install"} & set(ours)


def test_no_config_file_no_config_module() -> None:
    """Without config.toml or RTK_* switches the hook never imports rtk.config (dataclasses, inspect)."""
    probe = (
        "import sys, io\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}'))\n"
        "from rtk.__main__ import main\n"
        "main(['hook', 'claude'])\n"
        "print(sorted(m for m in ('rtk.config', 'dataclasses', 'inspect') if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert result.stderr.splitlines()[-1] == "[]"


def test_audit_from_config_and_env_override(hermetic_rtk: Path, tmp_path: Path) -> None:
    config = hermetic_rtk / "config" / "rtk" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[hooks]\naudit = true\n")
    env = {"RTK_AUDIT_DIR": str(tmp_path / "a")}
    run_hook("claude", payload("git status"), env)
    run_hook("claude", payload("git status"), {**env, "RTK_HOOK_AUDIT": "0"})
    assert len((tmp_path / "a" / "hook-audit.log").read_text().splitlines()) == 1


HOSTILE_NUMBERS = [
    b'{"tool_name":"Bash","tool_input":{"command":"git status","timeout":1e999999}}',
    b'{"tool_name":"Bash","tool_input":{"command":"git status","timeout":-1E400},"x":1e999999}',
    b'{"tool_name":"Bash","tool_input":{"command":"git status","n":' + b"9" * 5000 + b"}}",
    b'{"tool_name":"Bash","tool_input":{"command":"git status","n":' + b"9" * 4000 + b"}}",
    b'{"tool_name":"Bash","tool_input":{"command":"git status","n":NaN}}',
    b'{"tool_name":"Bash","tool_input":{"command":"git status","deep":' + b"[" * 900 + b"]" * 900 + b"}}",
    b'{"tool_name":"Bash","tool_input":{"command":"git status","deep":' + b"[" * 5000 + b"]" * 5000 + b"}}",
    b'{"toolName":"bash","toolArgs":"{\\"command\\":\\"git status\\",\\"t\\":1e999999}"}',
    (b'{"hook_event_name":"BeforeTool","tool_name":"run_shell_command",'
     b'"tool_input":{"command":"git status","t":1e999999}}'),
]


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize("data", HOSTILE_NUMBERS, ids=range(len(HOSTILE_NUMBERS)))
def test_valid_json_with_hostile_numbers_is_no_opinion_at_worst(host: str, data: bytes) -> None:
    """Issue 35, item 5: any valid JSON gives an answer or no opinion, exit 0, never a traceback;
    Cursor and Gemini always get a JSON object."""
    result = run_hook(host, data)
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr and b"internal error" not in result.stderr
    if host in ("cursor", "gemini"):
        assert isinstance(json.loads(result.stdout), dict)
    if result.stdout.strip():
        json.loads(result.stdout)  # whatever is printed is JSON a host can read


def test_the_hook_command_names_every_host() -> None:
    """`rtk hook --help` lists every host `rtk hook` answers for (its click front is help only)."""
    from rtk.cli.hotpaths import hook_cmd

    choices = next(p for p in hook_cmd.params if p.name == "host").type.choices  # type: ignore[attr-defined]
    assert set(choices) == {*HOSTS, "check"}
