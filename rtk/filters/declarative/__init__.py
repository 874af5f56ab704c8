"""Declarative filters: TOML files (built-in, user, trusted project) run by one streaming engine.

The file format is the Rust rtk's (`[filters.NAME]` + `[[tests.NAME]]`) plus our extensions; see
docs/filters.md. This module is the part read on the hook path, before every agent command, so it
holds everything that path needs and imports only `os`, `sys` and `rtk.paths` (marshal): where filter files
live, the matcher types, and the precompiled index. The index (one marshal file per part: the
built-in filters', the user's, and one per project) is valid while the filter files and the
trust store keep their mtimes and sizes; stat-ing them is all a warm call costs. When anything
changed it is rebuilt by build_index.py (tomllib, re) in a child process, so the hook itself never
imports them. The loader, compiler and engine are imported by `create` only.

Sources: built-in `builtin/*.toml`; user `filters.toml` and `filters/*.toml` in the config dir
(`RTK_CONFIG_DIR`, else `$XDG_CONFIG_HOME/rtk`, else `~/.config/rtk`); project `.rtk/filters.toml`
and `.rtk/filters/*.toml` in the nearest ancestor of the working directory holding `.rtk/`, only
while trusted (trust.py).
"""
from __future__ import annotations

import os
import sys

from rtk.filters.serves import Serves
from rtk.paths import config_dir_path, data_dir_path, read_marshal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from rtk.filters.base import Filter, FilterContext

MODULE = __name__
BUILTIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "builtin")
INDEX_VERSION = 4
HOT_PATHS = ("hook", "rewrite")
SOURCE_RANK = {"project": 0, "user": 1, "built-in": 2}
_parts: dict[str, dict[str, object]] = {}
_hot_index: list[dict[str, object]] = []
_serves_cache: dict[tuple[int, ...], tuple[Serves, ...]] = {}
_warned = False


# --- matchers -------------------------------------------------------------------------------

class WordPattern:
    """`docker build|buildx *`: argv[0]'s basename, then each word in order (options stepped
    over), then anything when the pattern ends in `*`; without it, nothing more may follow."""

    __slots__ = ("open_end", "positions", "program", "rewrite")

    def __init__(self, program: frozenset[str], positions: tuple[frozenset[str], ...],
                 open_end: bool, rewrite: bool = True) -> None:
        self.program, self.positions, self.open_end, self.rewrite = program, positions, open_end, rewrite

    def matches(self, words: Sequence[str]) -> bool:
        if not words:
            return False
        first = words[0]
        if (os.path.basename(first) if "/" in first else first) not in self.program:
            return False
        i = 1
        for allowed in self.positions:
            while i < len(words) and words[i].startswith("-") and words[i] != "-":
                i += 1
            if i >= len(words) or words[i] not in allowed:
                return False
            i += 1
        return self.open_end or i >= len(words)


class CommandRegex:
    """An upstream `match_command` regex, run on the command line as the Rust rtk builds it
    (argv[0]'s basename, then the words joined by spaces). `prefixes`: literal texts the first
    word must start with, when the regex has them, so other commands never compile it."""

    __slots__ = ("_compiled", "prefixes", "regex", "rewrite")

    def __init__(self, regex: str, prefixes: tuple[str, ...] | None, rewrite: bool = True) -> None:
        self.regex, self.prefixes, self.rewrite = regex, prefixes, rewrite
        self._compiled: object = None

    @property
    def program(self) -> frozenset[str]:
        return frozenset(self.prefixes or ())

    def matches(self, words: Sequence[str]) -> bool:
        if not words:
            return False
        first = os.path.basename(words[0]) if "/" in words[0] else words[0]
        if self.prefixes is not None and not first.startswith(self.prefixes):
            return False
        if self._compiled is None:
            from rtk.filters.declarative.pattern import compile_pattern

            self._compiled = compile_pattern(self.regex, "match_command")
        return self._compiled.search(" ".join((first, *words[1:]))) is not None  # type: ignore[attr-defined]


def matcher(data: tuple[Any, ...]) -> WordPattern | CommandRegex:
    """A matcher from its index data: ("w", program, positions, open_end, rewrite) or
    ("r", regex, prefixes, rewrite)."""
    if data[0] == "w":
        return WordPattern(frozenset(data[1]), tuple(frozenset(p) for p in data[2]), bool(data[3]), bool(data[4]))
    prefixes = data[2]
    return CommandRegex(str(data[1]), tuple(prefixes) if prefixes is not None else None, bool(data[3]))


