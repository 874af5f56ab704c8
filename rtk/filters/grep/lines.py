"""Reading one grep/rg output line: which file, which line number, match or context, the text.

The layouts are read with str methods, not regexes: `grep -rn` and `ls` are the commands an agent
runs most, and importing `re` costs more than the search itself on a small tree. Each reader is
held equal to the regex it replaces (tests/filters/test_str_readers.py, with hypothesis); a line
holding a newline (which the splitter never gives) takes the regex itself.
"""
from __future__ import annotations

from rtk.filters.base import LazyPattern
from rtk.filters.scan import decimal_end

MATCH_PATTERN = r"^(?P<path>.+?):(?P<num>\d+):(?P<text>.*)$"
CONTEXT_PATTERN = r"^(?P<path>.+?)-(?P<num>\d+)-(?P<text>.*)$"
NUM_PATTERN = r"^(?P<num>\d+)(?P<sep>[:-])(?P<text>.*)$"
PATH_PATTERN = r"^(?P<path>[^:]+):(?P<text>.*)$"
ERROR_PATTERN = r"^(?:e|f)?grep: |^rg: |^Binary file .* matches$|^[^:]+: binary file matches$"
_LAZY = {pattern: LazyPattern(pattern) for pattern in
         (MATCH_PATTERN, CONTEXT_PATTERN, NUM_PATTERN, PATH_PATTERN, ERROR_PATTERN)}
ERROR_PREFIXES = ("grep: ", "egrep: ", "fgrep: ", "rg: ")
BINARY_SUFFIX = ": binary file matches"


class Hit:
    """A parsed line: `path` ("" when grep printed none), `num` ("" without -n), match or context."""

    __slots__ = ("is_match", "num", "path", "text")

    def __init__(self, path: str, num: str, is_match: bool, text: str) -> None:
        self.path, self.num, self.is_match, self.text = path, num, is_match, text


def split_numbered(text: str, sep: str) -> tuple[str, str, str] | None:
    """(path, num, text) of `path<sep>12<sep>text`, the path the shortest that fits (at least one
    character): the regex `(.+?)<sep>(\\d+)<sep>(.*)`."""
    if "\n" in text:
        found = _LAZY[MATCH_PATTERN if sep == ":" else CONTEXT_PATTERN].get().match(text)
        return (found["path"], found["num"], found["text"]) if found else None
    at = text.find(sep, 1)
    while at != -1:
        end = decimal_end(text, at + 1)
        if end > at + 1 and text[end:end + 1] == sep:
            return text[:at], text[at + 1:end], text[end + 1:]
        at = text.find(sep, at + 1)
    return None


def split_number(text: str) -> tuple[str, str, str] | None:
    """(num, sep, text) of `12:text` or `12-text`: the regex `(\\d+)([:-])(.*)`."""
    if "\n" in text:
        found = _LAZY[NUM_PATTERN].get().match(text)
        return (found["num"], found["sep"], found["text"]) if found else None
    end = decimal_end(text, 0)
    if end == 0 or text[end:end + 1] not in (":", "-"):
        return None
    return text[:end], text[end], text[end + 1:]


def parse(text: str, current: str, paths: bool, numbers: bool, context: bool = False) -> Hit | None:
    """`context`: -A/-B/-C was given, so `path-12-text` lines exist (else a `-` is just a name)."""
    if paths and numbers:
        return _path_num(text, current, context)
    if paths:
        return _path_only(text, current, context)
    if numbers:
        found = split_number(text)
        return Hit("", found[0], found[1] == ":", found[2]) if found and (
            context or found[1] == ":") else None
    return Hit("", "", True, text)


def _path_num(text: str, current: str, context: bool) -> Hit | None:
    """The file grep is in is tried first: a name holding `:12:` or `-3-` then still reads right."""
    if current and text.startswith(current) and text[len(current):len(current) + 1] in (":", "-"):
        found = split_number(text[len(current) + 1:])
        if found and found[1] == text[len(current)] and (context or found[1] == ":"):
            return Hit(current, found[0], found[1] == ":", found[2])
    match = split_numbered(text, ":")
    if match is not None:
        return Hit(match[0], match[1], True, match[2])
    near = split_numbered(text, "-") if context else None
    return Hit(near[0], near[1], False, near[2]) if near else None


def _path_only(text: str, current: str, context: bool) -> Hit | None:
    seps = (":", "-") if context else (":",)
    if current and text.startswith(current) and text[len(current):len(current) + 1] in seps:
        return Hit(current, "", text[len(current)] == ":", text[len(current) + 1:])
    at = text.find(":")
    if at < 1 or "\n" in text:
        found = _LAZY[PATH_PATTERN].get().match(text) if "\n" in text else None
        return Hit(found["path"], "", True, found["text"]) if found else None
    return Hit(text[:at], "", True, text[at + 1:])


def is_error(text: str) -> bool:
    """grep's and rg's own complaints, and their `Binary file X matches` notes."""
    if "\n" in text:
        return _LAZY[ERROR_PATTERN].get().match(text) is not None
    if text.startswith(ERROR_PREFIXES):
        return True
    if text.startswith("Binary file ") and len(text) >= 20 and text.endswith(" matches"):
        return True
    head = text[:-len(BINARY_SUFFIX)]
    return text.endswith(BINARY_SUFFIX) and bool(head) and ":" not in head
