"""What `npm test`, `pnpm build`, `yarn lint`, `bun run x` will run: read from package.json.

The nearest package.json up from the working directory (or the one `--prefix`/`-C`/`--dir`
points at, or the workspace `-w NAME` / `--filter NAME` / `yarn workspace NAME` names) gives the
script's command line; a script that runs another script (`npm run lint && vitest run`) is
expanded, so the caller learns every tool of the chain. Only files are read; nothing is run.
Any problem (no package.json, bad JSON, no such script) gives None: the output is then routed
from the banner line the package manager prints.
"""
from __future__ import annotations

import glob
import json
import os
import shlex
from collections.abc import Sequence

from rtk.filters.npm.route import CHAIN

NPM_RUN = frozenset({"run", "run-script", "rum", "urn"})
NPM_TEST = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
            "restart": "restart"}
DIR_OPTIONS = frozenset({"--prefix", "-C", "--dir", "--cwd"})
WORKSPACE_OPTIONS = frozenset({"-w", "--workspace", "--filter", "-F"})
VALUE_OPTIONS = DIR_OPTIONS | WORKSPACE_OPTIONS | frozenset({"--loglevel", "--registry", "--userconfig"})
MAX_DEPTH = 3


def script_command(argv: Sequence[str], cwd: str) -> str | None:
    """The command line the script named by `argv` runs, nested scripts expanded; or None."""
    words = list(argv)
    if not words:
        return None
    manager = os.path.basename(words[0])
    directory, workspace, rest = _options(words[1:], cwd)
    if manager == "yarn" and rest[:1] == ["workspace"] and len(rest) > 2:
        workspace, rest = rest[1], rest[2:]
    name = _script_name(manager, rest)
    if name is None:
        return None
    manifest = _manifest(directory, workspace)
    return _expand(manifest, name, 0) if manifest is not None else None


def _options(words: list[str], cwd: str) -> tuple[str, str, list[str]]:
    directory, workspace, i = cwd, "", 0
    rest: list[str] = []
    while i < len(words):
        word = words[i]
        key, eq, value = word.partition("=")
        if key in VALUE_OPTIONS and (eq or i + 1 < len(words)):
            value = value if eq else words[i + 1]
            i += 1 if eq else 2
            if key in DIR_OPTIONS:
                directory = os.path.join(cwd, value)
            elif key in WORKSPACE_OPTIONS:
                workspace = value
            continue
        if word.startswith("-") and not rest:
            i += 1
            continue
        rest.append(word)
        i += 1
    return directory, workspace, rest


def _script_name(manager: str, rest: list[str]) -> str | None:
    if not rest:
        return None
    verb = rest[0]
    if verb in NPM_RUN:
        return rest[1] if len(rest) > 1 else None
    if verb in NPM_TEST and manager != "bun":
        return NPM_TEST[verb]
    if manager in ("pnpm", "yarn") and not verb.startswith("-"):
        return verb  # `pnpm build`, `yarn lint`
    return None


def _manifest(directory: str, workspace: str) -> dict[str, object] | None:
    found = _nearest(directory)
    if found is None:
        return None
    path, data = found
    if workspace:
        return _workspace(os.path.dirname(path), data, workspace)
    return data


def _nearest(directory: str) -> tuple[str, dict[str, object]] | None:
    current = os.path.abspath(directory)
    while True:
        path = os.path.join(current, "package.json")
        data = _read(path)
        if data is not None:
            return path, data
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _read(path: str) -> dict[str, object] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _workspace(root: str, data: dict[str, object], wanted: str) -> dict[str, object] | None:
    """The workspace package named `wanted` (by name or by directory) under the root's globs."""
    patterns = data.get("workspaces")
    if isinstance(patterns, dict):
        patterns = patterns.get("packages")
    if not isinstance(patterns, list):
        patterns = _pnpm_workspace_globs(root)
    for pattern in patterns:
        for folder in sorted(glob.glob(os.path.join(root, str(pattern)))):
            member = _read(os.path.join(folder, "package.json"))
            if member is not None and wanted in (member.get("name"), os.path.relpath(folder, root)):
                return member
    return None


def _pnpm_workspace_globs(root: str) -> list[str]:
    """`packages:` of pnpm-workspace.yaml, read without a YAML library (a list of strings)."""
    try:
        with open(os.path.join(root, "pnpm-workspace.yaml"), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    globs, inside = [], False
    for line in lines:
        if line.strip().startswith("packages:"):
            inside = True
        elif inside and line.strip().startswith("- "):
            globs.append(line.strip()[2:].strip().strip("'\""))
        elif inside and line.strip() and not line.startswith((" ", "\t")):
            break
    return globs


def _expand(manifest: dict[str, object], name: str, depth: int) -> str | None:
    scripts = manifest.get("scripts")
    if not isinstance(scripts, dict) or not isinstance(scripts.get(name), str):
        return None
    command = str(scripts[name])
    if depth >= MAX_DEPTH:
        return command
    parts = []
    for part in CHAIN.split(command):
        nested = _nested_script(part)
        expanded = _expand(manifest, nested, depth + 1) if nested else None
        parts.append(expanded or part)
    return " && ".join(p for p in parts if p.strip())


def _nested_script(part: str) -> str | None:
    try:
        words = shlex.split(part)
    except ValueError:
        return None
    if not words or os.path.basename(words[0]) not in ("npm", "pnpm", "yarn", "bun"):
        return None
    return _script_name(os.path.basename(words[0]), _options(words[1:], ".")[2])
