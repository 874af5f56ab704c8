"""The live status line a person sees while a slow command runs under rtk.

One line at the bottom of the terminal: a spinner, the elapsed time, the command and the filter's
counters (`filter.progress()`: `12 passed, 1 failed`, `14 crates, 2 warnings`). It is redrawn in
place at most REDRAW_HZ times a second, erased before every line rtk prints (the writer calls
`clear()`) and at the end, so it never ends up in what was printed. It exists only on a terminal:
the caller decides that (stdout is a terminal, no `--no-progress`, no `RTK_NO_PROGRESS=1`).

A child that asks the person something on the terminal (`Username for ...:`, a passphrase)
writes its prompt after the status line, and the next redraw (`\r`, erase line) would wipe it.
So the line is not redrawn while a process of the command is blocked reading the terminal
(Linux: /proc/PID/syscall of the child and its descendants); elsewhere it always redraws.

Standard library only, and no clock reading outside `StatusLine`: `render()` is a pure function.
"""
from __future__ import annotations

import os
import time

from rtk.shell.quote import join_words

TYPE_CHECKING = False
if TYPE_CHECKING:  # `collections.abc` imports `collections`, a dozen modules, on every run
    from collections.abc import Callable, Mapping, Sequence

REDRAW_HZ = 10
FIRST_DRAW_SECONDS = 0.25  # a command that is done by then never shows a status line
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SPINNER_ASCII = "|/-\\"
ERASE = b"\r\x1b[K"
DIM, RESET = "\x1b[2m", "\x1b[0m"
COMMAND_WIDTH = 40
DEV_TTY = os.makedev(5, 0)  # /dev/tty: the controlling terminal, which the command shares with rtk
READ_SYSCALLS = {"x86_64": (0, 19), "aarch64": (63, 65)}.get(os.uname().machine, ())  # read, readv


def render(frame: int, elapsed: float, command: str, counters: Mapping[str, int], width: int,
           spinner: str = SPINNER) -> str:
    """The status text, cut to fit one row of `width` columns (the last column left free)."""
    parts = [spinner[frame % len(spinner)], format_elapsed(elapsed), command]
    counts = format_counters(counters)
    if counts:
        parts.append(counts)
    return "  ".join(parts)[:max(width - 1, 0)]


def command_label(argv: Sequence[str]) -> str:
    """`python -m pytest -x`: the program's base name and its arguments, cut to COMMAND_WIDTH."""
    label = join_words([os.path.basename(argv[0]), *argv[1:]]) if argv else ""
    return label if len(label) <= COMMAND_WIDTH else label[:COMMAND_WIDTH - 3] + "..."


def format_elapsed(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    return f"{minutes // 60}h{minutes % 60:02d}m"


def format_counters(counters: Mapping[str, int]) -> str:
    """`12 passed, 1 failed`; zero counters are left out, `1 warnings` reads `1 warning`."""
    return ", ".join(f"{value:,} {_noun(key, value)}" for key, value in counters.items()
                     if isinstance(value, int) and value)


def _noun(key: str, value: int) -> str:
    return key[:-1] if value == 1 and key.endswith("s") and not key.endswith("ss") else key


def status_fd() -> int:
    """Where to draw: stderr when it is the same terminal as stdout (keeps stdout clean), else stdout."""
    try:
        if os.isatty(2) and os.fstat(2).st_rdev == os.fstat(1).st_rdev:
            return 2
    except OSError:
        pass
    return 1


class StatusLine:
    def __init__(self, fd: int, argv: Sequence[str], counters: Callable[[], Mapping[str, int]], *,
                 colour: bool, clock: Callable[[], float] = time.monotonic,
                 started: float | None = None, paused: Callable[[], bool] = lambda: False) -> None:
        self.fd = fd
        self.command = command_label(argv)
        self.draws = 0
        self.visible = False
        self._counters = counters
        self._paused = paused
        self._colour = colour
        self._clock = clock
        self._start = clock() if started is None else started
        self._enabled = True
        self._spinner = SPINNER if _utf8_terminal() else SPINNER_ASCII
        self.resize()

    def resize(self) -> None:
        try:
            self.width = os.get_terminal_size(self.fd).columns or 80  # 0: size never set
        except OSError:
            self.width = 80

    def draw(self) -> None:
        if not self._enabled:
            return
        if self._paused():
            self.visible = False  # the line now holds a prompt too: never erase it
            return
        text = render(self.draws, self._clock() - self._start, self.command, self._safe_counters(),
                      self.width, self._spinner)
        if self._colour:
            text = DIM + text + RESET
        self._write(b"\r" + text.encode("utf-8", "replace") + b"\x1b[K")
        self.visible = True
        self.draws += 1

    def clear(self) -> None:
        if self.visible:
            self.visible = False
            self._write(ERASE)

    def close(self) -> None:
        self.clear()
        self._enabled = False

    def _safe_counters(self) -> Mapping[str, int]:
        try:
            return dict(self._counters())
        except Exception:  # noqa: BLE001 - a filter's counters never break the run
            return {}

    def _write(self, data: bytes) -> None:
        try:
            os.write(self.fd, data)
        except BlockingIOError:
            pass  # the terminal is busy: skip this frame
        except OSError:
            self._enabled = self.visible = False  # the terminal went away


def reading_terminal(root: int, terminal_fd: int) -> bool:
    """Is `root` or a descendant blocked reading the terminal on `terminal_fd`? (Linux only.)"""
    try:
        terminal = os.fstat(terminal_fd).st_rdev
    except OSError:
        return False
    pending, seen = [root], 0
    while pending and seen < 256:
        pid = pending.pop()
        seen += 1
        if _blocked_reading(pid, terminal):
            return True
        pending.extend(_children(pid))
    return False


def _blocked_reading(pid: int, terminal: int) -> bool:
    try:
        with open(f"/proc/{pid}/syscall") as file:
            fields = file.read().split()
        if len(fields) < 2 or not fields[0].isdigit() or int(fields[0]) not in READ_SYSCALLS:
            return False
        return os.stat(f"/proc/{pid}/fd/{int(fields[1], 16)}").st_rdev in (terminal, DEV_TTY)
    except (OSError, ValueError):
        return False


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            return [int(child) for child in file.read().split()]
    except (OSError, ValueError):
        return []


def _utf8_terminal() -> bool:
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = os.environ.get(var)
        if value:
            return "utf-8" in value.lower() or "utf8" in value.lower()
    return False
