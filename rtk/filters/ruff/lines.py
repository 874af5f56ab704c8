"""What one line of ruff's output is: the shapes shared by `ruff check` and `ruff format`."""
from __future__ import annotations

import re
from dataclasses import dataclass

from rtk.filters.base import strip_ansi

CODE = r"(?:[A-Z]{1,6}[0-9]{1,5}|[a-z][a-z0-9]*(?:-[a-z0-9]+)+|SyntaxError|[a-z]+)"
# `path:line:col: CODE [*] message` (concise, and the full format of ruff < 0.9)
CONCISE = re.compile(r"^(?P<path>[^\s:][^:]*?):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<code>" + CODE + r")(?::)? (?P<msg>.*)$")
# full format header `CODE [*] message`, then `  --> path:line:col`
HEADER = re.compile(r"^(?P<code>" + CODE + r")(?::)? (?P<msg>\S.*)$")
ARROW = re.compile(r"^\s*-->\s*(?P<path>.+?):(?P<line>\d+):(?P<col>\d+)\s*$")
# grouped format: `path:` then `  line:col CODE message`
GROUP_FILE = re.compile(r"^(?P<path>(?:[A-Za-z]:)?[^\s:-][^:]*):$")  # not `- path:` of --show-fixes
GROUP_ITEM = re.compile(r"^\s+(?P<line>\d+):(?P<col>\d+)\s+(?P<code>" + CODE + r")(?::)? (?P<msg>.*)$")
FRAME_SOURCE = re.compile(r"^\s*(?P<num>\d+)\s*[|+]\s?(?P<text>.*)$")
FRAME_OTHER = re.compile(r"^\s*(?:\||-|=|\.\.\.|\d+\s*-)(?:\s|$)|^-{8,}$")
HELP = re.compile(r"^\s*(?:=\s*)?(?P<kind>help|note): (?P<text>.*)$")
STATISTIC = re.compile(r"^\s*(?P<count>\d+)\t(?P<code>\S+)\s*\t(?P<rest>.*)$")
FOUND = re.compile(r"^Found \d[\d,]* errors?\b")
SUMMARY_PREFIXES = ("[*] ", "All checks passed", "No errors", "No fixes available",
                    "Fixed ", "Would fix ")


@dataclass
class Finding:
    """One diagnostic; `source` is the marked line of its code frame, `help` its help line."""

    path: str
    line: int
    col: int
    code: str
    message: str
    source: str = ""
    help: str = ""


def clean(line: str) -> str:
    return strip_ansi(line).rstrip()


def concise(text: str) -> Finding | None:
    m = CONCISE.match(text)
    if m is None:
        return None
    return Finding(m["path"], int(m["line"]), int(m["col"]), m["code"], m["msg"])


def is_summary(text: str) -> bool:
    return bool(FOUND.match(text)) or text.startswith(SUMMARY_PREFIXES)


def is_frame(text: str) -> bool:
    return bool(FRAME_SOURCE.match(text) or FRAME_OTHER.match(text))
