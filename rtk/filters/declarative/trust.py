"""Which project filter files the user has trusted, by the sha256 of their exact content.

A project's `.rtk/` filters come with a repository someone else wrote, and a filter decides what
an agent sees of a command's output, so they apply only after `rtk trust`. The store is a JSON
file in the data dir (0600): path -> sha256, size, mtime. A file whose content no longer has the
recorded hash is untrusted again until trusted anew.
"""
from __future__ import annotations

import hashlib
import json
import os

from rtk.paths import data_dir_path, private_dir_path

TRUSTED = "trusted"
CHANGED = "changed"
UNTRUSTED = "untrusted"
MISSING = "missing"


def store_path() -> str:
    """Also known to the package's index key (it stamps this file), so keep the two in step."""
    return os.path.join(data_dir_path(), "trusted-filters.json")


def load_store() -> dict[str, dict[str, object]]:
    try:
        with open(store_path(), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return files if isinstance(files, dict) else {}


def save_store(files: dict[str, dict[str, object]]) -> None:
    path = store_path()
    private_dir_path(os.path.dirname(path))
    temp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"version": 1, "files": files}, handle, indent=1, sort_keys=True)
    os.replace(temp, path)


def digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def status(path: str, content: bytes | None, files: dict[str, dict[str, object]] | None = None) -> str:
    """TRUSTED, CHANGED (trusted once, content differs), UNTRUSTED (never), MISSING (no file)."""
    if content is None:
        return MISSING
    record = (load_store() if files is None else files).get(os.path.abspath(path))
    if not isinstance(record, dict):
        return UNTRUSTED
    return TRUSTED if record.get("sha256") == digest(content) else CHANGED


def trust(paths: list[str]) -> list[str]:
    """Record the current content of `paths` as trusted; returns the paths recorded."""
    files = load_store()
    recorded = []
    for path in paths:
        try:
            with open(path, "rb") as handle:
                content = handle.read()
        except OSError:
            continue
        full = os.path.abspath(path)
        files[full] = {"sha256": digest(content), "size": len(content)}
        recorded.append(full)
    save_store(files)
    return recorded


def untrust(root: str) -> list[str]:
    """Forget every trusted file under the project `root`; returns the paths forgotten."""
    files = load_store()
    prefix = os.path.join(os.path.abspath(root), ".rtk") + os.sep
    gone = sorted(p for p in files if p.startswith(prefix))
    for path in gone:
        del files[path]
    if gone:
        save_store(files)
    return gone
