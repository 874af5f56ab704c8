"""The real agent hosts with rtk's hook as `rtk init` installs it, driven by a fake model on 127.0.0.1
that asks to run one shell command. Per permission mode and command: the rewrite took effect,
nothing the mode forbids ran, and nothing was denied that the raw command (no hook) would have run.

The hosts come from npm; CI installs them with
    npm install --prefix "$RTK_HOSTS_PREFIX" @anthropic-ai/claude-code @google/gemini-cli @openai/codex \
        @github/copilot
(default prefix /tmp/rtk-hosts). Without them the tests skip, saying so. The hosts run headless
(`-p`): a command they would ask about is denied there ("This command requires approval"), which
is exactly the outcome to compare.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import rtk_executable
from tests.e2e.fake_model_server import FakeModel

PREFIX = Path(os.environ.get("RTK_HOSTS_PREFIX", "/tmp/rtk-hosts"))
CHECKOUT = Path(__file__).resolve().parents[2]  # .ci/tools installs npm tools here


def host_bin(name: str) -> Path:
    """The host's npm launcher: under RTK_HOSTS_PREFIX, else in this checkout's node_modules."""
    for prefix in (PREFIX, CHECKOUT):
        if (found := prefix / "node_modules" / ".bin" / name).exists():
            return found
    return PREFIX / "node_modules" / ".bin" / name


CLAUDE, GEMINI, CODEX, COPILOT = (host_bin(name) for name in ("claude", "gemini", "codex", "copilot"))
INSTALL = (
    f"npm install --prefix {PREFIX} @anthropic-ai/claude-code @google/gemini-cli @openai/codex "
    "@github/copilot"
)
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
needs_claude = pytest.mark.skipif(not CLAUDE.exists(), reason=f"Claude Code is not installed: {INSTALL}")
needs_gemini = pytest.mark.skipif(not GEMINI.exists(), reason=f"Gemini CLI is not installed: {INSTALL}")
needs_codex = pytest.mark.skipif(not CODEX.exists(), reason=f"Codex CLI is not installed: {INSTALL}")
needs_copilot = pytest.mark.skipif(not COPILOT.exists(), reason=f"Copilot CLI is not installed: {INSTALL}")
DENIALS = ("requires approval", "has been denied")  # a prompt nobody answers (-p), dontAsk's refusal


class Run:
    """One headless Claude Code session: what the tool returned and what the hook decided."""

    def __init__(self, result: dict[str, Any] | None, audit: list[list[str]], commits: int) -> None:
        self.result, self.audit, self.commits = result, audit, commits

    @property
    def ran(self) -> bool:
        return self.result is not None and not self.result.get("is_error") and not self.denied

    @property
    def denied(self) -> bool:
        return self.result is not None and any(m in str(self.result.get("content")) for m in DENIALS)


def project(tmp_path: Path, name: str) -> tuple[Path, dict[str, str]]:
    root = tmp_path / name
    home, work = root / "home", root / "work"
    (home / ".claude").mkdir(parents=True)
    work.mkdir()
    gitconfig = root / "gitconfig"
    gitconfig.write_text("[user]\n\tname = E2E\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n")
    env = {
        **os.environ,
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "PATH": os.path.dirname(rtk_executable()[0]) + os.pathsep + os.environ.get("PATH", ""),
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
        "RTK_HOOK_AUDIT": "1",
        "RTK_AUDIT_DIR": str(root / "audit"),
        "XDG_DATA_HOME": str(root / "data"),
        "XDG_CONFIG_HOME": str(root / "config"),
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        "ANTHROPIC_API_KEY": "sk-ant-e2e",
    }
    subprocess.run(["git", "init", "-q"], cwd=work, env=env, check=True)
    (work / "notes.txt").write_text("x\n")
    return root, env


def audit_fields(root: Path) -> list[list[str]]:
    """The hook's audit lines (action, command, rewrite), fields as written."""
    audit_log = root / "audit" / "hook-audit.log"
    return [line.split(" | ")[1:] for line in audit_log.read_text().splitlines()] if audit_log.exists() else []


def commit_count(root: Path, env: dict[str, str]) -> int:
    """Commits in the project: a probe `git commit` that went through shows up here."""
    log = subprocess.run(["git", "rev-list", "--all", "--count"], cwd=root / "work", env=env,
                         capture_output=True, text=True, check=False)
    return int(log.stdout.strip() or 0)


