"""A Python traceback, one frame per line, library frames counted.

`  File "p.py", line 12, in f` and its code line become `  p.py:12 in f: code`; carets go. A
run of library frames is printed as one `... N library frames` line, except the innermost frame
of the traceback, which is always printed (it is where the exception was raised).
"""
from __future__ import annotations

import re

FRAME = re.compile(r'^(?P<indent>\s*)File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>.*))?$')
CARET = re.compile(r"^\s*[\^~]+\s*$")
LIBRARY = ("site-packages/", "dist-packages/", "<frozen ", "<string>")
STDLIB = re.compile(r"/lib/python\d\.\d+/(?!site-packages)")


CONSOLE_SCRIPT = re.compile(r"/(?:bin|Scripts)/[^/.]+$")  # the wrapper pip writes for an entry point


def is_library(path: str) -> bool:
    return (path.startswith("<") or any(part in path for part in LIBRARY) or bool(STDLIB.search(path))
            or bool(CONSOLE_SCRIPT.search(path)))


class Frames:
    """The frames of one traceback; `feed` returns None when the line is not part of them."""

    def __init__(self) -> None:
        self._frame: list[str] | None = None  # [location, code] of the last frame read
        self._library: list[list[str]] = []
        self.dropped = 0

    def feed(self, text: str) -> list[str] | None:
        if (m := FRAME.match(text)) is not None:
            out = self._settle()
            func = f" in {m['func']}" if m["func"] else ""
            self._frame = [f"  {m['path']}:{m['line']}{func}", "", m["path"]]
            return out
        if self._frame is not None and text.startswith("    "):
            if not CARET.match(text) and not self._frame[1]:
                self._frame[1] = text.strip()
            return []
        return None

    def _settle(self) -> list[str]:
        """Decide on the frame read before: print it (user code) or hold it (library)."""
        frame, self._frame = self._frame, None
        if frame is None:
            return []
        if is_library(frame[2]):
            self._library.append(frame)
            return []
        return self._library_run() + [_render(frame)]

    def _library_run(self) -> list[str]:
        held, self._library = self._library, []
        self.dropped += len(held)
        return [f"  ... {len(held)} library frames"] if held else []

    def end(self) -> list[str]:
        """The traceback's exception line arrived: print the innermost frame whoever owns it."""
        frame, self._frame = self._frame, None
        if frame is None and self._library:
            frame = self._library.pop()
        out = self._library_run()
        return out + ([_render(frame)] if frame else [])


def _render(frame: list[str]) -> str:
    location, code, _ = frame
    return f"{location}: {code}" if code else location
