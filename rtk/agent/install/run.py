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
from dataclasses import dataclass, replace
from pathlib import Path

from rtk.agent.install import cline_hook, hermes, opencode, rules
from rtk.agent.install.atomic import remove_stale_temps
from rtk.agent.install.awareness import IMPORT_LINE, RTK_MD, RTK_MD_OWNED, add_import, remove_import
from rtk.agent.install.edits import (
    AGENTS,
    Agent,
    ShapeError,
    add_hook,
    legacy_scripts,
    nothing_left,
    remove_hook,
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
from rtk.agent.install.gemini import add_twins, remove_twins
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
    every_agent: bool = False  # `rtk uninstall` with no --agent: wherever rtk is; report only changes


CODEX_TRUST = ("codex: Codex runs only hooks you have trusted: open Codex and approve rtk's hook once "
               "with /hooks")


def run_init(opts: Options, echo: Echo) -> None:
    """Install or uninstall; raises InstallError (exit 1) or UsageError (exit 2) before any write."""
    root = _root(opts)
    program = opts.program or hook_program()
    changes = _changes(opts, root, program, echo)
    if opts.dry_run:
        echo("dry run: nothing written")
        for change in changes:
            echo(unified_diff(change).rstrip("\n") if change.changed else _message(change, opts.uninstall))
        return
    for change in changes:
        if change.changed:
            check_writable(change)
    _clean_leftovers(changes, echo)
    if not opts.uninstall and opts.program is None and any(name in AGENTS for name in opts.agents):
        echo(program_note(program))
    for change in changes:
        if change.changed:
            _apply(change, root)
        echo(_message(change, opts.uninstall))
    if not opts.uninstall:
        _afterwords(changes, echo)
    elif not opts.global_ and not any(change.changed for change in changes):
        _mention_global(opts, program, echo)


def _mention_global(opts: Options, program: str, echo: Echo) -> None:
    """`rtk uninstall` in a project found nothing: say so when the install is in the home directory."""
    home_opts = replace(opts, global_=True)
    root = _root(home_opts)
    try:
        found = [name for name in opts.agents
                 if any(change.changed for change in _plan(name, root, home_opts, program))]
    except (InstallError, OSError):  # a file it cannot read: nothing to say here
        return
    if found:
        echo(f"rtk is installed in your home directory for {', '.join(found)}: `rtk uninstall -g"
             f"{''.join(f' --agent {name}' for name in found) if not opts.every_agent else ''}` removes it")


def _changes(opts: Options, root: Path, program: str, echo: Echo) -> list[Change]:
    """Every file of every chosen agent, planned (so validated); for `rtk uninstall` with no agent
    named, only the ones that change (the global-only agents skipped without -g)."""
    agents = [name for name in opts.agents if opts.global_ or not opts.every_agent or _has_local(name)]
    changes = [change for name in agents for change in _plan(name, root, opts, program)]
    if not opts.every_agent:
        return changes
    changes = [change for change in changes if change.changed]
    if not changes:
        where = "in your home directory" if opts.global_ else f"in {root}"
        echo(f"rtk is installed for no agent {where}; nothing to remove")
    return changes


def _afterwords(changes: list[Change], echo: Echo) -> None:
    """What an install leaves to the user: Codex's trust step, the Rust rtk's OpenCode plugin."""
    if any(change.agent == "codex" and change.changed for change in changes):
        echo(CODEX_TRUST)
    if any(change.agent == hermes.NAME and change.changed for change in changes):
        echo(hermes.ENABLE)
    for change in changes:
        if change.agent == "opencode" and (upstream := opencode.upstream_plugin(change.path)):
            echo(f"opencode: the Rust rtk's plugin {upstream} is installed too: it rewrites commands before "
                 "they run; rtk leaves it alone (remove it to have OpenCode use this rtk alone)")


def _clean_leftovers(changes: list[Change], echo: Echo) -> None:
    """The temporary files killed runs left beside the files of this run."""
    for change in changes:
        target = Path(os.path.realpath(change.path))
        for left in [*remove_stale_temps(target), *remove_stale_temps(change.backup)]:
            echo(f"{change.agent}: removed {left} (a temporary file an interrupted rtk init left)")


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
    only_global = [name for name in opts.agents if not _has_local(name)]
    if only_global and not opts.every_agent:
        name = only_global[0]
        raise UsageError(f"{name.capitalize()} hooks are global-only. Use: rtk init -g --agent {name}")
    return opts.cwd or Path.cwd()


def _has_local(name: str) -> bool:
    if name in (cline_hook.NAME, hermes.NAME):
        return False
    return name not in AGENTS or AGENTS[name].local_path is not None


def _plan(name: str, root: Path, opts: Options, program: str) -> list[Change]:
    if name in opencode.LOCAL_PATHS:
        path = opencode.global_file(root, name) if opts.global_ else root / opencode.LOCAL_PATHS[name]
        return [_plugin_change(path, opts, name)]
    if name in rules.AGENTS:
        return rules.changes(name, root, opts.global_, opts.uninstall, opts.every_agent)
    if name in (cline_hook.NAME, hermes.NAME):
        words = shlex.split(opts.program) if opts.program else absolute_program()
        if name == hermes.NAME:
            return hermes.changes(root, opts.uninstall, words)
        return [cline_hook.change(root, opts.uninstall, words)]
    return plan(AGENTS[name], root, opts, program)


def _plugin_change(path: Path, opts: Options, app: str = "opencode") -> Change:
    """OpenCode's plugin file: written whole, replaced when it differs, deleted on uninstall; a
    file of that name rtk did not write stops the run."""
    old = read_bytes(path)
    if old is not None and not opencode.is_ours(old):
        if opts.uninstall:
            return Change(app, path, old, old, "rtk plugin (this file was not written by rtk)")
        raise InstallError(f"{path}: exists and was not written by rtk; move it away to install rtk's "
                           "plugin; nothing written")
    if opts.uninstall:
        return Change(app, path, old, None, "rtk plugin")
    program = shlex.split(opts.program) if opts.program else absolute_program()
    return Change(app, path, old, opencode.plugin_source(program, app),
                  f"plugin running `{shlex.join([*program, 'hook', app])}` after each bash command",
                  updated=old is not None)


def absolute_program() -> list[str]:
    """This rtk by absolute path: OpenCode's PATH may find another rtk, or none."""
    mine = own_script()
    return [os.path.abspath(mine)] if mine else [sys.executable, "-m", "rtk"]


def plan(agent: Agent, root: Path, opts: Options, program: str) -> list[Change]:
    if opts.global_:
        path = agent.global_file(root)
    else:
        assert agent.local_path is not None
        path = root / agent.local_path
    changes = _hook_changes(agent, path, f"{program} hook {agent.name}", opts.uninstall)
    if agent.name == "claude":
        changes += _awareness_changes(path.parent, opts.uninstall)
    if agent.name == "codex":
        changes += _codex_twin_changes(path.parent, opts.uninstall)
    return changes


def _codex_twin_changes(codex_home: Path, uninstall: bool) -> list[Change]:
    """rtk's own rules file beside the user's: the rtk form of each of their allow rules."""
    from rtk.agent.install.codex import twins_path, twins_text

    path = twins_path(codex_home)
    old = read_bytes(path)
    text = None if uninstall else twins_text(codex_home)
    new = text.encode("utf-8") if text is not None else None
    if old is None and new is None:
        return []
    count = text.count("prefix_rule(") if text else 0
    what = (f"{count} rtk-form twin{'s' if count != 1 else ''} of your Codex allow rules "
            "(Codex checks its rules on the rewritten command)") if count else "rtk's Codex rule twins"
    return [Change("codex", path, old, new, what)]


def _hook_changes(agent: Agent, path: Path, command: str, uninstall: bool) -> list[Change]:
    """The hook file's change, then upstream's legacy scripts (the ones it points at, and the
    agent's usual place for them: removed, kept as `.bak`)."""
    old = read_bytes(path)
    doc = parse_json(path, old)
    try:
        scripts = _legacy_script_changes(agent, path, [*legacy_scripts(doc, agent), *agent.legacy_files])
        if uninstall:
            outcome = "removed" if remove_hook(doc, agent) else "absent"
        else:
            outcome = add_hook(doc, agent, command)
        twins = (remove_twins(doc) if uninstall else add_twins(doc)) if agent.name == "gemini" else 0
    except ShapeError as exc:
        raise InstallError(f"{path}: {exc}; nothing written") from None
    what = "rtk hook" if uninstall else f"hook `{command}` ({', '.join(agent.events)})"
    if twins:
        what += f" and {twins} rtk-form twin{'s' if twins > 1 else ''} of tools.allowed rules " \
                "(Gemini checks its policy on the rewritten command)"
    if outcome in ("absent", "present") and not twins:
        return [Change(agent.name, path, old, old, what), *scripts]
    new = None if uninstall and nothing_left(doc, agent) else dump_json(doc)
    return [Change(agent.name, path, old, new, what, updated=outcome == "updated"), *scripts]


def _legacy_script_changes(agent: Agent, config: Path, scripts: list[str]) -> list[Change]:
    changes: list[Change] = []
    for written in dict.fromkeys(scripts):
        script = Path(os.path.expandvars(os.path.expanduser(written)))
        if not script.is_absolute():
            script = config.parent / script
        if any(os.path.realpath(c.path) == os.path.realpath(script) for c in changes):
            continue
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
    if old_rtk is not None and RTK_MD_OWNED not in decode_text(rtk_md, old_rtk):
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
    verb = f"removed {what} from" if uninstall else f"updated rtk's {what} in" if change.updated \
        else f"added {what} to"
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
