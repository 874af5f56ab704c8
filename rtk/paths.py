"""Where rtk keeps its files. Every path honours its environment override, so tests stay hermetic.

The `*_path` functions return strings built with `os.path` for the hook and rewrite paths, which
run before every agent command and must not pay for importing `pathlib` (~3 ms); the others
return `Path` objects, importing pathlib when first called.
"""
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path


def _path(text: str) -> Path:
    from pathlib import Path

    return Path(text)


def config_dir_path() -> str:
    if custom := os.environ.get("RTK_CONFIG_DIR"):
        return custom
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "rtk")


def config_path() -> str:
    """config.toml, as a string (cheap: the hook path asks whether it exists)."""
    return os.path.join(config_dir_path(), "config.toml")


def data_dir_path() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "rtk")


def audit_dir_path() -> str:
    return os.environ.get("RTK_AUDIT_DIR") or data_dir_path()


def config_dir() -> Path:
    return _path(config_dir_path())


def config_file() -> Path:
    return _path(config_path())


def data_dir() -> Path:
    return _path(data_dir_path())


def db_path() -> Path:
    if custom := os.environ.get("RTK_DB_PATH"):
        return _path(custom)
    return data_dir() / "history.db"


def recall_dir() -> Path:
    return data_dir() / "recall"


def audit_dir() -> Path:
    return _path(audit_dir_path())


def private_dir(path: Path) -> Path:
    """Create `path` (0700) if needed: it will hold command output or command lines."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def private_dir_path(path: str) -> str:
    """`private_dir` for a string path, without pathlib."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path
