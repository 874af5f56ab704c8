"""What one line of tsc's output is: the line classifier the tsc filter's state machine uses.

tsc prints diagnostics in two shapes, `src/a.ts(12,5): error TS2322: msg` (plain, the default when
stdout is not a terminal or with `--pretty false`) and `src/a.ts:12:5 - error TS2322: msg`
(`--pretty`, followed by a code frame), plus diagnostics without a file (`error TS5023: ...`).
Around them come continuation lines (message chains indented by two spaces per level), the
`Found N errors` summary with its per-file table, timestamped `--watch` / `--build` status lines,
and the banners and footers of the package manager that ran a `typecheck` script.
TypeScript 7 (the Go-native compiler) prints the same shapes as 5.x, with three differences the
classifier allows for: related information on one line (see _RELATED_RE), zero-padded watch
timestamps, and the `Found N errors in M files.` table in every `--watch` cycle and `--build --pretty` run.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rtk.filters.base import strip_ansi

_CATEGORY = r"(?P<cat>error|warning|message|suggestion)"
_PLAIN_RE = re.compile(
    r"^(?P<file>\S.*?)\((?P<line>\d+),(?P<col>\d+)\): " + _CATEGORY + r" (?P<code>TS\d+): (?P<msg>.*)$")
_PRETTY_RE = re.compile(
    r"^(?P<file>\S.*?):(?P<line>\d+):(?P<col>\d+) - " + _CATEGORY + r" (?P<code>TS\d+): (?P<msg>.*)$")
_GLOBAL_RE = re.compile(r"^" + _CATEGORY + r" (?P<code>TS\d+): (?P<msg>.*)$")
# TS 5 puts a related location on its own line (its message comes after the frame), TS 7 puts
# the message on the same line: `  src/b.ts:6:29 - The expected type comes from ...`.
_RELATED_RE = re.compile(r"^  (?P<loc>\S.*?:\d+:\d+)(?: - (?P<msg>.*))?$")
_FRAME_RE = re.compile(r"^\s*(?:\d+|\.\.\.)(?: .*)?$|^\s+~[\s~]*$")
_SUMMARY_RE = re.compile(r"^Found (?P<count>\d[\d,]*) errors?\b(?P<rest>.*)$")
_TABLE_HEAD_RE = re.compile(r"^Errors\s+Files$")
_TABLE_ROW_RE = re.compile(r"^\s+\d+\s+\S.*:\d+$")
# `[3:02:26 AM] msg` (pretty) or `3:02:26 AM - msg` (plain); a spinner glyph may precede it.
_STATUS_RE = re.compile(
    r"^[^\w\[\s]?(?:\[(?P<t1>[^\]]*\d:\d\d[^\]]*)\] |(?P<t2>\d{1,2}:\d\d:\d\d(?:\s?[AaPp]\.?[Mm]\.?)?) - )"
    r"(?P<msg>.*)$")
_CYCLE_START = ("Starting compilation in watch mode", "File change detected", "Starting compilation")
_BUILD_PROGRESS = ("Projects in this build:", "Building project ", "Updating output timestamps",
                   "Updating unchanged output timestamps", "Updating output of project")
_BUILD_PROGRESS_RE = re.compile(r"^Project '.*' is (?:out of date|up to date)")
_VERSION_RE = re.compile(r"^Version \d+\.\d+\S*$")
_HELP_TITLE_RE = re.compile(r"^tsc: The TypeScript Compiler - Version \d")
_ANY_ESC_RE = re.compile(r"\x1b[@-Z\\-_a-z]")

# Package managers around a `typecheck` script: `> pkg@1.0.0 typecheck [path]` + `> tsc ...`
# (npm, pnpm), `yarn run v1.22.22` + `$ tsc ...` (yarn 1).
_BANNER_HEAD_RE = re.compile(r"^> \S+@\S* \S+(?: .*)?$|^yarn run v\d\S*$")
_BANNER_CMD_RE = re.compile(r"^[>$] (?P<cmd>.+)$")
# Their footers once the script failed (or succeeded): they only restate the exit code.
_PM_FOOTER_RE = re.compile(
    r"^(?:npm (?:error|ERR!)(?: .*)?|\s*ELIFECYCLE\s+Command failed.*|error Command failed with exit code \d+\.|"
    r"info Visit https://yarnpkg\.com/\S+ for documentation about this command\.|Done in [\d.]+m?s\.)$")


@dataclass(frozen=True)
class Header:
    """The first line of a diagnostic; `file` is None for a diagnostic without a file."""

    file: str | None
    pos: str
    category: str
    code: str
    message: str


def clean(line: str) -> str:
    """The text of a raw line: colours and screen clears gone, trailing white space gone."""
    text = strip_ansi(line)
    if "\x1b" in text:
        text = _ANY_ESC_RE.sub("", text)
    return text.rstrip()


def header(text: str) -> Header | None:
    for regex in (_PLAIN_RE, _PRETTY_RE):
        if m := regex.match(text):
            return Header(m["file"], f"{m['line']}:{m['col']}", m["cat"], m["code"], m["msg"])
    if m := _GLOBAL_RE.match(text):
        return Header(None, "", m["cat"], m["code"], m["msg"])
    return None


def is_frame(raw: str, text: str) -> bool:
    """A line of a `--pretty` code frame: source line, `~~~` underline or `...` gap."""
    return raw.lstrip(" ").startswith("\x1b[7m") or bool(_FRAME_RE.match(text))


def related_location(text: str) -> tuple[str, str | None] | None:
    """The location of a `--pretty` related-information line, and its message when on the same line."""
    m = _RELATED_RE.match(text)
    return (m["loc"], m["msg"]) if m else None


def summary_count(text: str) -> int | None:
    m = _SUMMARY_RE.match(text)
    return int(m["count"].replace(",", "")) if m else None


def is_table_line(text: str) -> bool:
    return bool(_TABLE_HEAD_RE.match(text) or _TABLE_ROW_RE.match(text))


def status_message(text: str) -> str | None:
    """The message of a timestamped `--watch` / `--build` status line, without its time."""
    m = _STATUS_RE.match(text)
    return m["msg"].strip() if m else None


def is_cycle_start(message: str) -> bool:
    return message.startswith(_CYCLE_START)


def is_build_progress(message: str) -> bool:
    return message.startswith(_BUILD_PROGRESS) or bool(_BUILD_PROGRESS_RE.match(message))


def is_known_status(message: str) -> bool:
    """A status message only tsc prints (so a timestamped line of another tool is not taken for it)."""
    return is_cycle_start(message) or is_build_progress(message) or summary_count(message) is not None


def is_build_list_item(text: str) -> bool:
    return text.startswith("    * ") and text.endswith(".json")


def is_version(text: str) -> bool:
    return bool(_VERSION_RE.match(text))


def is_help_title(text: str) -> bool:
    return bool(_HELP_TITLE_RE.match(text))


def is_banner_head(text: str) -> bool:
    return bool(_BANNER_HEAD_RE.match(text))


def banner_command(text: str) -> str | None:
    m = _BANNER_CMD_RE.match(text)
    return m["cmd"] if m else None


def is_pm_footer(text: str) -> bool:
    return bool(_PM_FOOTER_RE.match(text))


def is_spinner(text: str) -> bool:
    """npm's progress spinner left on its own line (a braille glyph)."""
    return bool(text) and all("\u2800" <= ch <= "\u28ff" or ch.isspace() for ch in text)


def runs_only_tsc(command: str) -> bool:
    """A script line like `tsc --noEmit`: its output is tsc's alone."""
    words = command.split()
    return bool(words) and words[0].rsplit("/", 1)[-1] == "tsc" and not any(
        op in command for op in ("&&", "||", ";", "|"))
