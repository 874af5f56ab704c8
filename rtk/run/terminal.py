"""What rtk does for a person at a terminal: ptys for the child, colours, the live status line.

Decided once per run from rtk's own descriptors and the environment. A terminal alone does not
mean a person: agents run commands in pseudo-terminals too (Cursor's terminal, Codex's exec,
tmux-driven agents) and would read every redraw of the status line. So rtk treats a run as
watched by a person only when stdin, stdout and stderr are terminals, `CI` is unset, `TERM` is
not `dumb` and no coding agent marks the environment (AGENT_MARKERS). Only then does the child
get ptys (colours, terminal behaviour), do kept lines keep their colours and is the status line
drawn. `RTK_PROGRESS=1` draws the status line on whatever terminal rtk has, `RTK_PROGRESS=0`
(or `--no-progress`, `RTK_NO_PROGRESS=1`) never; `--no-tty` / `RTK_NO_TTY=1` keep the pipes.
"""
from __future__ import annotations

import os

from rtk import config

# What coding agents set in the environment of the commands they run (each a non-empty value).
AGENT_MARKERS = (
    "AI_AGENT", "AGENT",                                # the cross-vendor conventions (Claude Code, Amp,
                                                        # Goose, opencode, VS Code; Aider's proposal)
    "CLAUDECODE",                                       # Claude Code
    "CURSOR_AGENT",                                     # Cursor (agent and cursor-agent CLI)
    "CODEX_SANDBOX", "CODEX_THREAD_ID", "CODEX_CI",     # OpenAI Codex
    "GEMINI_CLI",                                       # Gemini CLI
    "COPILOT_CLI", "COPILOT_AGENT",                     # GitHub Copilot CLI, VS Code agent terminals
    "WINDSURF_CASCADE_TERMINAL",                        # Windsurf (Cascade's terminal)
    "OPENCODE", "AUGMENT_AGENT", "CLINE_ACTIVE", "QWEN_CODE", "AMP_CURRENT_THREAD_ID",
)
CURSOR_AGENT_PAGER = "head -n 10000 | cat"  # Cursor's agent terminal sets this with CURSOR_TRACE_ID


class Terminal:
    """What rtk does for a person at a terminal; all empty when nobody watches. (A plain class:
    it is planned before the child starts, and `dataclasses` costs ~5 ms to import.)"""

    __slots__ = ("colour_fds", "pty_streams", "status_fd")

    def __init__(self, pty_streams: tuple[int, ...] = (), colour_fds: frozenset[int] = frozenset(),
                 status_fd: int | None = None) -> None:
        self.pty_streams = pty_streams  # the child's fds that get a pty instead of a pipe
        self.colour_fds = colour_fds  # rtk's fds where kept lines keep their colours
        self.status_fd = status_fd  # where the live status line is drawn, if anywhere

    def __repr__(self) -> str:
        return f"Terminal({self.pty_streams!r}, {self.colour_fds!r}, {self.status_fd!r})"


def plan_terminal(filter_name: str, no_tty: bool = False, no_progress: bool = False) -> Terminal:
    ttys = tuple(fd for fd in (1, 2) if os.isatty(fd))
    watched = person_watching()
    status = _status_fd(ttys, watched, no_progress) if filter_name != "passthrough" else None
    if not watched:
        return Terminal(status_fd=status)
    ptys = () if no_tty or _env_flag("RTK_NO_TTY") else ttys
    colours = frozenset() if os.environ.get("NO_COLOR") else frozenset(ttys)
    return Terminal(ptys, colours, status)


def person_watching() -> bool:
    """All three standard streams are terminals and nothing says a machine reads them."""
    if not all(_isatty(fd) for fd in (0, 1, 2)):
        return False
    env = os.environ
    if _env_flag("CI") or env.get("TERM") == "dumb":
        return False
    return agent_marker(env) is None


def agent_marker(env: dict[str, str] | os._Environ[str]) -> str | None:
    """The first variable that says a coding agent runs this command, if any."""
    for name in AGENT_MARKERS:
        if env.get(name, "").strip().lower() not in config.FALSE_WORDS:
            return name
    if env.get("CURSOR_TRACE_ID") and env.get("PAGER") == CURSOR_AGENT_PAGER:
        return "CURSOR_TRACE_ID"
    return None


def _status_fd(ttys: tuple[int, ...], watched: bool, no_progress: bool) -> int | None:
    forced = os.environ.get("RTK_PROGRESS", "").strip().lower()
    if no_progress or _env_flag("RTK_NO_PROGRESS") or (forced and forced in config.FALSE_WORDS):
        return None
    if not ttys or not (watched or forced):
        return None
    from rtk.run import progress  # only at a terminal

    return progress.status_fd() if 1 in ttys else 2


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in config.FALSE_WORDS
