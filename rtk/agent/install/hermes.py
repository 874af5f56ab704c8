"""Hermes Agent: a plugin folder of rtk's own, `$HERMES_HOME/plugins/rtk/` (default `~/.hermes`),
whose `transform_tool_result` hook hands each `terminal` result to `rtk hook hermes` and returns
rtk's replacement (hosts/hermes.py). Hermes loads only the plugins the user enabled: init says to
run `hermes plugins enable rtk` once (rtk does not edit Hermes' config.yaml).

The plugin runs inside Hermes: standard library only, never raises (any failure returns None,
which keeps Hermes' result). Both files are rtk's alone, recognised by their first line, replaced
when they differ, deleted on uninstall; files of those names rtk did not write stop init. The Rust
rtk's own plugin (`plugins/rtk-rewrite`, a pre-call rewrite) is left alone.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from rtk.agent.install.files import Change, InstallError, read_bytes

NAME = "hermes"
MARKER = "# written by `rtk init`; `rtk uninstall -g --agent hermes` removes this plugin"
ENABLE = "hermes: Hermes loads only the plugins you enabled: run `hermes plugins enable rtk` once"
MANIFEST = f"""{MARKER}
name: rtk
version: "1.0"
description: "rtk condenses what a terminal command printed before the model reads it"
hooks:
  - transform_tool_result
"""
PLUGIN = '''{marker}
"""rtk for Hermes: after Hermes ran a terminal command under its own rules, rtk condenses the
output the model reads (`rtk hook hermes` answers {{"result": "..."}}). Any failure, a timeout or
no answer keeps Hermes' own result: this never raises."""
import json
import os
import subprocess

RTK = {program}
TIMEOUT = 30


def _transform(tool_name="", args=None, result=None, **_):
    if tool_name != "terminal" or not isinstance(result, str):
        return None
    try:
        payload = json.dumps({{"hook_event_name": "transform_tool_result", "tool_name": tool_name,
                              "args": args, "cwd": os.getcwd(), "result": result}})
        run = subprocess.run([*RTK, "hook", "hermes"], input=payload, capture_output=True, text=True,
                             timeout=TIMEOUT, check=False)
        if run.returncode != 0 or not run.stdout.strip():
            return None
        answer = json.loads(run.stdout)
        new = answer.get("result") if isinstance(answer, dict) else None
        return new if isinstance(new, str) else None
    except Exception:  # noqa: BLE001 - Hermes keeps its own result
        return None


def register(ctx):
    ctx.register_hook("transform_tool_result", _transform)
'''


def plugin_dir(home: Path) -> Path:
    base = os.environ.get("HERMES_HOME")
    return (Path(base).expanduser() if base else home / ".hermes") / "plugins" / "rtk"


def changes(home: Path, uninstall: bool, program: list[str]) -> list[Change]:
    folder = plugin_dir(home)
    files = {"plugin.yaml": MANIFEST.encode(),
             "__init__.py": PLUGIN.format(marker=MARKER, program=json.dumps(program)).encode()}
    planned = []
    for name, text in files.items():
        path = folder / name
        old = read_bytes(path)
        if old is not None and not old.startswith(MARKER.encode()):
            if uninstall:
                planned.append(Change(NAME, path, old, old, "rtk plugin file (this file was not written by rtk)"))
                continue
            raise InstallError(f"{path}: exists and was not written by rtk; move it away to install rtk's "
                               "plugin; nothing written")
        what = "rtk plugin file" if uninstall else \
            f"plugin file (`transform_tool_result` runs `{' '.join([*program, 'hook', NAME])}`)"
        planned.append(Change(NAME, path, old, None if uninstall else text, what, updated=old is not None))
    return planned


def installed(home: Path) -> Path | None:
    path = plugin_dir(home) / "__init__.py"
    try:
        data = read_bytes(path)
    except InstallError:
        return None
    return path if data is not None and data.startswith(MARKER.encode()) else None
