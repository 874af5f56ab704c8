"""The user's own rtk data stays the user's: the suite runs with HOME and the XDG dirs in temporary
directories, and checks at its end that nothing under the real ones changed.

Why both: a test that builds an environment at import time (`ENV = {**os.environ, ...}`) or strips
the XDG variables would otherwise run rtk against the developer's real history, recall store and
agent settings (four recall entries nobody ran once appeared that way). The redirect makes such a
test harmless; the check makes the next one visible. A toolchain that keeps its own state under
HOME (rustup, cargo, pip's and npm's config, Go's caches) keeps finding it through its own
variables, so redirecting HOME costs no download and no rebuild.
"""
from __future__ import annotations

import errno
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

# What `rtk init -g` may write for each agent, relative to HOME: the check watches only these, so
# a host the developer runs meanwhile (its transcripts, caches) is never mistaken for a test's leak.
AGENT_FILES = (
    ".claude/settings.json", ".claude/RTK.md", ".claude/CLAUDE.md", ".claude/hooks",
    ".codex/AGENTS.md", ".codex/RTK.md", ".codex/hooks.json", ".codex/config.toml", ".codex/rules",
    ".gemini/settings.json", ".gemini/GEMINI.md", ".gemini/hooks",
    ".cursor/hooks.json", ".cursor/hooks", ".cursor/rules",
    ".copilot/hooks", ".config/opencode/plugin", ".config/opencode/plugins",
    ".factory/settings.json", ".factory/hooks.json", ".qwen/settings.json", ".qwen/QWEN.md",
    ".config/kilo", ".kilocode", ".clinerules", ".windsurfrules", ".config/crush",
)
RTK_VARIABLES = ("RTK_CONFIG_DIR", "RTK_DB_PATH", "RTK_TRACK", "RTK_RECALL", "RTK_DISABLED",
                 "RTK_HOOK_AUDIT", "RTK_AUDIT_DIR", "RTK_SESSION_MEMORY")

Snapshot = dict[str, tuple[int, int]]


def strict(environ: Mapping[str, str]) -> bool:
    """Whether a change under the real dirs fails the run: in CI (a fresh HOME nobody else uses), or
    when asked."""
    return any(environ.get(var, "").strip().lower() not in ("", "0", "false", "no")
               for var in ("CI", "RTK_TEST_STRICT_HOME"))


def watched_paths(environ: Mapping[str, str]) -> list[Path]:
    """rtk's data and config dirs and the agent files rtk installs, as the real environment names them."""
    home = Path(environ.get("HOME") or os.path.expanduser("~"))
    data = Path(environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "rtk"
    config = Path(environ.get("RTK_CONFIG_DIR") or Path(environ.get("XDG_CONFIG_HOME") or home / ".config") / "rtk")
    return [data, config, *(home / relative for relative in AGENT_FILES)]


def _files(root: Path) -> Iterator[Path]:
    if root.is_file() or root.is_symlink():
        yield root
    elif root.is_dir():
        for folder, _dirs, names in os.walk(root):
            yield from (Path(folder) / name for name in names)


def settle(data_dir: Path, timeout: float = 30.0) -> None:
    """Wait until no tracking worker of rtk's is busy in the real data dir, so the snapshot holds
    what rtk wrote there before the suite (CI's README command runs `rtk git log` just before
    `pytest`: its worker lingers ~10 s, then writes the history and closes the database)."""
    queue, deadline = data_dir / "track-queue", time.monotonic() + timeout
    while time.monotonic() < deadline and (_worker_busy(queue / "worker.lock") or any(queue.glob("*.job"))):
        time.sleep(0.2)


def _worker_busy(lock: Path) -> bool:
    try:
        fd = os.open(lock, os.O_WRONLY)
    except OSError:
        return False
    try:
        os.lockf(fd, os.F_TLOCK, 0)  # the worker's own lock (rtk/track/queue.py): held while it serves
    except OSError as exc:
        return exc.errno in (errno.EACCES, errno.EAGAIN)
    finally:
        os.close(fd)  # closing drops a lock taken here
    return False


def snapshot(paths: list[Path]) -> Snapshot:
    """Every file under the watched paths: its modification time and size."""
    seen: Snapshot = {}
    for path in paths:
        for file in _files(path):
            try:
                stat = file.lstat()
            except OSError:
                continue
            seen[str(file)] = (stat.st_mtime_ns, stat.st_size)
    return seen


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What the run did to the watched files, one line each (sorted)."""
    lines = [f"created {path}" for path in after.keys() - before.keys()]
    lines += [f"deleted {path}" for path in before.keys() - after.keys()]
    lines += [f"changed {path}" for path in before.keys() & after.keys() if before[path] != after[path]]
    return sorted(lines)


def toolchain_pins(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables that keep each toolchain on its real state once HOME moves (only those unset
    and pointing at something that exists)."""
    home = Path(environ.get("HOME") or os.path.expanduser("~"))
    cache = Path(environ.get("XDG_CACHE_HOME") or home / ".cache")
    candidates = {
        "RUSTUP_HOME": home / ".rustup", "CARGO_HOME": home / ".cargo",
        "PIP_CONFIG_FILE": Path(environ.get("XDG_CONFIG_HOME") or home / ".config") / "pip" / "pip.conf",
        "NPM_CONFIG_USERCONFIG": home / ".npmrc", "npm_config_cache": home / ".npm",
        "GOPATH": home / "go", "GOCACHE": cache / "go-build",
    }
    always = {"GOPATH", "GOCACHE"}  # caches: shared whether or not they exist yet (no rebuild per test)
    return {name: str(path) for name, path in candidates.items()
            if name not in environ and (name in always or path.exists())}


def redirected(environ: Mapping[str, str], root: Path) -> dict[str, str]:
    """The environment's changes for a run under root: HOME, the XDG dirs, no rtk settings of the user."""
    home = root / "home"
    home.mkdir(parents=True, exist_ok=True)
    return {**toolchain_pins(environ), "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"), "XDG_STATE_HOME": str(home / ".local" / "state")}
