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
    from typing import Any


OWN_DB_NAME = "rtk-python-history.db"


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
    return _path(db_path_str())


def db_path_str() -> str:
    return os.environ.get("RTK_DB_PATH") or default_db_path_str()


def default_db_path_str() -> str:
    """Our own file: `history.db` beside it is the Rust rtk's (same data dir, another schema)."""
    return os.path.join(data_dir_path(), OWN_DB_NAME)


def shared_db_path_str() -> str:
    """Where the Rust rtk keeps its history (and where rtk (Python) 1.0 kept its own, now moved)."""
    return os.path.join(data_dir_path(), "history.db")


def recall_dir() -> Path:
    return _path(recall_dir_path())


def recall_dir_path() -> str:
    return os.path.join(data_dir_path(), "recall")


def audit_dir() -> Path:
    return _path(audit_dir_path())


def private_dir(path: Path) -> Path:
    """Create `path` (0700) if needed: it will hold command output or command lines."""
    private_dir_path(str(path))
    return path


def private_dir_path(path: str) -> str:
    """`path` as a private directory (0700), whatever the umask: every level rtk creates is 0700,
    and an existing rtk directory that others could read is narrowed to 0700."""
    missing: list[str] = []
    current = os.path.abspath(path)
    while not os.path.isdir(current):
        missing.append(current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, 0o700)
        except FileExistsError:
            if not os.path.isdir(directory):
                raise
            continue  # another rtk made it meanwhile
        os.chmod(directory, 0o700)  # the umask may have taken bits away (or given none)
    _narrow(os.path.abspath(path))
    return path


def _narrow(path: str) -> None:
    """rtk's directories left readable by others (older versions, a wide umask) become 0700.

    Only directories inside rtk's data directory (and that one) are narrowed, never one the user
    named through an override for other uses."""
    data = os.path.abspath(data_dir_path())
    while path == data or path.startswith(data + os.sep):
        try:
            info = os.stat(path)
            if info.st_mode & 0o077 and info.st_uid == os.geteuid():
                os.chmod(path, 0o700)
        except OSError:
            return
        path = os.path.dirname(path)


def open_private(path: str | Path, flags: int) -> int:
    """os.open for a file that holds command output or command lines: 0600 whatever the umask."""
    fd = os.open(path, flags | os.O_CREAT, 0o600)
    try:
        os.fchmod(fd, 0o600)
    except OSError:
        pass  # not ours to change (a file the user pointed rtk at): leave its mode alone
    return fd


def read_marshal(path: str) -> dict[str, Any] | None:
    """A cache file rtk wrote with `write_marshal`: its dict, or None when missing or unreadable
    (caches are rebuilt, never trusted blindly: the caller checks the key it stored)."""
    import marshal

    try:
        with open(path, "rb") as handle:
            data = marshal.load(handle)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return data if isinstance(data, dict) else None


def write_marshal(path: str, data: dict[str, Any], private: bool = False) -> None:
    """Write a cache file atomically (a reader never sees half of it). `private`: 0600 in a 0700
    dir, for what holds the user's text; else the umask decides, as for a .pyc beside the package.
    Raises OSError (a read-only place) or ValueError (data marshal cannot hold)."""
    import marshal

    blob = marshal.dumps(data)
    tmp = f"{path}.{os.getpid()}.tmp"
    if private:
        private_dir_path(os.path.dirname(path))
    else:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    try:
        fd = open_private(tmp, os.O_WRONLY | os.O_TRUNC) if private else \
            os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        with os.fdopen(fd, "wb") as handle:
            handle.write(blob)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
