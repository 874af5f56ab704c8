"""How a rewrite names rtk: `rtk` when the `rtk` the agent's PATH finds is this one, else this rtk's
absolute path (or `PYTHON -m rtk`), so the rewritten command runs this rtk and not another (the
Rust rtk, an old install) or nothing at all.

The hook runs in the agent's environment, so its PATH is usually the one the rewritten command
will see. Not for Codex: it runs commands in a login shell (`bash -lc`), whose profile may set
another PATH, so a Codex rewrite always names this rtk by its path. The lookup is a few `stat`
calls (no `shutil`, which imports `fnmatch` and `re`).
"""
from __future__ import annotations

import os
import sys

SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+@%:,=")
_cached: dict[bool, str] = {}


def which(name: str, path: str | None = None) -> str | None:
    """The first executable `name` on PATH (like `shutil.which`), else None."""
    for folder in (path if path is not None else os.environ.get("PATH", "")).split(os.pathsep):
        candidate = os.path.join(folder or ".", name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def own_script() -> str | None:
    """This rtk's console script: argv[0] when run as `rtk`, else the one next to the interpreter."""
    candidates = [sys.argv[0]] if os.path.basename(sys.argv[0] or "") == "rtk" else []
    candidates.append(os.path.join(os.path.dirname(sys.executable), "rtk"))
    for candidate in candidates:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    return None


def quote(word: str) -> str:
    if word and all(ch in SAFE for ch in word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def name(login_shell: bool = False) -> str:
    """The word(s) a rewrite puts before the command (cached for the process); `login_shell`:
    the command runs where PATH is not the hook's own."""
    if login_shell not in _cached:
        mine = own_script()
        _cached[login_shell] = quote(mine) if login_shell and mine else resolve(which("rtk"), mine)
    return _cached[login_shell]


def resolve(on_path: str | None, mine: str | None) -> str:
    if on_path and mine and _same(on_path, mine):
        return "rtk"
    if mine:
        return quote(mine)
    return f"{quote(sys.executable)} -m rtk"


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def reset() -> None:
    _cached.clear()
