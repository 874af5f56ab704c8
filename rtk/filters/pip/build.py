"""A failed build's own output (pip's `[N lines of output]` block, uv's `[stdout]`/`[stderr]`).

What is kept is every line that says what failed and why: error lines (compiler, meson, cmake,
setuptools), the exception a build backend raised with every line of its message (`Exception:
Can not find valid pkg-config name.` / `Specify MYSQLCLIENT_CFLAGS ... manually`) and the
traceback frame it came from, lines naming what is missing (`Run-time dependency cairo found:
NO`, `Command 'pkg-config --exists mysqlclient' returned non-zero exit status 1.`, `pg_config
executable not found`, `Cargo ... is not installed`), and the hints that name the tool to install.
Dropped (counted, and the raw output kept for recall): the build's chatter (copying, running,
compiler command lines, meson's `Compiler for C supports arguments ...: YES` checks) and the
traceback frames inside pip's and setuptools' own code.
"""
from __future__ import annotations

import re

CHATTER = re.compile(r"^\s*(?:copying |creating |running |writing |reading |adding |removing |Copying |"
                     r"byte-compiling |warning: build_py|(?:\S*/)?(?:gcc|cc|g\+\+|c\+\+|clang|"
                     r"x86_64-linux-gnu-gcc)\s|\+ meson |\[\d+/\d+\] )")
EXCEPTION = re.compile(r"^\s*(?:[\w.]+\.)?(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure|Warning)|"
                       r"Exception|SystemExit|KeyboardInterrupt)(?::\s|:?$)")
FRAME = re.compile(r'^\s*File "[^"]*", line \d+')
WHY = re.compile(
    r"\b(?:error|Error|ERROR|fatal|FATAL)\b|^\s*\S+:\d+:\d+: (?:warning|note)"
    r"|(?i:\bnot found\b|not installed|no such file|\bmissing\b|\brequired\b|\brequires\b|\bcannot\b|"
    r"can't|could not|couldn't|unable to|\bfailed\b|non-zero exit|please install|\binstall (?:the |it |a |an )|"
    r"is not (?:available|on path|installed|supported)|found: no\b|\bspecify\b|\bunsupported\b|"
    r"a full log|\bhint\b|did not find|not on (?:your )?path|\bneeds?\b|"
    r"\b(?:apt(?:-get)?|yum|dnf|brew|apk|pacman|conda|choco|zypper|port) install\b)")
CHECKED_OK = re.compile(r":\s*YES\b|found: YES|\bok$|: OK$")
MESSAGE_LINES = 30  # the exception's own message, after its first line


class BuildLog:
    """Fed the lines of one failed build's output; says which to keep."""

    def __init__(self) -> None:
        self.frame: str | None = None  # the last traceback frame seen, shown with the exception
        self.message = 0  # lines of an exception's message still to keep
        self.in_frames = False
        self.dropped = 0
        self.follow: int | None = None  # a kept line ending in ':' keeps the lines indented under it

    def keep(self, text: str) -> list[str]:
        """The lines to print for `text` (none, it, or the frame it came from and it)."""
        stripped = text.strip()
        if not stripped:
            self.message = 0  # a blank line ends an exception's message
            return []
        if self.message:
            self.message -= 1
            return [text]
        if self.follow is not None:
            if _indent(text) > self.follow:
                return [text]
            self.follow = None
        if stripped.startswith("Traceback (most recent call last)"):
            self.in_frames = True
            return [text]
        if FRAME.match(text):
            self.frame = text
            return self._drop()
        if EXCEPTION.match(text):
            frame, self.frame, self.in_frames = self.frame, None, False
            self.message = MESSAGE_LINES
            return [frame, text] if frame else [text]
        if self.in_frames and (text.startswith(" ") and not WHY.search(text) or set(stripped) <= set("^~ ")):
            return self._drop()  # a frame's source line and its carets
        if CHATTER.match(text) or CHECKED_OK.search(text) or not WHY.search(text):
            return self._drop()
        if stripped.endswith(":"):
            self.follow = _indent(text)  # `Try running:` / `    sudo apt-get install gcc python3-dev`
        return [text]

    def _drop(self) -> list[str]:
        self.dropped += 1
        return []


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())