def describe(data: tuple[Any, ...]) -> str:
    """`make *` or `/^make\\b/`: a matcher as `rtk filters` shows it."""
    if data[0] == "r":
        return f"/{data[1]}/"
    words = ["|".join(sorted(data[1])), *("|".join(sorted(p)) for p in data[2])]
    return " ".join(words + (["*"] if data[3] else []))


# --- sources --------------------------------------------------------------------------------

def _toml_files(directory: str) -> list[str]:
    try:
        names = sorted(e.name for e in os.scandir(directory)
                       if e.name.endswith(".toml") and not e.name.startswith("."))
    except OSError:
        return []
    return [os.path.join(directory, name) for name in names]


def _config_files(base: str) -> list[str]:
    single = os.path.join(base, "filters.toml")
    return ([single] if os.path.isfile(single) else []) + _toml_files(os.path.join(base, "filters"))


def user_files() -> list[str]:
    return _config_files(config_dir_path())


def project_root(start: str | None = None) -> str | None:
    """The nearest ancestor of `start` (default: the working directory) holding `.rtk/`."""
    try:
        here = os.path.abspath(start or os.getcwd())
    except OSError:
        return None
    while True:
        if os.path.isdir(os.path.join(here, ".rtk")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def project_files(root: str | None) -> list[str]:
    return _config_files(os.path.join(root, ".rtk")) if root else []


def all_files(root: str | None) -> list[tuple[str, str]]:
    """(source, path) of every filter file: built-in, then user, then the project's."""
    return ([("built-in", p) for p in _toml_files(BUILTIN_DIR)] + [("user", p) for p in user_files()]
            + [("project", p) for p in project_files(root)])


def trust_store_path() -> str:
    return os.path.join(data_dir_path(), "trusted-filters.json")


# --- the index ------------------------------------------------------------------------------

def cache_dir() -> str:
    return os.path.join(data_dir_path(), "cache")


def _stamp(path: str) -> tuple[str, int, int]:
    try:
        info = os.stat(path)
    except OSError:
        return (path, 0, -1)
    return (path, info.st_mtime_ns, info.st_size)


def index_key(files: list[tuple[str, str]], root: str | None) -> tuple[object, ...]:
    extra = (_stamp(trust_store_path()),) if root else ()
    return (INDEX_VERSION, sys.version_info[:2], root, tuple((s, *_stamp(p)) for s, p in files), extra)


def part_files(part: str, root: str | None = None) -> list[tuple[str, str]]:
    """The files of one index part: "built-in", "user" or "project" (of `root`)."""
    if part == "built-in":
        return [("built-in", p) for p in _toml_files(BUILTIN_DIR)]
    if part == "user":
        return [("user", p) for p in user_files()]
    return [("project", p) for p in project_files(root)]


def part_path(part: str, root: str | None = None) -> str:
    """Where a part's index lives. The built-in part is a compiled form of package data, so it
    sits in the package's __pycache__ like a .pyc (shared by every HOME), else in the cache dir."""
    if part == "built-in":
        pycache = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")
        if os.access(pycache if os.path.isdir(pycache) else os.path.dirname(pycache), os.W_OK):
            return os.path.join(pycache, f"builtin-filters.{sys.implementation.cache_tag}.marshal")
        return os.path.join(cache_dir(), "filters-builtin.marshal")
    if part == "user":
        return os.path.join(cache_dir(), "filters-user.marshal")
    value = 0xcbf29ce484222325  # FNV-1a: a stable short name per project root, without hashlib
    for byte in (root or "").encode("utf-8", "surrogateescape"):
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return os.path.join(cache_dir(), f"filters-project-{value:016x}.marshal")


def part_paths(part: str, root: str | None = None) -> tuple[str, str]:
    """The part's index file, and where it goes when that dir is read-only (a sandboxed agent):
    a private dir under the temp dir, so a read-only data dir costs one rebuild, not one per call."""
    path = part_path(part, root)
    spare = os.path.join(os.environ.get("TMPDIR") or "/tmp", f"rtk-{os.getuid()}-filter-index")
    return path, os.path.join(spare, os.path.basename(path))


def read_part(path: str) -> dict[str, object] | None:
    return read_marshal(path)


def _rebuild(part: str, root: str | None) -> None:
    """Rebuild one part in a child process: whoever asks (the hook, a run, `rtk filters`) stays
    free of tomllib and re, and this package never imports its own loader."""
    args = [sys.executable, "-m", "rtk.filters.declarative.build_index", part, root or ""]
    env = dict(os.environ)
    home = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (home, env.get("PYTHONPATH", "")) if p)
    quiet = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
             (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]
    try:
        os.waitpid(os.posix_spawn(sys.executable, args, env, file_actions=quiet), 0)
    except (OSError, AttributeError, TypeError, ValueError):  # no posix_spawn or no interpreter:
        pass  # go without the TOML filters this time