def init_hook(env: dict[str, str], agent: str = "") -> None:
    """`rtk init -g` for one host, as a user installs the hook."""
    subprocess.run([*rtk_executable(), "init", "-g", *(["--agent", agent] if agent else [])], env=env, check=True,
                   capture_output=True)


def run_host(argv: list[str], root: Path, env: dict[str, str], timeout: int = 300) -> None:
    """One headless host session in the project's work tree; it must end cleanly."""
    proc = subprocess.run(argv, cwd=root / "work", env=env, capture_output=True, text=True, timeout=timeout,
                          check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]


def drive(
    tmp_path: Path,
    name: str,
    command: str,
    mode: str,
    hook: bool,
    settings: dict[str, Any] | None = None,
    flags: tuple[str, ...] = (),
) -> Run:
    root, env = project(tmp_path, name)
    if hook:
        init_hook(env)
    if settings:
        path = root / "home" / ".claude" / "settings.json"
        doc = json.loads(path.read_text()) if path.exists() else {}
        path.write_text(json.dumps({**doc, **settings}))
    with FakeModel(command) as model:
        env["ANTHROPIC_BASE_URL"] = model.url
        run_host(
            [
                str(CLAUDE),
                "-p",
                "run the command",
                "--permission-mode",
                mode,
                "--output-format",
                "json",
                "--max-turns",
                "3",
                *flags,
            ],
            root,
            env,
            timeout=180,
        )
        results = model.tool_results()
    audit = audit_fields(root)
    return Run(results[0] if results else None, audit, commit_count(root, env))


MODES = ["default", "acceptEdits", "plan", "dontAsk"]


@needs_claude
@pytest.mark.parametrize("mode", MODES)
def test_read_only_command_is_rewritten_and_runs_without_asking(tmp_path: Path, mode: str) -> None:
    raw = drive(tmp_path, "raw", "git status", mode, hook=False)
    hooked = drive(tmp_path, "hooked", "git status", mode, hook=True)
    assert raw.ran, raw.result
    assert hooked.ran, hooked.result  # nothing denied that the raw command would have run
    assert hooked.audit == [["rewrite", "git status", "rtk git status"]]


@needs_claude
@pytest.mark.parametrize("mode", MODES)
def test_a_command_the_mode_asks_about_is_rewritten_and_still_asked(tmp_path: Path, mode: str) -> None:
    probe = "git commit --allow-empty -m probe"
    raw = drive(tmp_path, "raw", probe, mode, hook=False)
    hooked = drive(tmp_path, "hooked", probe, mode, hook=True)
    assert raw.denied and raw.commits == 0, raw.result
    assert hooked.denied and hooked.commits == 0, hooked.result  # nothing the mode forbids ran
    assert hooked.audit == [["ask", probe, f"rtk {probe}"]]


@needs_claude
def test_an_allow_rule_carries_over_to_the_rtk_form(tmp_path: Path) -> None:
    probe = "git commit --allow-empty -m probe"
    rules = {"permissions": {"allow": ["Bash(git commit:*)"]}}
    raw = drive(tmp_path, "raw", probe, "default", hook=False, settings=rules)
    hooked = drive(tmp_path, "hooked", probe, "default", hook=True, settings=rules)
    assert raw.ran and raw.commits == 1, raw.result
    assert hooked.ran and hooked.commits == 1, hooked.result
    assert hooked.audit == [["rewrite", probe, f"rtk {probe}"]]


@needs_claude
def test_a_requoted_denied_command_is_left_to_the_host(tmp_path: Path) -> None:
    """allow git:*, deny git commit:*: `git "commit"` is the same argv; the hook must not rewrite
    it (Claude would not recognise `rtk git commit` as denied)."""
    probe = 'git "commit" --allow-empty -m probe'
    rules = {"permissions": {"allow": ["Bash(git:*)"], "deny": ["Bash(git commit:*)"]}}
    hooked = drive(tmp_path, "hooked", probe, "default", hook=True, settings=rules)
    assert hooked.audit == [["skip:deny_rule", probe, ""]]
    assert hooked.commits == drive(tmp_path, "raw", probe, "default", hook=False, settings=rules).commits


