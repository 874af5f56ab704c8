"""Where rtk keeps its files. Every path honours its environment override, so tests stay hermetic."""
from __future__ import annotations

import os
from pathlib import Path


def config_dir() -> Path:
    if custom := os.environ.get("RTK_CONFIG_DIR"):
        return Path(custom)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "rtk"


def config_file() -> Path:
    return config_dir() / "config.toml"


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "rtk"


def db_path() -> Path:
    if custom := os.environ.get("RTK_DB_PATH"):
        return Path(custom)
    return data_dir() / "history.db"


def recall_dir() -> Path:
    return data_dir() / "recall"


def audit_dir() -> Path:
    if custom := os.environ.get("RTK_AUDIT_DIR"):
        return Path(custom)
    return data_dir()


def private_dir(path: Path) -> Path:
    """Create `path` (0700) if needed: it will hold command output or command lines."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path
