"""`rtk init --show`: one line per agent saying where rtk is installed, what it runs, and whether
an older rtk's install needs `rtk init` again; a warning when the program a hook runs is gone."""
from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path

from rtk.agent.install import cline_hook, hermes, opencode, rules
from rtk.agent.install.edits import AGENTS, ShapeError, hook_commands, missing_events
from rtk.agent.install.files import InstallError, parse_json, read_bytes

Echo = Callable[[str], None]
ALL_AGENTS = (*AGENTS, *opencode.LOCAL_PATHS, cline_hook.NAME, hermes.NAME, *rules.AGENTS)


def show(agents: tuple[str, ...], home: Path, cwd: Path, echo: Echo, warn: Echo) -> None:
    """One line per agent (all of them when none is named)."""
    for name in agents or ALL_AGENTS:
        if name in rules.AGENTS:
            echo(_show_rules(name, home, cwd))
            continue
        if name in (hermes.NAME, cline_hook.NAME):
            echo(_show_own_files(name, home))
            continue
        places = _places(name, home, cwd)
        found = [_show_place(name, path, global_, warn) for path, global_ in places]
        installed = [line for line in found if line]
        echo(f"{name}: " + ("; ".join(installed) if installed else f"not installed ({places[0][0]})"))


def _show_own_files(name: str, home: Path) -> str:
    """Hermes' plugin folder and Cline's hook script: files of rtk's own in the home directory."""
    if name == hermes.NAME:
        plugin = hermes.installed(home)
        return (f"hermes: installed in {plugin.parent} (enabled with `hermes plugins enable rtk`)" if plugin
                else f"hermes: not installed ({hermes.plugin_dir(home)})")
    program = cline_hook.installed(home)
    where = home / cline_hook.RELATIVE
    return f"cline: installed in {where} ({program} hook cline)" if program else f"cline: not installed ({where})"


def _show_rules(name: str, home: Path, cwd: Path) -> str:
    """An instruction file is advice the model may ignore: the line says so."""
    found = [path for root, global_ in ((home, True), (cwd, False))
             if (path := rules.installed(name, root, global_))]
    where = "; ".join(f"instructions in {path}" for path in dict.fromkeys(found))
    note = f"{rules.AGENTS[name].label} has no hook rtk can use: the model is told to type `rtk X`, advice it may ignore"
    return f"{name}: {where} ({note})" if found else f"{name}: not installed ({note})"


def _places(name: str, home: Path, cwd: Path) -> list[tuple[Path, bool]]:
    local: str | None = opencode.LOCAL_PATHS.get(name)
    if name in opencode.LOCAL_PATHS:
        global_file = opencode.global_file(home, name)
    else:
        global_file, local = AGENTS[name].global_file(home), AGENTS[name].local_path
    places = [(global_file, True)]
    if local and cwd.resolve() != home.resolve():
        places.append((cwd / local, False))
    return places


def _show_place(name: str, path: Path, global_: bool, warn: Echo) -> str | None:
    if name in opencode.LOCAL_PATHS:
        return _show_plugin(path, global_, warn, name)
    agent = AGENTS[name]
    try:
        doc = parse_json(path, read_bytes(path))
        commands = list(dict.fromkeys(h["command"] for h in hook_commands(doc, agent)))
        missing = missing_events(doc, agent)
    except (InstallError, ShapeError) as exc:
        return f"cannot read {path} ({exc})"
    for command in commands:
        if not _program_exists(shlex.split(command)[:1]):
            warn(f"rtk: warning: {path}: the hook runs `{command}`, which no longer exists; "
                 f"run `{_rerun(name, global_)}` again")
    if not commands:
        return None
    line = f"installed in {path} ({', '.join(commands)})"
    if missing:
        line += (f", but without its {', '.join(missing)} hook (an older rtk installed it): "
                 f"run `{_rerun(name, global_)}` again")
    return line


def _show_plugin(path: Path, global_: bool, warn: Echo, app: str = "opencode") -> str | None:
    try:
        data = read_bytes(path)
    except InstallError as exc:
        return f"cannot read {path} ({exc})"
    if data is None:
        return None
    if not opencode.is_ours(data):
        return f"not installed ({path} exists but was not written by rtk)"
    program = opencode.plugin_program(data) or []
    if not _program_exists(program[:1]):
        warn(f"rtk: warning: {path}: the plugin runs `{shlex.join(program)}`, which no longer exists; "
             f"run `{_rerun(app, global_)}` again")
    line = f"installed in {path} ({shlex.join([*program, 'hook', app])})"
    if upstream := opencode.upstream_plugin(path):
        line += f"; the Rust rtk's plugin {upstream} is installed too (it rewrites commands before they run)"
    return line


def _rerun(name: str, global_: bool) -> str:
    return " ".join(["rtk init", *(["-g"] if global_ else []), "--agent", name])


def _program_exists(words: list[str]) -> bool:
    program = words[0] if words else ""
    if os.sep in program:
        return os.path.isfile(program) and os.access(program, os.X_OK)
    return bool(program) and shutil.which(program) is not None