def gemini(
    tmp_path: Path,
    name: str,
    command: str,
    mode: str,
    hook: bool,
    allowed: list[str],
    allowed_after_init: bool = False,
) -> tuple[list[dict[str, Any]], list[list[str]]]:
    """One headless Gemini CLI session: the function responses it sent back, the hook's audit."""
    root, env = project(tmp_path, name)
    settings_path = root / "home" / ".gemini" / "settings.json"
    settings_path.parent.mkdir(parents=True)
    settings: dict[str, Any] = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
    if allowed and not allowed_after_init:
        settings["tools"] = {"allowed": allowed}
    settings_path.write_text(json.dumps(settings))
    if hook:
        init_hook(env, "gemini")
    if allowed and allowed_after_init:
        doc = json.loads(settings_path.read_text())
        settings_path.write_text(json.dumps({**doc, "tools": {"allowed": allowed}}))
    env.update(GEMINI_API_KEY="e2e", GEMINI_CLI_TRUST_WORKSPACE="true")
    with FakeModel(command) as model:
        env["GOOGLE_GEMINI_BASE_URL"] = model.url
        run_host(
            [
                str(GEMINI),
                "-p",
                "run the command",
                "--approval-mode",
                mode,
                "--output-format",
                "json",
                "--model",
                "gemini-2.5-flash",
            ],
            root,
            env,
        )
        responses = model.function_responses()
    audit = audit_fields(root)
    return responses, audit


def _output(responses: list[dict[str, Any]]) -> str:
    return " ".join(str(r.get("response")) for r in responses)


@needs_gemini
@pytest.mark.parametrize(("mode", "allowed"), [("yolo", []), ("default", ["run_shell_command(git status)"])])
def test_gemini_runs_the_rewrite_where_it_runs_the_raw_command(
    tmp_path: Path, mode: str, allowed: list[str]
) -> None:
    """yolo: everything runs. default with an allow rule: `rtk init` added its rtk-form twin, so the
    rewrite is allowed too."""
    raw, _ = gemini(tmp_path, "raw", "git status", mode, False, allowed)
    hooked, audit = gemini(tmp_path, "hooked", "git status", mode, True, allowed)
    assert "On branch" in _output(raw)
    assert "modified by a hook" in _output(hooked) and "On branch" not in _output(hooked)
    assert audit == [["ask", "git status", "rtk git status"]]


@needs_gemini
def test_gemini_allow_rule_without_twin_keeps_the_raw_command(tmp_path: Path) -> None:
    """An allow rule for `git status` added after `rtk init`: the rtk form is not covered and Gemini
    would deny it, so the hook gives no opinion and the allowed command runs as it is."""
    allowed = ["run_shell_command(git status)"]
    hooked, audit = gemini(
        tmp_path, "hooked", "git status", "default", True, allowed, allowed_after_init=True
    )
    assert "On branch" in _output(hooked)
    assert audit == [["skip:defer", "git status", ""]]


def codex(
    tmp_path: Path, name: str, command: str, hook: bool, *flags: str
) -> tuple[list[str], list[list[str]], int]:
    """One `codex exec` session: the outputs of its shell calls, the hook's audit, commits made."""
    root, env = project(tmp_path, name)
    codex_home = root / "home" / ".codex"
    codex_home.mkdir(parents=True)
    env.update(CODEX_HOME=str(codex_home), FAKE_KEY="e2e")
    if hook:
        init_hook(env, "codex")
    with FakeModel(command) as model:
        (codex_home / "config.toml").write_text(
            'model = "gpt-5"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "fake"\n'
            f'base_url = "{model.url}/v1"\nwire_api = "responses"\nenv_key = "FAKE_KEY"\n'
        )
        # the hook is trusted for this run only (a user approves it once in Codex's /hooks)
        run_host(
            [
                str(CODEX),
                "exec",
                "--skip-git-repo-check",
                "--dangerously-bypass-hook-trust",
                *flags,
                "run the command",
            ],
            root,
            env,
        )
        outputs = model.call_outputs()
    audit = audit_fields(root)
    return outputs, audit, commit_count(root, env)


@needs_codex
def test_codex_read_only_sandbox_runs_the_rewrite_quietly(tmp_path: Path) -> None:
    """Codex's default: read-only sandbox. The rewrite (always with allow) runs, prints no rtk line
    of its own (no store, no tracking in a read-only sandbox), and exits as the raw command does."""
    raw, _, _ = codex(tmp_path, "raw", "git status", False)
    hooked, audit, _ = codex(tmp_path, "hooked", "git status", True)
    assert "exited with code 0" in raw[0] and "exited with code 0" in hooked[0], hooked
    assert "rtk:" not in hooked[0] and "On branch" in raw[0] and "On branch" not in hooked[0]
    assert [action for action, *_ in audit] == ["rewrite"] and audit[0][2].endswith("rtk git status")


