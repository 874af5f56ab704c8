"""V8 stack frames (node, jest, mocha, vitest): which belong to the user's code.

An agent fixing a failure needs the frames in its own files; frames inside `node_modules`, node's
own modules (`node:internal/...`, `node:events`) and `<anonymous>` builtins are noise. Every JS
filter asks this module, so "user code" means the same thing everywhere.
"""
from __future__ import annotations

import re

# `    at fn (path:1:2)`, `    at path:1:2`, `    at async fn (path:1:2)`, `    at new X (<anonymous>)`
AT_FRAME = re.compile(r"^\s+at (?:(?P<fn>.*?) \()?(?P<loc>[^()]*?)(?::(?P<line>\d+):(?P<col>\d+))?\)?(?: \{)?\s*$")
NESTED_FRAME = re.compile(r"^\s+at \S.*\(.*:\d+:\d+\)*\)\s*\{?\s*$")
# vitest: ` ❯ fn path:1:2`, ` ❯ path:1:2`
ARROW_FRAME = re.compile(r"^\s*❯ (?:(?P<fn>\S+) )?(?P<loc>\S+?):(?P<line>\d+):(?P<col>\d+)\s*$")
POSITIONLESS = frozenset({"ignore-listed frames", "<anonymous>", "native"})
FOREIGN_PARTS = ("node_modules/", "node_modules\\", "node:", "<anonymous>", "internal/", "(native)",
                 "ignore-listed frames", "<unknown>", "index 0)", "https://", "http://")


def frame_location(text: str) -> str | None:
    """`path:line:col` of a stack frame line (or the frame's text when it has no position),
    None when the line is not a frame."""
    match = AT_FRAME.match(text) or ARROW_FRAME.match(text)
    if match is None:
        # `at Hook.eval (eval at create (/x/node_modules/y.js:1:2), <anonymous>:6:1)`, `at f (x.js:1:2) {`
        return text.strip() if NESTED_FRAME.match(text) else None
    loc = match["loc"] or ""
    if match["line"]:
        return f"{loc}:{match['line']}:{match['col']}"
    if match["fn"] is not None or loc in POSITIONLESS:  # `at Array.forEach (<anonymous>)`
        return loc or text.strip()
    return None  # `    at least one ...` in a message is no frame


def is_frame(text: str) -> bool:
    return frame_location(text) is not None


def is_user_frame(text: str) -> bool:
    """A frame in the user's own code (not a dependency, not node itself)."""
    loc = frame_location(text)
    return loc is not None and not is_foreign(loc)


def is_foreign(location: str) -> bool:
    return any(part in location for part in FOREIGN_PARTS) or not location.strip()
