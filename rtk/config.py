"""config.toml plus environment overrides, with where each value came from.

A broken config must never stop a command: every problem becomes one `rtk:` line on stderr and
the defaults stand in. That includes the pathological ones: a file too large to be a config, a
500-deep nested array (tomllib recurses: RecursionError), a directory or unreadable file in its
place. `load()` is cached per process because the runner, the filters and the tracking path all
ask.
"""
from __future__ import annotations

import os
import sys

from rtk import paths

TYPE_CHECKING = False  # no `typing`, `dataclasses` or `pathlib` at run time: the hook path may load this
if TYPE_CHECKING:
    from typing import Any

DEFAULTS: dict[str, dict[str, Any]] = {
    "tracking": {"enabled": True, "history_days": 90},
    "recall": {"enabled": True, "max_entries": 200, "max_bytes_per_entry": 64 * 1024 * 1024,
               "retention_days": 14, "max_total_bytes": 512 * 1024 * 1024},
    "hooks": {"exclude_commands": [], "audit": False, "transparent_prefixes": []},
    "filters": {"disabled": []},
    "session": {"memory": True},
    "limits": {},
}
ENV_OVERRIDES: dict[str, tuple[str, str]] = {
    "RTK_TRACK": ("tracking", "enabled"),
    "RTK_RECALL": ("recall", "enabled"),
    "RTK_HOOK_AUDIT": ("hooks", "audit"),
    "RTK_SESSION_MEMORY": ("session", "memory"),
}
# Keys the Rust rtk's config.toml holds (`rtk config --create` there, src/core/config.rs) that
# rtk (Python) does not read: skipped without a word on the run and hook paths (the file is
# shared), named as such by `rtk config`. The keys both read with the same meaning are in DEFAULTS
# (tracking.enabled/history_days, hooks.exclude_commands/transparent_prefixes) or [limits]
# (grep_max_per_file); `tracking.database_path` only tells `rtk gain` where the Rust rtk's history is.
RUST_ONLY_KEYS = frozenset({
    "tracking.database_path", "display", "filters.ignore_dirs", "filters.ignore_files", "tee", "retriever",
    "telemetry", "hooks.suppress_hook_warning", "hooks.wrap_fish_scripts", "awareness", "tools",
    "limits.grep_max_results", "limits.status_max_files", "limits.status_max_untracked",
    "limits.passthrough_max_chars"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})
MAX_CONFIG_BYTES = 1024 * 1024


class Config:
    """The effective values, where each came from, and the problems met while reading them."""

    __slots__ = ("ignored", "problems", "sources", "values")

    def __init__(self, values: dict[str, dict[str, Any]], sources: dict[str, str] | None = None,
                 problems: list[str] | None = None, ignored: dict[str, Any] | None = None) -> None:
        self.values = values
        self.sources = {} if sources is None else sources
        self.problems = [] if problems is None else problems
        self.ignored = {} if ignored is None else ignored  # unknown keys: `rtk config` names them

    def __eq__(self, other: object) -> bool:
        if type(other) is not Config:
            return NotImplemented
        return (self.values, self.sources, self.problems, self.ignored) == \
            (other.values, other.sources, other.problems, other.ignored)

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it replaces

    def __repr__(self) -> str:
        return (f"Config(values={self.values!r}, sources={self.sources!r}, problems={self.problems!r}, "
                f"ignored={self.ignored!r})")

    def get(self, section: str, key: str) -> Any:
        return self.values.get(section, {}).get(key, DEFAULTS.get(section, {}).get(key))

    @property
    def tracking_enabled(self) -> bool:
        return bool(self.get("tracking", "enabled"))

    @property
    def recall_enabled(self) -> bool:
        return bool(self.get("recall", "enabled"))

    @property
    def limits(self) -> dict[str, int]:
        return dict(self.values.get("limits", {}))

    def filter_disabled(self, command_words: list[str]) -> bool:
        """`[filters] disabled = ["git log"]`: those commands run raw."""
        joined = " ".join(command_words)
        return any(joined == entry or joined.startswith(entry + " ")
                   for entry in self.get("filters", "disabled") if isinstance(entry, str))


_cache: Config | None = None


def load(report: bool = True) -> Config:
    global _cache
    if _cache is None:
        _cache = _read(paths.config_path())
        _apply_env(_cache)
        if report:
            for problem in _cache.problems:
                print(f"rtk: {problem}", file=sys.stderr)
    return _cache


