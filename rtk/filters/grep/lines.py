"""Reading one grep/rg output line: which file, which line number, match or context, the text."""
from __future__ import annotations

import re

MATCH_RE = re.compile(r"^(?P<path>.+?):(?P<num>\d+):(?P<text>.*)$")
CONTEXT_RE = re.compile(r"^(?P<path>.+?)-(?P<num>\d+)-(?P<text>.*)$")
NUM_RE = re.compile(r"^(?P<num>\d+)(?P<sep>[:-])(?P<text>.*)$")
PATH_RE = re.compile(r"^(?P<path>[^:]+):(?P<text>.*)$")
ERROR_RE = re.compile(r"^(?:e|f)?grep: |^rg: |^Binary file .* matches$|^[^:]+: binary file matches$")


class Hit:
    """A parsed line: `path` ("" when grep printed none), `num` ("" without -n), match or context."""

    __slots__ = ("is_match", "num", "path", "text")

    def __init__(self, path: str, num: str, is_match: bool, text: str) -> None:
        self.path, self.num, self.is_match, self.text = path, num, is_match, text


def parse(text: str, current: str, paths: bool, numbers: bool, context: bool = False) -> Hit | None:
    """`context`: -A/-B/-C was given, so `path-12-text` lines exist (else a `-` is just a name)."""
    if paths and numbers:
        return _path_num(text, current, context)
    if paths:
        return _path_only(text, current, context)
    if numbers:
        match = NUM_RE.match(text)
        return Hit("", match["num"], match["sep"] == ":", match["text"]) if match and (
            context or match["sep"] == ":") else None
    return Hit("", "", True, text)


def _path_num(text: str, current: str, context: bool) -> Hit | None:
    if current and text.startswith(current) and text[len(current):len(current) + 1] in (":", "-"):
        match = NUM_RE.match(text, len(current) + 1)
        if match and match["sep"] == text[len(current)] and (context or match["sep"] == ":"):
            return Hit(current, match["num"], match["sep"] == ":", match["text"])
    match = MATCH_RE.match(text)
    if match is not None:
        return Hit(match["path"], match["num"], True, match["text"])
    match = CONTEXT_RE.match(text) if context else None
    return Hit(match["path"], match["num"], False, match["text"]) if match else None


def _path_only(text: str, current: str, context: bool) -> Hit | None:
    seps = (":", "-") if context else (":",)
    if current and text.startswith(current) and text[len(current):len(current) + 1] in seps:
        return Hit(current, "", text[len(current)] == ":", text[len(current) + 1:])
    match = PATH_RE.match(text)
    return Hit(match["path"], "", True, match["text"]) if match else None


def is_error(text: str) -> bool:
    if not text.startswith(("grep: ", "egrep: ", "fgrep: ", "rg: ", "Binary file ")) \
            and not text.endswith(": binary file matches"):
        return False
    return ERROR_RE.match(text) is not None
