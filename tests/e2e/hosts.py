"""The real agent hosts for the end-to-end hook tests: where each one is installed, and how to run
one headless session of it against the fake model (fake_model_server.py), in a HOME of its own,
with or without rtk's hook as `rtk init` installs it.

Where the hosts come from (first found wins): `RTK_HOST_<NAME>` (the launcher's path, e.g.
RTK_HOST_CLAUDE, RTK_HOST_CLAUDE_OLD), then the prefix `RTK_HOSTS_PREFIX` (default /tmp/rtk-hosts;
Claude Code 2.1.197: `RTK_CLAUDE_OLD_PREFIX`, default /tmp/rtk-hosts-old), then the checkout's
node_modules (.ci/tools installs there). INSTALL says how to get them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tests.conftest import rtk_executable
from tests.e2e.fake_model_server import FakeModel

PREFIX = Path(os.environ.get("RTK_HOSTS_PREFIX", "/tmp/rtk-hosts"))
OLD_PREFIX = Path(os.environ.get("RTK_CLAUDE_OLD_PREFIX", "/tmp/rtk-hosts-old"))
CHECKOUT = Path(__file__).resolve().parents[2]
CLAUDE_OLD_VERSION = "2.1.197"
PACKAGES = "@anthropic-ai/claude-code @google/gemini-cli @openai/codex @github/copilot opencode-ai @kilocode/cli@7.7.7 droid cline"
INSTALL = (
    f"npm install --prefix {PREFIX} {PACKAGES}; "
    f"npm install --prefix {OLD_PREFIX} @anthropic-ai/claude-code@{CLAUDE_OLD_VERSION}; Hermes: pip install "
    "hermes-agent into a venv at $RTK_HERMES_VENV (or bash .ci/tools)"
)


def host_bin(name: str, env_name: str = "", prefixes: tuple[Path, ...] = (PREFIX, CHECKOUT)) -> Path:
    """The host's npm launcher: RTK_HOST_<NAME>, else the first prefix holding it."""
    override = os.environ.get(f"RTK_HOST_{(env_name or name).upper().replace('-', '_')}")
    if override:
        return Path(override)
    for prefix in prefixes:
        if (found := prefix / "node_modules" / ".bin" / name).exists():
            return found
    return prefixes[0] / "node_modules" / ".bin" / name


@cache
def version(binary: Path) -> str:
    """`<host> --version`'s first word that looks like a version ("" when it cannot run)."""
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60,
                             check=False, stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    # the first line's first version-like word: Hermes says "Hermes Agent v0.19.0" and, later, Python's
    words = [w.strip(".").removeprefix("v") for w in out.split("\n", 1)[0].split()
             if w.removeprefix("v")[:1].isdigit()]
    return words[0] if words else ""


