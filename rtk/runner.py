"""`rtk CMD ARGS...`: run exactly that argv, stream its output through a filter, exit with its code.

The child is spawned with the standard library before trio is imported, so a slow command hides
the ~200 ms trio costs to import. stdout and stderr are then read concurrently by trio tasks;
every chunk goes through the output pipeline and what the filter keeps is written at once.
Signals to rtk are forwarded to the child and rtk exits 128+N once the child is gone.
"""
from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

from rtk import config, filters
from rtk.exits import COMMAND_NOT_FOUND, NOT_EXECUTABLE, exit_status

FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
KILL_GRACE_SECONDS = 5.0
READ_SIZE = 256 * 1024


class EarlySignals:
    """Signals that arrive between spawning the child and trio taking over: forwarded, remembered."""

    def __init__(self) -> None:
        self.received: list[int] = []
        self.child: subprocess.Popen[bytes] | None = None
        for sig in FORWARDED:
            signal.signal(sig, self._handle)

    def _handle(self, signum: int, frame: object) -> None:
        self.received.append(signum)
        if self.child is not None and self.child.poll() is None:
            self.child.send_signal(signum)


def resolve_executable(name: str) -> tuple[str | None, int, str]:
    """(path, 0, "") when runnable, else (None, exit code, one-line reason)."""
    if os.sep in name:
        if not os.path.exists(name):
            return None, COMMAND_NOT_FOUND, f"rtk: {name}: No such file or directory"
        if os.path.isdir(name) or not os.access(name, os.X_OK):
            return None, NOT_EXECUTABLE, f"rtk: {name}: Permission denied"
        return name, 0, ""
    found = shutil.which(name)
    if found is None:
        return None, COMMAND_NOT_FOUND, f"rtk: {name}: command not found"
    return found, 0, ""


def choose_filter(argv: Sequence[str], forced: str | None, cfg: config.Config) -> str:
    if forced:
        return forced
    if config.run_disabled():
        return "passthrough"
    words = [os.path.basename(argv[0]), *argv[1:]]
    if cfg.filter_disabled(words):
        return "passthrough"
    return filters.filter_name_for(argv)


def run_command(argv: list[str], filter_name: str | None = None) -> int:
    started, t0 = time.time(), time.monotonic()
    cfg = config.load()
    _, code, reason = resolve_executable(argv[0])
    if code:
        print(reason, file=sys.stderr)
        return code
    name = choose_filter(argv, filter_name, cfg)
    early = EarlySignals()
    try:
        child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except PermissionError:
        print(f"rtk: {argv[0]}: Permission denied", file=sys.stderr)
        return NOT_EXECUTABLE
    except FileNotFoundError:
        print(f"rtk: {argv[0]}: command not found", file=sys.stderr)
        return COMMAND_NOT_FOUND
    except OSError as exc:
        print(f"rtk: {argv[0]}: {exc.strerror or exc}", file=sys.stderr)
        return NOT_EXECUTABLE
    early.child = child
    from rtk.session import RunSession  # the output side: trio, the filter, recall, accounting

    session = RunSession(argv, name, cfg, child, early.received, started, t0)
    return session.run()


def command_text(argv: Sequence[str]) -> str:
    return shlex.join(argv)


def child_status(returncode: int) -> int:
    return exit_status(returncode)
