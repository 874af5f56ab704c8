"""Installs an older rtk made that the current rtk no longer serves fully: Claude's pre hook
without the PostToolUse one (the commands that read are then never compressed), Copilot's pre hook
(Copilot takes the post path only now). `rtk init --show` and `rtk gain` say so, so an upgrade never
loses its compression silently. Cheap on purpose (`rtk gain` calls it): json and the pure edits,
no click, nothing written.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rtk.agent.install.edits import AGENTS, Agent, ShapeError, missing_events

WATCHED = ("claude", "copilot")
LABELS = {"claude": "Claude Code", "copilot": "Copilot"}
LOST = {"claude": "`git status`, `ls`, `cat` and the other commands that read are not compressed",
        "copilot": "no command is compressed"}
# Claude's hooks of session memory (rtk/session/): what an install without them misses
SESSION_LOST = {"PostToolUse": "re-reads with the Read tool are shown in full",
                "PreCompact": "session memory learns of a compaction from the transcript alone",
                "SessionStart": "session memory learns of /clear and resume from the transcript alone",
                "Interrupt": "session memory does not see a rewind"}


@dataclass(frozen=True)
class Stale:
    agent: str
    path: Path
    missing: tuple[str, ...]
    global_: bool
    path_has_post: bool = False  # Claude's PostToolUse hook is there, for Bash alone (before session memory)

    def rerun(self) -> str:
        """The command that upgrades this install."""
        return " ".join(["rtk init", *(["-g"] if self.global_ else []),
                         *([] if self.agent == "claude" else ["--agent", self.agent])])

    def line(self) -> str:
        return (f"rtk's {LABELS[self.agent]} hook in {self.path} was installed by an older rtk (no "
                f"{', '.join(self.missing)} hook): {self.lost()}; run `{self.rerun()}` again")

    def lost(self) -> str:
        """What the missing hooks cost: the post path itself, or (an install made before session
        memory, whose PostToolUse hook serves Bash alone) what session memory needs."""
        if self.agent == "claude" and self.path_has_post:
            return "; ".join(dict.fromkeys(SESSION_LOST[e] for e in self.missing if e in SESSION_LOST))
        return LOST[self.agent]


def stale_installs(home: Path | None = None, cwd: Path | None = None) -> list[Stale]:
    home, cwd = home or Path.home(), cwd or Path.cwd()
    found = []
    for name in WATCHED:
        agent = AGENTS[name]
        for path, global_ in _places(agent, home, cwd):
            if missing := _missing(agent, path):
                found.append(Stale(name, path, tuple(missing), global_, _has_post(agent, path)))
    return found


def install_note(home: Path | None = None, cwd: Path | None = None) -> str | None:
    """The one line `rtk gain` prints when an install needs `rtk init` again, else None."""
    try:
        stale = stale_installs(home, cwd)
    except (OSError, RuntimeError):  # RuntimeError: no home directory
        return None
    if not stale:
        return None
    more = f" (and {len(stale) - 1} more: rtk init --show)" if len(stale) > 1 else ""
    return stale[0].line() + more


def _missing(agent: Agent, path: Path) -> list[str]:
    try:
        return missing_events(_document(path), agent)
    except ShapeError:
        return []


def _has_post(agent: Agent, path: Path) -> bool:
    from rtk.agent.install.edits import _rtk_hooks

    try:
        return bool(_rtk_hooks(_document(path), agent, "PostToolUse"))
    except ShapeError:
        return False


def _places(agent: Agent, home: Path, cwd: Path) -> list[tuple[Path, bool]]:
    places = [(agent.global_file(home), True)]
    if agent.local_path and cwd.resolve() != home.resolve():
        places.append((cwd / agent.local_path, False))
    return places


def _document(path: Path) -> dict[str, Any]:
    """The parsed file, {} when it is missing or unreadable (show and init report those)."""
    try:
        doc = json.loads(path.read_bytes().decode("utf-8-sig") or "{}")
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}
