"""The agent hosts of issue 41 for the host matrix (hosts.py lists them): Kilo CLI, Factory Droid,
Cline CLI and Hermes Agent, each set up as a user would against the fake model on 127.0.0.1."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.e2e.hosts import _opencode_configure, merge_json


def kilo_configure(root: Path, env: dict[str, str], url: str, allow_pytest: bool) -> None:
    """Kilo CLI (an OpenCode fork): OpenCode's configuration in Kilo's config folder, Kilo's own
    switches for the downloads and background services it would reach for."""
    _opencode_configure(root, env, url, allow_pytest)
    opencode_dir, kilo_dir = root / "home" / ".config" / "opencode", root / "home" / ".config" / "kilo"
    kilo_dir.mkdir(parents=True, exist_ok=True)
    for name in ("package-lock.json",):
        shutil.copyfile(opencode_dir / name, kilo_dir / name)
    (kilo_dir / "node_modules").mkdir(exist_ok=True)
    config = json.loads((opencode_dir / "opencode.json").read_text())
    # Kilo asks about every bash command by default (a headless run rejects it and ends): the user
    # allows the reads of the matrix, as a Kilo user who wants them silent would
    reads = ("git status*", "git diff*", "git log*", "ls *", "cat *", "grep *")
    config["permission"] = {"bash": {**{read: "allow" for read in reads},
                                     **({"pytest *": "allow"} if allow_pytest else {})}}
    merge_json(kilo_dir / "kilo.json", config)
    env.update({f"KILO_{key.removeprefix('OPENCODE_')}": value for key, value in list(env.items())
                if key.startswith("OPENCODE_")})
    env.update(KILO_DISABLE_SESSION_INGEST="1", KILO_TELEMETRY_LEVEL="off", KILO_DISABLE_CODEBASE_INDEXING="1",
               KILO_DISABLE_CLAUDE_CODE="1", KILO_NO_DAEMON="1", KILO_DISABLE_PRESENCE="1")


def droid_configure(allowed: tuple[str, ...]) -> Callable[[Path, dict[str, str], str, bool], None]:
    """Factory Droid with the fake model as a custom chat-completions model (no Factory account:
    `droid exec` then never leaves 127.0.0.1); the given commands added to Droid's default allow list."""

    def configure(root: Path, env: dict[str, str], url: str, allow_pytest: bool) -> None:
        custom = {"model": "fake", "displayName": "Fake", "baseUrl": f"{url}/v1", "apiKey": "e2e",
                  "provider": "generic-chat-completion-api", "maxOutputTokens": 4096}
        settings: dict[str, object] = {"customModels": [custom]}
        if allowed:
            from rtk.agent.droid_rules import DEFAULT_ALLOW

            settings["commandAllowlist"] = [*DEFAULT_ALLOW, *allowed]
        merge_json(root / "home" / ".factory" / "settings.json", settings)
        env.update(FACTORY_API_KEY="fk-e2e")

    return configure


# Droid 0.215 keeps ~10 KB of an output (its start and end) and saves the whole in a log it names
DROID_CUT = ("Full command output saved to:", 10_000)
DROID_AUTONOMY = ("droid exec runs under an autonomy level (auto-low) and drops the risk level of a command a hook "
                  "changed, so only an allow-listed rtk form keeps X's outcome: with Droid's default lists rtk "
                  "leaves every command as typed (droid-rtk-allowed shows the filtered forms)")


def droid_argv(binary: Path) -> Callable[[Path, int, bool], list[str]]:
    def argv(root: Path, turns: int, allow_pytest: bool) -> list[str]:
        return [str(binary), "exec", "--model", "custom:fake", "-o", "json", "run the commands"]

    return argv


def cline_configure(binary: Path) -> Callable[[Path, dict[str, str], str, bool], None]:
    """Cline CLI with the fake model as an OpenAI-compatible provider (`cline auth`, as a user
    sets one up); Cline's CLI approves every tool by default."""

    def configure(root: Path, env: dict[str, str], url: str, allow_pytest: bool) -> None:
        subprocess.run([str(binary), "auth", "-p", "openai-compatible", "-k", "e2e", "-m", "fake", "-b", f"{url}/v1"],
                       env=env, cwd=root, check=True, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)

    return configure


def cline_argv(binary: Path, *flags: str) -> Callable[[Path, int, bool], list[str]]:
    def argv(root: Path, turns: int, allow_pytest: bool) -> list[str]:
        return [str(binary), "--json", *flags, "run the commands"]

    return argv


HERMES_VENV = Path(os.environ.get("RTK_HERMES_VENV", "/tmp/rtk-hermes"))  # .ci/tools: pip's hermes-agent


def hermes_configure(root: Path, env: dict[str, str], url: str, allow_pytest: bool) -> None:
    """Hermes Agent with the fake model as its custom OpenAI-compatible endpoint, and rtk's
    plugin enabled as `hermes plugins enable rtk` does (in the bare run there is no such plugin)."""
    hermes_home = root / "home" / ".hermes"
    hermes_home.mkdir(parents=True, exist_ok=True)
    (hermes_home / "config.yaml").write_text(
        f"model:\n  provider: custom\n  default: fake\n  base_url: {url}/v1\n  api_key: e2e\n"
        "plugins:\n  enabled:\n    - rtk\n")
    env.update(HERMES_HOME=str(hermes_home), OPENAI_API_KEY="e2e")


def hermes_argv(binary: Path) -> Callable[[Path, int, bool], list[str]]:
    def argv(root: Path, turns: int, allow_pytest: bool) -> list[str]:
        # --yolo: no approval prompt (headless); Hermes' own rules are not what this matrix varies
        return [str(binary), "chat", "-q", "run the commands", "-Q", "--yolo", "--max-turns", str(turns + 2)]

    return argv
