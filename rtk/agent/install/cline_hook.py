"""Cline CLI: a hook script instead of a hook entry. Cline 3 runs every `PreToolUse.*` file of its
hooks folder (`~/.cline/hooks`, its `--hooks-dir` default) before each tool call, a `.sh` one with
bash, the call's JSON on stdin (read from Cline 3.0.65's code). rtk's script hands it to
`rtk hook cline`, which answers the rewrite of a `run_commands` call or nothing.

The script is rtk's alone: recognised by its first line, replaced when it differs, deleted on
uninstall; a file of that name rtk did not write is never touched.
"""
from __future__ import annotations

import shlex
from pathlib import Path

from rtk.agent.install.files import Change, InstallError, read_bytes

NAME = "cline"
RELATIVE = ".cline/hooks/PreToolUse.sh"
MARKER = "# written by `rtk init`; `rtk uninstall -g --agent cline` removes this file"
SCRIPT = """{marker}
# Cline runs this before each tool call, the call's JSON on stdin; rtk answers the rewrite of a
# run_commands call ({{"overrideInput": ...}}) or nothing. Any failure of rtk: nothing, Cline goes on.
{program} hook cline 2>/dev/null || true
"""
RUN_END = " hook cline 2>/dev/null || true"


def script(program: list[str]) -> bytes:
    return SCRIPT.format(marker=MARKER, program=shlex.join(program)).encode()


def change(home: Path, uninstall: bool, program: list[str]) -> Change:
    path = home / RELATIVE
    old = read_bytes(path)
    if old is not None and not old.startswith(MARKER.encode()):
        if uninstall:
            return Change(NAME, path, old, old, "rtk hook script (this file was not written by rtk)")
        raise InstallError(f"{path}: exists and was not written by rtk; move it away to install rtk's hook "
                           "script; nothing written")
    if uninstall:
        return Change(NAME, path, old, None, "rtk hook script")
    return Change(NAME, path, old, script(program),
                  f"hook script running `{shlex.join([*program, 'hook', NAME])}` before each run_commands call",
                  updated=old is not None)


def installed(home: Path) -> str | None:
    """The program rtk's script runs, if the script is there."""
    try:
        data = read_bytes(home / RELATIVE)
    except InstallError:
        return None
    if data is None or not data.startswith(MARKER.encode()):
        return None
    line = next((row for row in data.decode("utf-8", "replace").splitlines() if row.endswith(RUN_END)), "")
    return line.removesuffix(RUN_END) or None
