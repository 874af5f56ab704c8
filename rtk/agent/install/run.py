"""`rtk init`: plan every file of every chosen agent, validate them all, then write, diff or show.

The plan reads and parses every target first; a malformed one stops the run before anything is
written anywhere. Each message names the file it is about.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rtk.agent.install.edits import (
    AGENTS,
    IMPORT_LINE,
    RTK_MD,
    RTK_MD_MARKER,
    Agent,
    ShapeError,
    add_hook,
    add_import,
    add_twins,
    hook_commands,
    legacy_scripts,
    nothing_left,
    remove_hook,
    remove_import,
    remove_twins,
)
from rtk.agent.install.files import (
    Change,
    InstallError,
    apply,
    check_writable,
    decode_text,
    dump_json,
    parse_json,
    read_bytes,
    unified_diff,
)
from rtk.agent.program import own_script

Echo = Callable[[str], None]


class UsageError(InstallError):
    exit_code = 2


@dataclass(frozen=True)
class Options:
    agents: tuple[str, ...] = ("claude",)
    global_: bool = False
    uninstall: bool = False
    dry_run: bool = False
    home: Path | None = None
    cwd: Path | None = None
    program: str | None = None


CODEX_TRUST = ("codex: Codex runs only hooks you have trusted: open Codex and approve rtk's hook once "
               "with /hooks")


def run_init(opts: Options, echo: Echo) -> None:
    """Install or uninstall; raises InstallError (exit 1) or UsageError (exit 2) before any write."""
    root = _root(opts)
    program = opts.program or hook_program()
    changes = [change for name in opts.agents for change in plan(AGENTS[name], root, opts, program)]
    if opts.dry_run:
        echo("dry run: nothing written")
        for change in changes:
            echo(unified_diff(change).rstrip("\n") if change.changed else _message(change, opts.uninstall))
        return
    for change in changes:
        if change.changed:
            check_writable(change)
    if not opts.uninstall and opts.program is None:
        echo(program_note(program))
    for change in changes:
        if change.changed:
            _apply(change, root)
        echo(_message(change, opts.uninstall))
    if not opts.uninstall and any(c.agent == "codex" and c.changed for c in changes):
        echo(CODEX_TRUST)


def _apply(change: Change, root: Path) -> None:
    try:
        apply(change, root)
    except OSError as exc:
        raise InstallError(f"{exc.filename or change.path}: cannot write ({exc.strerror or exc}); "
                           "the files before it in this run were written") from None


def program_note(program: str) -> str:
    """Which rtk the hook runs, and why (spec/hooks.md: `rtk` only when PATH finds this one)."""
    if program == "rtk":
        return "hooks run `rtk` (the rtk on your PATH is this one)"
    on_path = shutil.which("rtk")
    why = f"the rtk on your PATH is another one ({on_path})" if on_path else "no rtk on your PATH"
    return f"hooks run {program} ({why})"


def _root(opts: Options) -> Path:
    if opts.global_:
        return opts.home or Path.home()
    only_global = [name for name in opts.agents if AGENTS[name].local_path is None]
    if only_global:
        name = only_global[0]
        raise UsageError(f"{name.capitalize()} hooks are global-only. Use: rtk init -g --agent {name}")
    return opts.cwd or Path.cwd()


def plan(agent: Agent, root: Path, opts: Options, program: str) -> list[Change]:
    if opts.global_:
        path = agent.global_file(root)
    else:
        assert agent.local_path is not None
        path = root / agent.local_path
    changes = _hook_changes(agent, path, f"{program} hook {agent.name}", opts.uninstall)
    if agent.name == "claude":
        changes += _awareness_changes(path.parent, opts.uninstall)
    return changes


def _hook_changes(agent: Agent, path: Path, command: str, uninstall: bool) -> list[Change]:
    """The hook file's change, then upstream's legacy scripts it pointed at (removed, kept as
    `.bak`)."""
    old = read_bytes(path)
    doc = parse_json(path, old)
    try:
        scripts = _legacy_script_changes(agent, path, legacy_scripts(doc, agent))
        touched = remove_hook(doc, agent) if uninstall else add_hook(doc, agent, command) != "present"
        twins = (remove_twins(doc) if uninstall else add_twins(doc)) if agent.name == "gemini" else 0
    except ShapeError as exc:
        raise InstallError(f"{path}: {exc}; nothing written") from None
    what = "rtk hook" if uninstall else f"hook `{command}`"
    if twins:
        what += f" and {twins} rtk-form twin{'s' if twins > 1 else ''} of tools.allowed rules " \
                "(Gemini checks its policy on the rewritten command)"
    if not touched and not twins:
        return [Change(agent.name, path, old, old, what), *scripts]
    new = None if uninstall and nothing_left(doc, agent) else dump_json(doc)
    return [Change(agent.name, path, old, new, what), *scripts]


def _legacy_script_changes(agent: Agent, config: Path, scripts: list[str]) -> list[Change]:
    changes = []
    for written in dict.fromkeys(scripts):
        script = Path(os.path.expandvars(os.path.expanduser(written)))
        if not script.is_absolute():
            script = config.parent / script
        data = read_bytes(script)
        if data is not None and b"rtk" in data:
            changes.append(Change(agent.name, script, data, None, "upstream's legacy hook script",
                                  keep_backup=True))
    return changes


def _awareness_changes(folder: Path, uninstall: bool) -> list[Change]:
    """Claude: RTK.md tells the agent about condensed output; CLAUDE.md imports it once."""
    rtk_md, claude_md = folder / "RTK.md", folder / "CLAUDE.md"
    old_rtk, old_claude = read_bytes(rtk_md), read_bytes(claude_md)
    text = decode_text(claude_md, old_claude)
    edit = remove_import if uninstall else add_import
    import_line = Change("claude", claude_md, old_claude, _edited(old_claude, text, edit(text)),
                         f"line {IMPORT_LINE}")
    if not uninstall:
        return [Change("claude", rtk_md, old_rtk, RTK_MD.encode(), "awareness file"), import_line]
    if old_rtk is not None and RTK_MD_MARKER not in decode_text(rtk_md, old_rtk):
        return [Change("claude", rtk_md, old_rtk, old_rtk, "awareness file written by rtk"), import_line]
    return [Change("claude", rtk_md, old_rtk, None, "awareness file"), import_line]


def _edited(old: bytes | None, text: str, new_text: str) -> bytes | None:
    """The file's new bytes: unchanged when the text is, None (delete) when only blanks are left."""
    if new_text == text:
        return old
    return new_text.encode() if new_text.strip() else None


