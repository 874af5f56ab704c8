"""A goroutine trace reduced to the frames in the user's code.

A frame is two lines: the function (`pkg.Func(args)`) and its file (`\t/path/file.go:12 +0x45`).
Frames of the standard library (runtime, testing, ...) and of dependencies (files in the module
cache, `.../pkg/mod/...`) are counted, not printed: the panic
message above the trace already says what happened, the user's frames say where. A kept frame
loses its argument words (`(0xc0002c1860, {0x59d3b8?, 0x1})` -> `(...)`) and its pc offset
(`+0x19`): addresses no reader acts on.
"""
from __future__ import annotations

import re

from rtk.filters.go.lines import FRAME_FILE, stdlib_function

PANIC_STACK = re.compile(r"^(?P<prefix>\s*\t\s*)\t\tPanic stack:\tgoroutine \d+ \[")



def short_call(func: str) -> str:
    """`pkg.(*T).M(0xc000, {0x59d3b8?, 0x1})` -> `pkg.(*T).M(...)`: the call's argument words go."""
    if not func.endswith(")") or "0x" not in func:
        return func
    depth = 0
    for i in range(len(func) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(func[i], 0)
        if depth == 0:
            return func[:i] + "(...)"
    return func


def short_place(text: str) -> str:
    """`\t/src/flag.go:296 +0x19` -> `\t/src/flag.go:296`."""
    cut = text.rfind(" +0x")
    return text[:cut] if cut > 0 else text


class Trace:
    def __init__(self) -> None:
        self.func: str | None = None
        self.dropped = 0
        self.left_out = False  # a frame, an argument word or a pc offset: content (recall keeps it)

    def feed(self, text: str) -> list[str] | None:
        """Lines to print for a trace line, or None when the line is not part of a trace."""
        if FRAME_FILE.match(text) and self.func is not None:
            func, self.func = self.func, None
            if stdlib_function(func) or "/pkg/mod/" in text:  # the module cache: a dependency
                self.dropped += 1
                self.left_out = True
                return []
            kept = [short_call(func), short_place(text)]
            self.left_out = self.left_out or kept != [func, text]
            return kept
        if self.func is not None:
            return None
        if "(" in text and not text.startswith(("\t", " ")) or text.startswith("created by "):
            self.func = text
            return []
        return None

    def end(self) -> list[str]:
        """Close the trace: a pending line, the count of library frames dropped."""
        out = [self.func] if self.func else []
        self.func = None
        if self.dropped:
            out.append(f"\t... {self.dropped} standard library and dependency frames")
        self.dropped = 0
        return out


class EmbeddedTrace:
    """testify's `Panic stack:` block: the same frames behind testify's indentation.

    `feed` returns None for a line that is not part of such a block (the caller goes on with it),
    else the lines to print; the block ends at the first line without the prefix and a frame.
    """

    def __init__(self) -> None:
        self._prefix: str | None = None
        self._trace = Trace()

    @property
    def left_out(self) -> bool:
        return self._trace.left_out

    def feed(self, text: str) -> list[str] | None:
        if self._prefix is None:
            if (m := PANIC_STACK.match(text)) is not None:
                self._prefix = m["prefix"] + "\t"
                return [text]
            return None
        if text.startswith(self._prefix):
            kept = self._trace.feed(text[len(self._prefix):].replace("\t\t", "\t", 1))
            if kept is not None:
                return [self._prefix + line for line in kept]
        out = [self._prefix + line for line in self._trace.end()]
        self._prefix = None
        return out + [text] if out else None
