"""File I/O for `rtk init`: read and validate, back up, write atomically, show diffs.

A planned `Change` holds a file's bytes before and after. Nothing is written until every change
of the run has been planned (and so every target validated). Writing goes through a temporary
file in the same directory (fsync, rename), keeps the file's mode (0600 for a new file), follows
a symlink to the real file, and first saves the user's bytes in `<file>.bak`.
"""
from __future__ import annotations

import difflib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtk.agent.install.atomic import write_atomic

NEW_FILE_MODE = 0o600


class InstallError(Exception):
    """A target rtk must not touch (unreadable, malformed): one line, exit 1, nothing written."""

    exit_code = 1


@dataclass(frozen=True)
class Change:
    """One file of one agent: its bytes now and after (None: absent), and what rtk puts there."""

    agent: str
    path: Path
    old: bytes | None
    new: bytes | None
    what: str
    keep_backup: bool = False  # a deletion that still keeps `<file>.bak` (upstream's legacy script)
    updated: bool = False  # rtk's own entry was there, in an older or other form

    @property
    def changed(self) -> bool:
        return self.old != self.new

    @property
    def backup(self) -> Path:
        return Path(os.path.realpath(self.path) + ".bak")


def read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InstallError(f"{path}: cannot read ({exc.strerror or exc}); nothing written") from None


def parse_json(path: Path, data: bytes | None) -> dict[str, Any]:
    """The document's top-level object ({} for a missing or blank file)."""
    text = decode_text(path, data)
    if not text.strip():
        return {}
    try:
        doc = json.loads(text, object_pairs_hook=_unique_keys)
    except ValueError as exc:
        raise InstallError(f"{path}: invalid JSON ({exc}); nothing written") from None
    if not isinstance(doc, dict):
        raise InstallError(f"{path}: expected a JSON object at the top, found {type(doc).__name__}; "
                           "nothing written")
    return doc


def decode_text(path: Path, data: bytes | None) -> str:
    """The file's text (a leading BOM dropped); not UTF-8 stops the run."""
    try:
        return (data or b"").decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InstallError(f"{path}: not UTF-8 text; nothing written") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A duplicate key would be silently dropped on rewrite: refuse instead."""
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise ValueError(f"duplicate key {key!r}")
        doc[key] = value
    return doc


def dump_json(doc: dict[str, Any]) -> bytes:
    """Our formatter: 2-space indent, keys in the document's order, UTF-8, final newline."""
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def unified_diff(change: Change) -> str:
    before = (change.old or b"").decode("utf-8", "replace").splitlines(keepends=True)
    after = (change.new or b"").decode("utf-8", "replace").splitlines(keepends=True)
    lines = difflib.unified_diff(before, after, str(change.path) if change.old is not None else "/dev/null",
                                 str(change.path) if change.new is not None else "/dev/null")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)


def apply(change: Change, stop_at: Path) -> None:
    """Back up, then write; or delete a file that held only rtk's part (no backup of that), and
    the directories that leaves empty, up to `stop_at`."""
    target = Path(os.path.realpath(change.path))
    if change.new is None:
        if change.keep_backup and change.old is not None:
            write_atomic(change.backup, change.old, _mode(target))
        target.unlink(missing_ok=True)
        if change.path.is_symlink():
            change.path.unlink()
        _remove_empty_dirs(change.path.parent, stop_at)
        return
    mode = _mode(target)
    if change.old is not None:
        write_atomic(change.backup, change.old, mode)
    write_atomic(target, change.new, mode)


def check_writable(change: Change) -> None:
    """Refuse before anything is written when a backup or the file itself cannot be written
    (a directory in the way, a read-only directory), or the user made the file read-only."""
    needs_backup = change.old is not None and (change.new is not None or change.keep_backup)
    places = [change.backup] if needs_backup else []
    places.append(Path(os.path.realpath(change.path)))
    for place in places:
        what = "backup" if needs_backup and place == change.backup else "file"
        if place.is_dir() or not os.access(_existing_parent(place.parent), os.W_OK):
            raise InstallError(f"{place}: cannot write the {what}; nothing written")
    if change.old is not None and not change.keep_backup:
        refuse_read_only(places[-1])


def refuse_read_only(path: Path) -> None:
    """A file without any write permission was made read-only on purpose: never replace it
    (root could, and an atomic rename would even as another user)."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return
    if not mode & 0o222 or not os.access(path, os.W_OK):
        raise InstallError(f"{path}: read-only (mode {mode:04o}); rtk does not change a file made read-only: "
                           "make it writable (chmod u+w) and run again; nothing written")


def _existing_parent(path: Path) -> Path:
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


def _mode(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return NEW_FILE_MODE


def _remove_empty_dirs(start: Path, stop_at: Path) -> None:
    current = start
    while current != stop_at and stop_at in current.parents:
        try:
            current.rmdir()
        except OSError:
            return
        current = current.parent