def _message(change: Change, uninstall: bool) -> str:
    head, path, what = change.agent, change.path, change.what
    if not change.changed:
        return f"{head}: no {what} in {path}, nothing to remove" if uninstall \
            else f"{head}: {what} already installed in {path}"
    if change.new is None and change.keep_backup:
        return f"{head}: removed {what} {path} (kept as {change.backup})"
    if change.new is None:
        return f"{head}: removed {what}: deleted {path} (nothing else was in it)"
    if change.old is None:
        return f"{head}: created {path} with the {what}"
    verb = f"removed {what} from" if uninstall else f"added {what} to"
    return f"{head}: {verb} {path} (previous version kept in {change.backup})"


def hook_program() -> str:
    """`rtk` when the rtk on PATH is this one; else this one's absolute path; else `python -m rtk`."""
    mine = own_script()
    on_path = shutil.which("rtk")
    if on_path and mine and os.path.samefile(on_path, mine):
        return "rtk"
    if mine:
        return shlex.quote(mine)
    return f"{shlex.quote(sys.executable)} -m rtk"


def show(agents: tuple[str, ...], home: Path, cwd: Path, echo: Echo, warn: Echo) -> None:
    """One line per agent: where rtk's hook is installed; a warning when its program is gone."""
    for name in agents or tuple(AGENTS):
        agent = AGENTS[name]
        places = [agent.global_file(home)]
        if agent.local_path and cwd.resolve() != home.resolve():
            places.append(cwd / agent.local_path)
        found = [_show_place(agent, path, warn) for path in places]
        installed = [line for line in found if line]
        echo(f"{name}: " + ("; ".join(installed) if installed else f"not installed ({places[0]})"))


def _show_place(agent: Agent, path: Path, warn: Echo) -> str | None:
    try:
        commands = [h["command"] for h in hook_commands(parse_json(path, read_bytes(path)), agent)]
    except (InstallError, ShapeError) as exc:
        return f"cannot read {path} ({exc})"
    for command in commands:
        if not _program_exists(command):
            warn(f"rtk: warning: {path}: the hook runs `{command}`, which no longer exists; "
                 f"run `rtk init -g --agent {agent.name}` again")
    return f"installed in {path} ({', '.join(commands)})" if commands else None


def _program_exists(command: str) -> bool:
    words = shlex.split(command)
    program = words[0] if words else ""
    if os.sep in program:
        return os.path.isfile(program) and os.access(program, os.X_OK)
    return shutil.which(program) is not None
