"""`rtk config`: show the effective settings and where each came from, or start a config file.

People debugging "why is my git log raw?" need the answer in one screen, so every value is
printed with its origin (default, the file, or the environment variable that overrode it).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from rtk import config, paths


class ConfigCliError(Exception):
    """One line for the user; the command exits 1."""


DEFAULT_FILE = """\
# rtk configuration. Every value below is the default; to change one, uncomment it and its
# [section] line. The Rust rtk reads this file too: it refuses a [tracking], [filters] or [limits]
# table that lacks its own keys, so keep those headers commented unless you set what it needs
# (`rtk config` says what is missing).
# Environment overrides: RTK_TRACK, RTK_RECALL, RTK_HOOK_AUDIT, RTK_DISABLED=1, NO_COLOR.

# [tracking]
# enabled = true          # record each run's token savings for `rtk gain`
# history_days = 90       # rows older than this are deleted

# [recall]
# enabled = true          # keep the raw output when a filter elides content (`rtk recall ID`)
# max_entries = 200
# max_bytes_per_entry = 67108864
# retention_days = 14

# [hooks]
# exclude_commands = []   # e.g. ["git push"]: hooks never rewrite these
# transparent_prefixes = []  # e.g. ["direnv exec ."]: wrappers rewritten as `direnv exec . rtk git status`
# audit = false           # log every hook decision to the data dir

# [filters]
# disabled = []           # e.g. ["git log"]: those commands run raw

# [limits]
# per-filter caps (`rtk config` lists every one with its default and what it caps), e.g.
# git_status_max_files = 40
"""
# The tables the Rust rtk's config.toml reader (serde, src/core/config.rs) accepts only whole:
# present without one of these keys, it rejects the whole file and runs on its defaults.
RUST_REQUIRED = {
    "tracking": ("enabled", "history_days"),
    "display": ("colors", "emoji", "max_width"),
    "filters": ("ignore_dirs", "ignore_files"),
    "telemetry": ("enabled",),
    "limits": ("grep_max_results", "grep_max_per_file", "status_max_files", "status_max_untracked",
               "passthrough_max_chars"),
}


def run_config(show_path: bool, init_file: bool) -> str:
    if show_path:
        return f"{paths.config_file()}\n"
    if init_file:
        return write_default_file()
    return render(config.load())


def write_default_file() -> str:
    path = paths.config_file()
    if path.exists():
        raise ConfigCliError(f"{path} already exists; not overwriting it (edit it, or remove it first)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(DEFAULT_FILE)
    except OSError as exc:
        raise ConfigCliError(f"cannot write {path}: {exc.strerror or exc}") from None
    return f"wrote {path}\n"


def render(cfg: config.Config) -> str:
    lines = [f"# config file: {paths.config_file()}"
             + ("" if paths.config_file().exists() else " (not present, defaults in use)")]
    for section in config.DEFAULTS:
        lines.append(f"\n[{section}]")
        keys = cfg.values.get(section, {})
        if section == "limits":
            lines += limit_lines(keys, cfg.sources)
            continue
        if not keys:
            lines.append("# (none set)")
        for key, value in keys.items():
            origin = cfg.sources.get(f"{section}.{key}", "default")
            lines.append(f"{key} = {toml_value(value)}  # {origin}")
    lines += _ignored_lines(cfg) + _rust_unreadable_lines()
    if config.run_disabled():
        lines.append("\n# RTK_DISABLED is set: commands run raw")
    for var in ("RTK_CONFIG_DIR", "RTK_DB_PATH", "RTK_AUDIT_DIR", "NO_COLOR"):
        if var in os.environ:
            lines.append(f"# {var}={os.environ[var]}")
    return "\n".join(lines) + "\n"


def limit_lines(values: dict[str, Any], sources: dict[str, str]) -> list[str]:
    """Every limit a filter reads: the value in force, where it came from, its default and what it
    caps (a limit nobody set is shown commented, at its default)."""
    from rtk.filters.limits import LIMITS

    lines = []
    for key, limit in LIMITS.items():
        if key in values:
            lines.append(f"{key} = {toml_value(values[key])}  # {sources.get(f'limits.{key}', 'file')}; "
                         f"default {limit.default}: {limit.applies}")
        else:
            lines.append(f"# {key} = {limit.default}  # default: {limit.applies}")
    lines += [f"{key} = {toml_value(value)}  # {sources.get(f'limits.{key}', 'file')}; no filter reads this key"
              for key, value in values.items() if key not in LIMITS]
    return lines


def _ignored_lines(cfg: config.Config) -> list[str]:
    """The keys the file holds that rtk (Python) does not read: only here, never on a run."""
    if not cfg.ignored:
        return []
    lines = ["\n# keys in the file that rtk (Python) does not read (ignored):"]
    for key in cfg.ignored:
        whose = "the Rust rtk's setting" if key in config.RUST_ONLY_KEYS else "unknown key"
        lines.append(f"#   {key}  ({whose})")
    return lines


def _rust_unreadable_lines() -> list[str]:
    """Tables the Rust rtk would refuse (it then ignores the whole file, its own keys included)."""
    from rtk.config import _parse

    try:
        text = paths.config_file().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    parsed = _parse(text, paths.config_path(), []) or {}
    missing = [f"[{table}] lacks {', '.join(absent)}" for table, keys in RUST_REQUIRED.items()
               if isinstance(parsed.get(table), dict)
               and (absent := [key for key in keys if key not in parsed[table]])]
    if not missing:
        return []
    return ["\n# the Rust rtk, if you use it, cannot read this file (it then runs on its defaults): "
            + "; ".join(missing)]


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


CONFIG_EPILOG = """\b
Examples:
  rtk config            # every setting, its value and where it came from
  rtk config --path     # where config.toml is read from
  rtk config --init     # write a commented default file
\b
Exit codes: 0; 1 the file could not be written (one line); 2 usage error."""


@click.command(name="config", epilog=CONFIG_EPILOG)
@click.option("--path", "show_path", is_flag=True, help="print the config file path")
@click.option("--init", "init_file", is_flag=True, help="write a commented default config file")
def config_cmd(show_path: bool, init_file: bool) -> None:
    """Print the effective configuration and where each value came from."""
    try:
        click.echo(run_config(show_path, init_file), nl=False)
    except ConfigCliError as exc:
        click.echo(f"rtk: {exc}", err=True)
        sys.exit(1)