def hermetic_env(root: Path) -> dict[str, str]:
    """HOME, XDG dirs, git identity and rtk's data under root; rtk and this venv's tools on PATH."""
    home = root / "home"
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    gitconfig = root / "gitconfig"
    if not gitconfig.exists():
        gitconfig.write_text("[user]\n\tname = E2E\n\temail = e2e@example.com\n[init]\n\tdefaultBranch = main\n")
    tools = os.path.dirname(rtk_executable()[0])
    for profile in (".profile", ".bash_profile"):  # a login shell (Codex's) resets PATH from /etc/profile
        (home / profile).write_text(f'export PATH="{tools}:$PATH"\n')
    drop = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "PWD", "OLDPWD", "VIRTUAL_ENV")
    return {
        **{k: v for k, v in os.environ.items() if k not in drop and not k.startswith(("RTK_", "PYTEST_"))},
        "HOME": str(home),
        "CLAUDE_CONFIG_DIR": str(home / ".claude"),
        "PATH": tools + os.pathsep + os.environ.get("PATH", ""),
        "GIT_CONFIG_GLOBAL": str(gitconfig),
        "GIT_CONFIG_NOSYSTEM": "1",
        "RTK_HOOK_AUDIT": "1",
        "RTK_AUDIT_DIR": str(root / "audit"),
        "XDG_DATA_HOME": str(root / "data"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_TELEMETRY": "1",
        "ANTHROPIC_API_KEY": "sk-ant-e2e",
    }


def audit_fields(root: Path) -> list[list[str]]:
    """The hook's audit lines (action, command, rewrite), fields as written."""
    audit_log = root / "audit" / "hook-audit.log"
    return [line.split(" | ")[1:] for line in audit_log.read_text().splitlines()] if audit_log.exists() else []


def commit_count(work: Path, env: dict[str, str]) -> int:
    """Commits in the project: a probe `git commit` that went through shows up here."""
    log = subprocess.run(["git", "rev-list", "--all", "--count"], cwd=work, env=env, capture_output=True,
                         text=True, check=False)
    return int(log.stdout.strip() or 0)


def init_hook(env: dict[str, str], agent: str = "") -> None:
    """`rtk init -g` for one host, as a user installs the hook."""
    subprocess.run([*rtk_executable(), "init", "-g", *(["--agent", agent] if agent else [])], env=env, check=True,
                   capture_output=True, stdin=subprocess.DEVNULL)


def run_host(argv: list[str], work: Path, env: dict[str, str], timeout: int = 300,
             refusals: tuple[str, ...] = ()) -> str:
    """One headless host session in the work tree; it must end cleanly, or with one of the host's
    refusals on stderr (returned; matched whatever the case: 2.1.337 capitalises what 2.1.332 did not)."""
    proc = subprocess.run(argv, cwd=work, env={**env, "PWD": str(work)}, capture_output=True, text=True,
                          timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    if proc.returncode and any(refusal.lower() in proc.stderr.lower() for refusal in refusals):
        return proc.stderr
    assert proc.returncode == 0, f"{argv[0]} exited {proc.returncode}: {proc.stderr[-2000:] or proc.stdout[-2000:]}"
    return ""


def merge_json(path: Path, update: dict[str, object]) -> None:
    """Top-level keys of update written over the JSON file (created when missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**doc, **update}, indent=2))


@dataclass
class Session:
    """What one host session left: the tool results the model read (script order), the hook's
    audit lines, the project's commit count and the session's wall time."""

    results: list[str]
    audit: list[list[str]] = field(default_factory=list)
    commits: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class Host:
    """One host: its launcher, the `rtk init --agent` name, how a user would allow `pytest` in it
    (configure), and its headless command line for a prompt (argv)."""

    name: str
    binary: Path
    agent: str
    configure: Callable[[Path, dict[str, str], str, bool], None]
    argv: Callable[[Path, int, bool], list[str]]
    refusals: tuple[str, ...] = ()  # how the host ends a headless run at a command it refused
    unfiltered: str = ""  # why the model reads the host's own output here (the outcome is still compared)
    cut: tuple[str, int] | None = None  # (the host's marker, size) of a cut rtk does not fit yet
    lossy_cut: str = ""  # the marker of a cut after which the host keeps no whole output for rtk to read

    def missing(self) -> str:
        """Why this host cannot run here ("" when it can)."""
        if not self.binary.exists():
            return f"{self.name} is not installed ({self.binary}): {INSTALL}"
        if not version(self.binary):
            return f"{self.name} does not run here: `{self.binary} --version` printed no version"
        if self.name == "claude-old" and version(self.binary) != CLAUDE_OLD_VERSION:
            return f"{self.binary} is Claude Code {version(self.binary)}, not {CLAUDE_OLD_VERSION}"
        if self.name == "claude" and version(self.binary) == CLAUDE_OLD_VERSION:
            return (f"{self.binary} is Claude Code {CLAUDE_OLD_VERSION}, the old one (claude-old runs it): "
                    "install the newest there or name it with RTK_HOST_CLAUDE")
        return ""

    def session(self, root: Path, work: Path, commands: list[str], hook: bool, allow_pytest: bool = True) -> Session:
        """One headless session in work (HOME etc. under root), the fake model running commands."""
        env = hermetic_env(root)
        with FakeModel(commands) as model:
            self.configure(root, env, model.url, allow_pytest)
            if hook:
                init_hook(env, self.agent)
            start = time.monotonic()
            run_host(self.argv(root, len(commands), allow_pytest), work, env, refusals=self.refusals)
            seconds = time.monotonic() - start
            results = model.results()
        return Session(results, audit_fields(root), commit_count(work, env), seconds)


# -- per host: configuration a user would have, and the headless command line ---------------------


def _claude_configure(root: Path, env: dict[str, str], url: str, allow_pytest: bool) -> None:
    env["ANTHROPIC_BASE_URL"] = url
    if allow_pytest:
        merge_json(root / "home" / ".claude" / "settings.json", {"permissions": {"allow": ["Bash(pytest:*)"]}})


def _claude_argv(binary: Path) -> Callable[[Path, int, bool], list[str]]:
    def argv(root: Path, turns: int, allow_pytest: bool) -> list[str]:
        return [str(binary), "-p", "run the commands", "--permission-mode", "default", "--output-format", "json",
                "--max-turns", str(turns + 2)]

    return argv


def _copilot_configure(root: Path, env: dict[str, str], url: str, allow_pytest: bool) -> None:
    env.update(
        COPILOT_HOME=str(root / "home" / ".copilot"),
        COPILOT_PROVIDER_BASE_URL=f"{url}/v1",
        COPILOT_PROVIDER_TYPE="openai",
        COPILOT_PROVIDER_WIRE_API="responses",
        COPILOT_PROVIDER_MODEL_ID="gpt-5",
        COPILOT_PROVIDER_API_KEY="e2e",
    )


def _copilot_argv(binary: Path) -> Callable[[Path, int, bool], list[str]]:
    def argv(root: Path, turns: int, allow_pytest: bool) -> list[str]:
        return [str(binary), "-p", "run the commands", *(["--allow-tool", "shell(pytest)"] if allow_pytest else [])]

    return argv


def _codex_configure(root: Path, env: dict[str, str], url: str, allow_pytest: bool) -> None:
    codex_home = root / "home" / ".codex"
    (codex_home / "rules").mkdir(parents=True, exist_ok=True)
    env.update(CODEX_HOME=str(codex_home), FAKE_KEY="e2e")
    (codex_home / "config.toml").write_text(
        'model = "gpt-5"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "fake"\n'
        f'base_url = "{url}/v1"\nwire_api = "responses"\nenv_key = "FAKE_KEY"\n'
    )
    if allow_pytest:
        (codex_home / "rules" / "default.rules").write_text('prefix_rule(pattern = ["pytest"], decision = "allow")\n')


def _codex_argv(binary: Path) -> Callable[[Path, int, bool], list[str]]:
    def argv(root: Path, turns: int, allow_pytest: bool) -> list[str]:
        # the hook is trusted for this run only (a user approves it once in Codex's /hooks)
        return [str(binary), "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "run the commands"]

    return argv


GEMINI_READS = ("git status", "git diff", "git log", "ls", "cat", "grep")


def _gemini_configure(allowed: tuple[str, ...]) -> Callable[[Path, dict[str, str], str, bool], None]:
    """Gemini with the user's allow-list (`tools.allowed`): pytest, plus the given commands."""

    def configure(root: Path, env: dict[str, str], url: str, allow_pytest: bool) -> None:
        rules = [f"run_shell_command({command})" for command in (*allowed, *(["pytest"] if allow_pytest else []))]
        settings: dict[str, object] = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
        if rules:
            settings["tools"] = {"allowed": rules}
        merge_json(root / "home" / ".gemini" / "settings.json", settings)
        env.update(GEMINI_API_KEY="e2e", GEMINI_CLI_TRUST_WORKSPACE="true", GOOGLE_GEMINI_BASE_URL=url)

    return configure


def _gemini_argv(binary: Path) -> Callable[[Path, int, bool], list[str]]:
    def argv(root: Path, turns: int, allow_pytest: bool) -> list[str]:
        return [str(binary), "-p", "run the commands", "--approval-mode", "default", "--output-format", "json",
                "--model", "gemini-2.5-flash"]

    return argv


def _opencode_configure(root: Path, env: dict[str, str], url: str, allow_pytest: bool) -> None:
    """The fake model as an OpenAI-compatible provider, offline: no models.dev download, no
    update check, and the config dir's `@opencode-ai/plugin` dependency recorded as installed (so
    OpenCode's background `npm install` there finds nothing to do; a dead registry if it tries)."""
    config_dir = root / "home" / ".config" / "opencode"
    provider = {
        "npm": "@ai-sdk/openai-compatible",
        "name": "Fake",
        "options": {"baseURL": f"{url}/v1", "apiKey": "e2e"},
        "models": {"fake": {"name": "Fake", "tool_call": True}},
    }
    # snapshot: no git snapshot of the project at every step (OpenCode's undo; seconds a step here)
    config: dict[str, object] = {"autoupdate": False, "share": "disabled", "snapshot": False, "model": "fake/fake",
                                 "provider": {"fake": provider}}
    if allow_pytest:
        config["permission"] = {"bash": {"pytest *": "allow"}}
    merge_json(config_dir / "opencode.json", config)
    (config_dir / "node_modules").mkdir(exist_ok=True)
    dependency = {"@opencode-ai/plugin": "*"}
    merge_json(config_dir / "package-lock.json", {"packages": {"": {"dependencies": dependency}}})
    env.update(
        OPENCODE_DISABLE_MODELS_FETCH="1",
        OPENCODE_DISABLE_AUTOUPDATE="1",
        OPENCODE_DISABLE_LSP_DOWNLOAD="1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS="1",
        OPENCODE_DISABLE_SHARE="1",
        npm_config_registry="http://127.0.0.1:9/",
    )


def _opencode_argv(binary: Path) -> Callable[[Path, int, bool], list[str]]:
    def argv(root: Path, turns: int, allow_pytest: bool) -> list[str]:
        return [str(binary), "run", "--format", "json", "run the commands"]

    return argv


def hosts() -> list[Host]:
    """Every host of the matrix, installed or not (Host.missing says)."""
    from tests.e2e.more_hosts import (
        DROID_AUTONOMY,
        DROID_CUT,
        HERMES_VENV,
        cline_argv,
        cline_configure,
        droid_argv,
        droid_configure,
        hermes_argv,
        hermes_configure,
        kilo_configure,
    )

    claude = host_bin("claude")
    claude_old = host_bin("claude", "claude_old", (OLD_PREFIX,))
    copilot, codex = host_bin("copilot"), host_bin("codex")
    gemini, opencode, kilo = host_bin("gemini"), host_bin("opencode"), host_bin("kilo")
    droid, cline = host_bin("droid"), host_bin("cline")
    hermes = Path(os.environ.get("RTK_HOST_HERMES") or HERMES_VENV / "bin" / "hermes")
    return [
        Host("claude", claude, "", _claude_configure, _claude_argv(claude)),
        Host("claude-old", claude_old, "", _claude_configure, _claude_argv(claude_old)),
        Host("copilot", copilot, "copilot", _copilot_configure, _copilot_argv(copilot)),
        Host("opencode", opencode, "opencode", _opencode_configure, _opencode_argv(opencode)),
        Host("kilo", kilo, "kilo", kilo_configure, _opencode_argv(kilo), ("auto-rejected permission",)),
        Host("droid", droid, "droid", droid_configure(()), droid_argv(droid), unfiltered=DROID_AUTONOMY),
        Host("cline", cline, "cline", cline_configure(cline), cline_argv(cline), cut=("...[truncated ", 8_000)),
        Host("hermes", hermes, "hermes", hermes_configure, hermes_argv(hermes), lossy_cut="[OUTPUT TRUNCATED - "),
        # a Droid user who put `rtk` on the allow list: every rewrite keeps the outcome
        Host("droid-rtk-allowed", droid, "droid", droid_configure(("rtk",)), droid_argv(droid),
             cut=DROID_CUT),
        Host("codex", codex, "codex", _codex_configure, _codex_argv(codex)),
        Host("gemini", gemini, "gemini", _gemini_configure(()), _gemini_argv(gemini)),
        # the same with the reads on the user's allow-list: where the hook must not rewrite
        Host("gemini-allowlist", gemini, "gemini", _gemini_configure(GEMINI_READS), _gemini_argv(gemini)),
    ]


def package_version(binary: Path) -> str:
    """The version in the npm package.json the launcher belongs to ("" when it is not one), read
    without starting the host (the test report's header names every host this way)."""
    try:
        folder = binary.resolve(strict=True).parent
    except OSError:
        return ""
    for candidate in (folder, *folder.parents):
        manifest = candidate / "package.json"
        if manifest.is_file():
            try:
                return str(json.loads(manifest.read_text(encoding="utf-8")).get("version", ""))
            except (OSError, ValueError, AttributeError):
                return ""
        if candidate.name == "node_modules":
            break
    return ""


def report_lines() -> list[str]:
    """One line per host of the matrix: its version and where it was found, or that it is missing."""
    lines = []
    for host in hosts():
        found = (package_version(host.binary) or version(host.binary) or "installed, no version printed") \
            if host.binary.exists() else ""  # an npm host's package.json, else its --version (Hermes)
        lines.append(f"  {host.name}: {found or 'not installed'} ({host.binary})")
    return ["agent hosts (tests/e2e/hosts.py):", *dict.fromkeys(lines)]


def copy_project(source: Path, root: Path) -> Path:
    """A copy of the built project (work tree and its git config) under root; returns the work tree."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source / "gitconfig", root / "gitconfig")
    shutil.copytree(source / "work", root / "work", symlinks=True)
    return root / "work"
