"""What rtk does for a person at a terminal: ptys for the child, colours, the live status line.

Decided once per run from rtk's own descriptors and the environment; everything is empty when
stdout is not a terminal (an agent reading a pipe).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from rtk import config
from rtk.run import progress


@dataclass(frozen=True)
class Terminal:
    """What rtk does for a person at a terminal; all empty when stdout is not a terminal."""

    pty_streams: tuple[int, ...] = ()  # the child's fds that get a pty instead of a pipe
    colour_fds: frozenset[int] = frozenset()  # rtk's fds where kept lines keep their colours
    status_fd: int | None = None  # where the live status line is drawn, if anywhere


def plan_terminal(filter_name: str, no_tty: bool = False, no_progress: bool = False) -> Terminal:
    ttys = tuple(fd for fd in (1, 2) if os.isatty(fd))
    if 1 not in ttys:
        return Terminal()
    ptys = () if no_tty or _env_flag("RTK_NO_TTY") else ttys
    colours = frozenset() if os.environ.get("NO_COLOR") else frozenset(ttys)
    quiet = (no_progress or _env_flag("RTK_NO_PROGRESS") or filter_name == "passthrough"
             or os.environ.get("TERM") == "dumb")
    return Terminal(ptys, colours, None if quiet else progress.status_fd())


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in config.FALSE_WORDS
