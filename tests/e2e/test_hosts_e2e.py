"""The real agent hosts with rtk's hook as `rtk init` installs it, driven by a fake model on 127.0.0.1
that asks to run one shell command: per host, permission mode and command, nothing the mode forbids
ran, nothing was denied that the raw command (no hook) would have run, and the hook took the path
meant for it (the readers Claude Code and Copilot run silently: the post path, their output replaced
after the host ran them; runners and writes: the rewrite). test_host_matrix_e2e.py runs the issue's
whole matrix; these are the modes and flags it does not vary.

The hosts come from npm (tests/e2e/hosts.py says where it looks; .ci/tools installs them); without
them the tests skip, saying so. The hosts run headless (`-p`): a command they would ask about is
denied there ("This command requires approval"), which is exactly the outcome to compare.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.fake_model_server import FakeModel
from tests.e2e.hosts import (
    INSTALL,
    audit_fields,
    commit_count,
    hermetic_env,
    host_bin,
    init_hook,
    merge_json,
    run_host,
)

CLAUDE, GEMINI, CODEX, COPILOT = (host_bin(name) for name in ("claude", "gemini", "codex", "copilot"))
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
needs_claude = pytest.mark.skipif(not CLAUDE.exists(), reason=f"Claude Code is not installed: {INSTALL}")
needs_gemini = pytest.mark.skipif(not GEMINI.exists(), reason=f"Gemini CLI is not installed: {INSTALL}")
needs_codex = pytest.mark.skipif(not CODEX.exists(), reason=f"Codex CLI is not installed: {INSTALL}")
needs_copilot = pytest.mark.skipif(not COPILOT.exists(), reason=f"Copilot CLI is not installed: {INSTALL}")
# a prompt nobody answers (-p), dontAsk's refusal, and Claude Code 2.1.332's plan mode, which checks
# writes with auto mode's server-side classifier that a fake model server cannot pass (the session
# then ends with exit 1, nothing run; 2.1.337 words it "Auto mode can't check ... [auto_mode_unchecked]")
DENIALS = ("requires approval", "has been denied", "Auto mode is unavailable")
AUTO_MODE_REFUSALS = ("auto mode could not check", "auto mode can't check", "[auto_mode_unchecked]")
READER = [["skip:post", "git status", ""], ["post:replace", "git status", ""]]  # Claude's two hooks


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
    """A git work tree with one file under root/work, HOME and rtk's data beside it."""
    root = tmp_path / name
    work = root / "work"
    work.mkdir(parents=True)
    env = hermetic_env(root)
    subprocess.run(["git", "init", "-q"], cwd=work, env=env, check=True)
    (work / "notes.txt").write_text("x\n")
    return root, env


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
        merge_json(root / "home" / ".claude" / "settings.json", settings)
    with FakeModel(command) as model:
        env["ANTHROPIC_BASE_URL"] = model.url
        argv = [str(CLAUDE), "-p", "run the command", "--permission-mode", mode, "--output-format", "json",
                "--max-turns", "3", *flags]
        refused = run_host(argv, root / "work", env, timeout=180, refusals=AUTO_MODE_REFUSALS)
        results = model.tool_results()
    if refused and not results:
        results = [{"content": f"has been denied: {refused.strip()[:200]}", "is_error": True}]
    return Run(results[0] if results else None, audit_fields(root), commit_count(root / "work", env))


# default mode: test_host_matrix_e2e.py runs the same reader and commit in Claude Code's default mode
MODES = ["acceptEdits", "plan", "dontAsk"]


@needs_claude
@pytest.mark.parametrize("mode", MODES)
def test_a_reader_runs_as_with_no_hook_and_the_model_reads_rtk(tmp_path: Path, mode: str) -> None:
    """`git status`: the pre hook leaves it to Claude (which runs it silently in every mode), the
    post hook replaces what it printed with rtk's form."""
    raw = drive(tmp_path, "raw", "git status", mode, hook=False)
    hooked = drive(tmp_path, "hooked", "git status", mode, hook=True)
    assert raw.ran and "On branch" in str(raw.result), raw.result
    assert hooked.ran, hooked.result  # nothing denied that the raw command would have run
    assert "On branch" not in str(hooked.result) and "branch main" in str(hooked.result), hooked.result
    assert hooked.audit == READER


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
    # a runner's rewrite is already rtk's: the post hook leaves its output alone
    assert hooked.audit == [["rewrite", probe, f"rtk {probe}"], ["post:skip", f"rtk {probe}", ""]]


@needs_claude
def test_a_requoted_denied_command_is_left_to_the_host(tmp_path: Path) -> None:
    """allow git:*, deny git commit:*: `git "commit"` is the same argv; the hook must not rewrite
    it (Claude would not recognise `rtk git commit` as denied)."""
    probe = 'git "commit" --allow-empty -m probe'
    rules = {"permissions": {"allow": ["Bash(git:*)"], "deny": ["Bash(git commit:*)"]}}
    hooked = drive(tmp_path, "hooked", probe, "default", hook=True, settings=rules)
    raw = drive(tmp_path, "raw", probe, "default", hook=False, settings=rules)
    assert hooked.audit[:1] == [["skip:deny_rule", probe, ""]]
    assert hooked.commits == raw.commits
    # Per version: Claude Code 2.1.197 runs the re-quoted commit (its deny rule misses it), newer ones
    # deny it. The post hook sees the command only when it ran, and leaves a runner's output alone.
    assert hooked.audit[1:] == ([["post:skip", probe, ""]] if raw.commits else []), (raw.commits, hooked.audit)


