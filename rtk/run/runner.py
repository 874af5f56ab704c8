"""`rtk CMD ARGS...`: run exactly that argv, stream its output through a filter, exit with its code.

The child is spawned first: only what choosing the filter and spawning need is imported before
(no pipeline, filter implementation, accounting or trio), so a command hides the imports of
what reads it, and a slow command the ~200 ms trio costs to import. stdout and stderr are then read concurrently by trio tasks;
every chunk goes through the output pipeline and what the filter keeps is written at once.
The child leads its own process group (jobs.py): signals to rtk go to the whole group, and rtk
exits with the child's own status once it is gone (128+N only when the child died of signal N).

When rtk's stdout is a terminal (a person is watching, not an agent), the child writes to
pseudo-terminals instead (pty_child.py: colours and terminal behaviour kept) and a live status
line shows that the command is alive (progress.py). `--no-tty` / `RTK_NO_TTY=1` keep the pipes,
`--no-progress` / `RTK_NO_PROGRESS=1` the silence.
"""
from __future__ import annotations

import os
import sys
import time

from rtk import collect_garbage_again, config
from rtk.filters import registry as filters
from rtk.run import pty_child
from rtk.run.child import which
from rtk.run.exits import COMMAND_NOT_FOUND, NOT_EXECUTABLE, exit_status
from rtk.run.signals import EarlySignals
from rtk.run.terminal import plan_terminal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence



def resolve_executable(name: str) -> tuple[str | None, int, str]:
    """(path, 0, "") when runnable, else (None, exit code, one-line reason)."""
    if os.sep in name:
        if not os.path.exists(name):
            return None, COMMAND_NOT_FOUND, f"rtk: {name}: No such file or directory"
        if os.path.isdir(name) or not os.access(name, os.X_OK):
            return None, NOT_EXECUTABLE, f"rtk: {name}: Permission denied"
        return name, 0, ""
    found = which(name)
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


def run_command(argv: list[str], filter_name: str | None = None, *, no_tty: bool = False,
                no_progress: bool = False) -> int:
    started, t0 = time.time(), time.monotonic()
    cfg = config.load()
    executable, code, reason = resolve_executable(argv[0])
    if code:
        print(reason, file=sys.stderr)
        return code
    name = choose_filter(argv, filter_name, cfg)
    terminal = plan_terminal(name, no_tty, no_progress)
    early = EarlySignals()
    try:
        spawned = pty_child.spawn(argv, terminal.pty_streams, no_pager=name != "passthrough",
                                  executable=executable)
    except PermissionError:
        print(f"rtk: {argv[0]}: Permission denied", file=sys.stderr)
        return NOT_EXECUTABLE
    except FileNotFoundError:
        print(f"rtk: {argv[0]}: command not found", file=sys.stderr)
        return COMMAND_NOT_FOUND
    except OSError as exc:
        print(f"rtk: {argv[0]}: {exc.strerror or exc}", file=sys.stderr)
        return NOT_EXECUTABLE
    spawned.group.take_terminal()
    early.group = spawned.group
    from rtk.run import fast_finish  # the pipeline, the filter and accounting load while the child runs
    from rtk.run.output import RunOutput

    output = RunOutput(argv, name, cfg, started=started, t0=t0, colour_fds=terminal.colour_fds)
    collect_garbage_again()  # what starting allocated is loaded for good; the output may be long
    open_fds = dict(spawned.fds)
    if fast_finish.drain(spawned.child, open_fds, output, early.received):
        status = exit_status(spawned.child.wait())
        spawned.group.close()
        spawned.group.stop_leftovers()
        output.finish(status)
        return status
    from rtk.run.session import RunSession  # trio: only for commands that outlast the budget

    return RunSession(argv, spawned, early, terminal, output, open_fds).run()


def child_status(returncode: int) -> int:
    return exit_status(returncode)