def load_part(part: str, root: str | None = None) -> dict[str, object]:
    """One part of the index, rebuilt first when its files changed."""
    files = part_files(part, root)
    if not files:
        return {"entries": [], "errors": [], "untrusted": []}
    paths = part_paths(part, root)
    key = index_key(files, root)
    data = _parts.get(paths[0])
    if data is None or data.get("key") != key:
        data = _read_fresh(paths, key)
        if data is None:
            _rebuild(part, root)
            data = _read_fresh(paths, key)
    if data is None:
        return {"entries": [], "errors": [], "untrusted": []}
    _parts[paths[0]] = data
    return data


def _read_fresh(paths: tuple[str, str], key: tuple[object, ...]) -> dict[str, object] | None:
    for path in paths:
        data = read_part(path)
        if data is not None and data.get("key") == key:
            return data
    return None


def load_index(start: str | None = None) -> list[dict[str, object]]:
    """The parts that apply in `start` (the working directory). A hook or rewrite process is
    one-shot, so it checks the files once; any other process re-checks them on every call."""
    if start is None and _hot_index:
        return _hot_index
    parts = [load_part("built-in"), load_part("user")]
    root = project_root(start)
    if root is not None:
        parts.append(load_part("project", root))
    if start is None and sys.argv[1:2] and sys.argv[1] in HOT_PATHS:
        _hot_index[:] = parts
    return parts


def reset_cache() -> None:
    """Forget what this process has read (tests that edit filter files in-process)."""
    _parts.clear()
    _serves_cache.clear()
    _hot_index.clear()


# --- what the registry asks -----------------------------------------------------------------

def _warn_once(parts: list[dict[str, object]]) -> None:
    """Broken files and untrusted project files: one `rtk:` line each, once per run (not from
    `rtk hook` or `rtk rewrite`, whose stderr the agent's host may show as an error)."""
    global _warned
    if _warned or sys.argv[1:2] and sys.argv[1] in HOT_PATHS:
        return
    _warned = True
    for part in parts:
        for line in part.get("errors", ()):  # type: ignore[attr-defined]
            print(line, file=sys.stderr)
        for path, state in part.get("untrusted", ()):  # type: ignore[attr-defined]
            why = "changed since it was trusted" if state == "changed" else "not trusted"
            print(f"rtk: project filters in {path} {why}: not applied (review them, then `rtk trust`)",
                  file=sys.stderr)


def _serves(entry: dict[str, object]) -> Serves:
    matchers = tuple(matcher(item) for item in entry["matchers"])  # type: ignore[attr-defined]
    return Serves(str(entry["name"]), str(entry["serves"]), matchers, MODULE,  # type: ignore[arg-type]
                  int(entry["priority"]), str(entry["source"]))  # type: ignore[call-overload]


def dynamic_serves() -> tuple[Serves, ...]:
    """Every TOML filter that applies in the working directory, from the cached index."""
    try:
        parts = load_index()
    except Exception:  # noqa: BLE001 - a broken cache or file must never break a hook
        parts = []
    _warn_once(parts)
    key = tuple(id(part) for part in parts)
    if key not in _serves_cache:
        _serves_cache.clear()
        _serves_cache[key] = tuple(_serves(e) for part in parts for e in part["entries"])  # type: ignore[attr-defined]
    return _serves_cache[key]


def entry_for(name: str, start: str | None = None) -> dict[str, object] | None:
    """The index entry of filter `name` from the source that wins (project, user, built-in)."""
    found = [e for part in load_index(start) for e in part["entries"] if e["name"] == name]  # type: ignore[attr-defined,index]
    return min(found, key=lambda e: SOURCE_RANK.get(str(e["source"]), 2)) if found else None


def create(ctx: FilterContext) -> Filter:
    """The filter named `ctx.filter_name`, re-read from its file (and its trust re-checked)."""
    from rtk.filters.base import BaseFilter
    from rtk.filters.declarative.catalog import find
    from rtk.filters.declarative.engine import DeclarativeFilter

    entry = entry_for(ctx.filter_name)
    spec = find(ctx.filter_name, str(entry["source"]), str(entry["path"])) if entry else None
    if spec is None or spec.passes_through(tuple(ctx.argv[1:])):
        return BaseFilter(ctx)
    return DeclarativeFilter(spec, ctx)