def gemini(
    tmp_path: Path,
    name: str,
    command: str,
    mode: str,
    hook: bool,
    allowed: list[str],
    allowed_after_init: bool = False,
    flags: tuple[str, ...] = (),
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
                *flags,
            ],
            root / "work",
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


@needs_gemini
def test_gemini_allowed_tools_flag_is_an_allow_list_the_hook_reads(tmp_path: Path) -> None:
    """`--allowed-tools` lives only on Gemini's command line: the hook reads it from its ancestors.
    Allowing `git status` alone: no rewrite (`rtk git status` would be denied), it runs as typed.
    Allowing `rtk`: the rewrite applies and Gemini runs it under that rule (bare, `git status` is
    denied: the user allowed rtk, not git)."""
    only_git = ("--allowed-tools", "run_shell_command(git status)")
    bare, _ = gemini(tmp_path, "git-bare", "git status", "default", False, [], flags=only_git)
    hooked, audit = gemini(tmp_path, "git-hooked", "git status", "default", True, [], flags=only_git)
    assert "On branch" in _output(bare) and "On branch" in _output(hooked)
    assert audit == [["skip:defer", "git status", ""]]
    only_rtk = ("--allowed-tools", "run_shell_command(rtk)")
    hooked, audit = gemini(tmp_path, "rtk-hooked", "git status", "default", True, [], flags=only_rtk)
    assert audit == [["ask", "git status", "rtk git status"]]
    assert "denied" not in _output(hooked) and "modified by a hook" in _output(hooked)


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
            root / "work",
            env,
        )
        outputs = model.call_outputs()
    audit = audit_fields(root)
    return outputs, audit, commit_count(root / "work", env)


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
            root / "work",
            env,
        )
        outputs = model.call_outputs()
    audit = audit_fields(root)
    return outputs, audit, commit_count(root / "work", env)


@needs_copilot
def test_copilot_runs_a_reader_itself_and_the_model_reads_rtk(tmp_path: Path) -> None:
    """No rewrite for Copilot: it runs `git status` as it would, the post hook replaces the output
    (Copilot's exit line kept)."""
    raw, _, _ = copilot(tmp_path, "raw", "git status", False)
    hooked, audit, _ = copilot(tmp_path, "hooked", "git status", True)
    assert "On branch" in raw[0] and "exit code 0" in hooked[0] and "On branch" not in hooked[0]
    assert audit == [["post:replace", "git status", ""]]


@needs_copilot
@pytest.mark.parametrize("flags", [(), ("--allow-all-tools",)])
def test_copilot_decides_a_commit_as_with_no_hook(tmp_path: Path, flags: tuple[str, ...]) -> None:
    """Headless without --allow-all-tools a commit is refused ("Permission denied"), hook or not;
    with it, both run. The hook never rewrites for Copilot, so its rules see the command itself."""
    probe = "git commit --allow-empty -m probe"
    raw, _, raw_commits = copilot(tmp_path, "raw", probe, False, *flags)
    hooked, audit, hooked_commits = copilot(tmp_path, "hooked", probe, True, *flags)
    assert hooked_commits == raw_commits == (1 if flags else 0), (raw, hooked)
    assert ("Permission denied" in hooked[0]) is ("Permission denied" in raw[0])
    assert not [action for action, *_ in audit if not action.startswith("post:")], audit


@needs_copilot
def test_copilot_deny_tool_flag_still_applies(tmp_path: Path) -> None:
    """`--allow-all-tools --deny-tool 'shell(git push)'`: Copilot refuses `git push`, and the hook,
    which never rewrites for Copilot, has nothing to replace (a refused command runs no post hook)."""
    flags = ("--allow-all-tools", "--deny-tool", "shell(git push)")
    hooked, audit, _ = copilot(tmp_path, "hooked", "git push origin main", True, *flags)
    assert "denied" in hooked[0]
    assert not [action for action, *_ in audit if not action.startswith("post:")], audit


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


CLINE = host_bin("cline")


@pytest.mark.skipif(not CLINE.exists(), reason=f"Cline CLI is not installed: {INSTALL}")
def test_cline_asking_about_every_call_refuses_the_rewrite_as_it_refuses_the_command(tmp_path: Path) -> None:
    """Cline's `--auto-approve false` asks about every tool call (refused in a headless run): with
    rtk's hook the rewritten call is refused the same way, never run."""
    from tests.e2e.more_hosts import cline_argv, cline_configure

    texts = []
    for hook in (False, True):
        root, env = project(tmp_path, f"hook-{hook}")
        with FakeModel("git status") as model:
            cline_configure(CLINE)(root, env, model.url, False)
            if hook:
                init_hook(env, "cline")
            run_host(cline_argv(CLINE, "--auto-approve", "false")(root, 1, False), root / "work", env)
            texts.append(" ".join(model.results()))
        assert audit_fields(root) == ([["ask", "git status", "rtk git status"]] if hook else [])
    assert all("requires approval" in text and "On branch" not in text for text in texts)