def reset_cache() -> None:
    global _cache
    _cache = None


def _read(path: str) -> Config:
    values = {section: dict(keys) for section, keys in DEFAULTS.items()}
    sources = {f"{s}.{k}": "default" for s, keys in DEFAULTS.items() for k in keys}
    config = Config(values, sources)
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_CONFIG_BYTES + 1).decode("utf-8")
    except FileNotFoundError:
        return config
    except (OSError, UnicodeDecodeError) as exc:
        config.problems.append(f"cannot read {path} ({exc}); using defaults")
        return config
    if len(text) > MAX_CONFIG_BYTES:
        config.problems.append(f"{path} is larger than {MAX_CONFIG_BYTES:,} bytes; using defaults")
        return config
    parsed = _parse(text, path, config.problems)
    if parsed is not None:
        _merge(config, parsed, str(path))
    return config


def _parse(text: str, path: str, problems: list[str]) -> dict[str, Any] | None:
    """The parsed file, from the parse cache while the text is the one it was made from."""
    cache = _parse_cache_path()
    cached = paths.read_marshal(cache)
    if cached is not None and cached.get("path") == path and cached.get("text") == text \
            and isinstance(cached.get("problems"), list):
        problems.extend(cached["problems"])
        return cached["parsed"]  # type: ignore[no-any-return]
    found: list[str] = []
    parsed = _parse_toml(text, path, found)
    problems.extend(found)
    _write_parse_cache(cache, {"path": path, "text": text, "parsed": parsed, "problems": found})
    return parsed


def _parse_cache_path() -> str:
    """`tomllib` (and the `re`, `string` it imports) costs ~5 ms: every command would pay it
    while a config exists. Its result is kept beside rtk's other caches, as marshal data."""
    return os.path.join(paths.data_dir_path(), "cache", f"config.{sys.implementation.cache_tag}.marshal")


def _write_parse_cache(path: str, data: dict[str, Any]) -> None:
    """Best effort: a read-only data dir, or a TOML date no key of ours takes, just parses again."""
    try:
        paths.write_marshal(path, data, private=True)  # it holds the config's text
    except (OSError, ValueError):
        pass


def _parse_toml(text: str, path: str, problems: list[str]) -> dict[str, Any] | None:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{path}: {exc}; using defaults")
    except (RecursionError, MemoryError, ValueError) as exc:
        problems.append(f"{path}: cannot be parsed ({type(exc).__name__}: nested too deep or too large); "
                        "using defaults")
    return None


def _merge(config: Config, parsed: dict[str, Any], origin: str) -> None:
    """Known keys with the right kind of value are taken; a wrong value is a problem (said on
    every path); an unknown key, such as the Rust rtk's own in the config file both tools read,
    is set aside in `ignored` for `rtk config` to name, without a word on the run and hook paths."""
    for section, keys in parsed.items():
        if section not in DEFAULTS or not isinstance(keys, dict):
            config.ignored[section] = keys
            continue
        for key, value in keys.items():
            default = DEFAULTS[section].get(key)
            if (section != "limits" and key not in DEFAULTS[section]) or f"{section}.{key}" in RUST_ONLY_KEYS:
                config.ignored[f"{section}.{key}"] = value
            elif not _same_kind(default, value, section):
                config.problems.append(
                    f"{origin}: '{section}.{key}' expects {_kind(default, section)}, got {value!r}; ignored")
            else:
                config.values[section][key] = value
                config.sources[f"{section}.{key}"] = origin


def _kind(default: Any, section: str) -> str:
    if section == "limits":
        return "a positive integer"
    return {bool: "true or false", int: "an integer", list: "a list of strings"}.get(type(default), "a value")


def _same_kind(default: Any, value: Any, section: str) -> bool:
    if section == "limits":
        return isinstance(value, int) and not isinstance(value, bool) and value > 0
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if isinstance(default, list):
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return True


def _apply_env(config: Config) -> None:
    for var, (section, key) in ENV_OVERRIDES.items():
        if var in os.environ:
            config.values[section][key] = os.environ[var].strip().lower() not in FALSE_WORDS
            config.sources[f"{section}.{key}"] = f"env {var}"


def run_disabled() -> bool:
    """`RTK_DISABLED=1` at run time: the command runs raw (tracked as passthrough)."""
    return os.environ.get("RTK_DISABLED", "").strip().lower() not in FALSE_WORDS