@needs_codex
@pytest.mark.parametrize("flags", [(), ("--sandbox", "workspace-write")])
def test_codex_sandbox_still_governs_the_rewrite(tmp_path: Path, flags: tuple[str, ...]) -> None:
    """A commit: refused by the read-only sandbox (and by workspace-write, which keeps .git
    read-only), with or without the hook alike: the allow the hook must give widens nothing."""
    probe = "git commit --allow-empty -m probe"
    raw, _, raw_commits = codex(tmp_path, "raw", probe, False, *flags)
    hooked, audit, hooked_commits = codex(tmp_path, "hooked", probe, True, *flags)
    assert hooked_commits == raw_commits == 0, (raw, hooked)
    assert [action for action, *_ in audit] == ["rewrite"]


def copilot(
    tmp_path: Path, name: str, command: str, hook: bool, *flags: str
) -> tuple[list[str], list[list[str]], int]:
    """One `copilot -p` session on a local provider (Copilot's offline BYOK mode)."""
    root, env = project(tmp_path, name)
    env["COPILOT_HOME"] = str(root / "home" / ".copilot")
    if hook:
        init_hook(env, "copilot")
    with FakeModel(command) as model:
        env.update(
            COPILOT_PROVIDER_BASE_URL=f"{model.url}/v1",
            COPILOT_PROVIDER_TYPE="openai",
            COPILOT_PROVIDER_WIRE_API="responses",
            COPILOT_PROVIDER_MODEL_ID="gpt-5",
            COPILOT_PROVIDER_API_KEY="e2e",
        )
        run_host(
            [str(COPILOT), "-p", "run the command", *flags],
            root,
            env,
        )
        outputs = model.call_outputs()
    audit = audit_fields(root)
    return outputs, audit, commit_count(root, env)


@needs_copilot
def test_copilot_read_only_command_is_rewritten_and_runs_without_asking(tmp_path: Path) -> None:
    raw, _, _ = copilot(tmp_path, "raw", "git status", False)
    hooked, audit, _ = copilot(tmp_path, "hooked", "git status", True)
    assert "On branch" in raw[0] and "exit code 0" in hooked[0] and "On branch" not in hooked[0]
    assert audit == [["rewrite", "git status", "rtk git status"]]


@needs_copilot
@pytest.mark.parametrize("flags", [(), ("--allow-all-tools",)])
def test_copilot_asks_about_the_rtk_form_what_it_asks_about_raw(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    """Headless without --allow-all-tools a commit is refused ("Permission denied"), raw or
    rewritten; with it, both run."""
    probe = "git commit --allow-empty -m probe"
    raw, _, raw_commits = copilot(tmp_path, "raw", probe, False, *flags)
    hooked, audit, hooked_commits = copilot(tmp_path, "hooked", probe, True, *flags)
    assert hooked_commits == raw_commits == (1 if flags else 0), (raw, hooked)
    assert ("Permission denied" in hooked[0]) is ("Permission denied" in raw[0])
    assert audit == [["ask", probe, f"rtk {probe}"]]


@needs_copilot
def test_copilot_deny_tool_flag_still_applies(tmp_path: Path) -> None:
    """`--allow-all-tools --deny-tool 'shell(git push)'`: Copilot refuses `git push`; the hook reads
    the flag from Copilot's command line and leaves the command alone (a rewrite would slip by)."""
    flags = ("--allow-all-tools", "--deny-tool", "shell(git push)")
    hooked, audit, _ = copilot(tmp_path, "hooked", "git push origin main", True, *flags)
    assert "denied" in hooked[0]
    assert audit == [["skip:deny_rule", "git push origin main", ""]]


@needs_claude
def test_claude_disallowed_tools_flag_still_applies(tmp_path: Path) -> None:
    """`--disallowedTools 'Bash(git commit:*)'` on Claude's command line, `Bash(rtk:*)` allowed in
    the settings: a rewrite would run the commit; the hook reads the flag and stays out."""
    probe = "git commit --allow-empty -m probe"
    flags = ("--disallowedTools", "Bash(git commit:*)")
    rules = {"permissions": {"allow": ["Bash(rtk:*)"]}}
    raw = drive(tmp_path, "raw", probe, "default", hook=False, settings=rules, flags=flags)
    hooked = drive(tmp_path, "hooked", probe, "default", hook=True, settings=rules, flags=flags)
    assert raw.commits == hooked.commits == 0, (raw.result, hooked.result)
    assert hooked.audit == [["skip:deny_rule", probe, ""]]
