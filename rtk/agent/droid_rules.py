"""Factory Droid's command lists as permission rules (read from droid 0.215's own code): in
`settings.json` and `settings.local.json` of `~/.factory` (FACTORY_HOME_OVERRIDE replaces the home)
and of the project's `.factory`, `commandAllowlist` runs a command without asking,
`commandDenylist` always asks, `commandBlocklist` never runs. A missing allow list means Droid's
default one (`ls`, `pwd`, `git status`, `git diff`, `git log`, ...): those commands run silently
as typed, so their `rtk` form (not on the list) would not. Entries are read as prefixes at a word
boundary, the widest reading of an allow entry: a command it might cover is left to Droid as
typed. Standard library only (the hook path).
"""
from __future__ import annotations

import os

from rtk.agent import rule_files

DEFAULT_ALLOW = ("ls", "pwd", "dir", "git status", "git diff", "git log", "git show", "git blame", "git ls-files")
KEYS = {"commandAllowlist": "allow", "commandDenylist": "ask", "commandBlocklist": "deny"}


def factory_home(home: str) -> str:
    return os.path.join(os.environ.get("FACTORY_HOME_OVERRIDE") or home, ".factory")


def entries(cwd: str, home: str) -> dict[str, list[str]]:
    """Droid's lists for a command run in `cwd`, by kind (allow, ask, deny), as written."""
    folders = [factory_home(home)]
    project = rule_files.nearest_with(os.path.abspath(cwd), ".factory")
    if project is not None and os.path.realpath(os.path.join(project, ".factory")) != os.path.realpath(folders[0]):
        folders.append(os.path.join(project, ".factory"))
    found: dict[str, list[str]] = {}
    for folder in folders:
        for name in ("settings.json", "settings.local.json"):
            path = os.path.join(folder, name)
            data = rule_files.read_json(path)
            for key in KEYS if data is not None else ():
                assert data is not None
                try:
                    listed = rule_files.entries(data, key)
                except TypeError as exc:
                    rule_files.warn(f"skipping malformed {key} in {path}: {exc}")
                    continue
                if key in data:
                    found[key] = found.get(key, []) + listed
    found.setdefault("commandAllowlist", list(DEFAULT_ALLOW))
    return {kind: [entry for entry in found.get(key, []) if entry.strip()] for key, kind in KEYS.items()}
