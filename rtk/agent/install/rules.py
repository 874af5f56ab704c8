"""Instruction files, for the agents that have no hook rtk could use: a block of text the agent
reads, telling the model to run its commands as `rtk X` and how to get a condensed output back.
This is advice the model may ignore (`rtk init --show` says so), never a guarantee: nothing routes
a command through rtk but the model's own choice, and the host applies its own permission rules
to the `rtk X` the model typed.

A file the agent shares with the user (`.clinerules`, `AGENTS.md`, `QWEN.md`, ...) gets one block
between two marker lines, added once at the end; uninstall takes the block out and gives back the
user's bytes (the file goes when nothing else was in it). A file of rtk's own (a rules folder's
`rtk-rules.md`) is written whole and deleted on uninstall. The Rust rtk's instructions (its
`# RTK` file, or its `<!-- rtk-instructions -->` block) are recognised and replaced by ours, in place.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rtk.agent.install.files import Change, InstallError, decode_text, read_bytes

START = "<!-- rtk: written by `rtk init`; `rtk uninstall --agent {name}` removes this block -->"
END = "<!-- /rtk -->"
RUST_START, RUST_END = "<!-- rtk-instructions", "<!-- /rtk-instructions -->"
RUST_FILE = "# RTK\n\nPrefix every shell command with `rtk`"
TEXT = """# rtk

Run shell commands through rtk: `rtk git status`, `rtk cargo test`, `rtk npm run build`,
`rtk ls src/`; in a chain, each command: `rtk git add . && rtk git commit -m "msg"`. rtk runs
the command and prints a condensed form of its output (failures, errors with file:line, changed
files, one summary line); the exit code is the command's own. A command rtk has no filter for
runs as it is.

When rtk left something out, the output ends with `[full output: rtk recall ID]`: run
`rtk recall ID` for the whole output (`--grep PATTERN`, `--head N`, `--tail N`). To run a
command with no filtering at all: `rtk proxy COMMAND`.
"""


@dataclass(frozen=True)
class RulesAgent:
    """Where an agent reads instructions: the project's file and, if it has one, the global one
    (paths under the project or the home directory); `own`: the file is rtk's alone."""

    name: str
    local_path: str | None
    global_path: str | None
    own: bool = False
    label: str = ""

    def path(self, root: Path, global_: bool) -> Path:
        relative = self.global_path if global_ else self.local_path
        if relative is None:
            where = "global" if global_ else "project"
            raise InstallError(f"{self.label or self.name} has no {where} instruction file; use: rtk init "
                               f"{'' if global_ else '-g '}--agent {self.name}")
        return root / relative


AGENTS: dict[str, RulesAgent] = {agent.name: agent for agent in (
    RulesAgent("windsurf", ".windsurfrules", ".codeium/windsurf/memories/global_rules.md", label="Windsurf"),
    RulesAgent("kilocode", ".kilocode/rules/rtk-rules.md", ".kilocode/rules/rtk-rules.md", own=True,
               label="Kilo Code (VS Code)"),
    RulesAgent("kimi", "AGENTS.md", None, label="Kimi"),
    RulesAgent("qwen", "QWEN.md", ".qwen/QWEN.md", label="Qwen Code"),
    RulesAgent("crush", "CRUSH.md", None, label="Crush"),
    RulesAgent("amp", "AGENTS.md", ".config/amp/AGENTS.md", label="Amp"),
)}


def changes(name: str, root: Path, global_: bool, uninstall: bool, every_agent: bool = False) -> list[Change]:
    """The planned edit of the agent's instruction file (none for `rtk uninstall` of every agent
    where this agent has no file of that scope)."""
    agent = AGENTS[name]
    if every_agent and (agent.global_path if global_ else agent.local_path) is None:
        return []
    return [_change(name, agent.path(root, global_), uninstall, agent.own)]


def _change(name: str, path: Path, uninstall: bool, own: bool) -> Change:
    if path.is_dir():  # a rules folder (`.clinerules/`): a file of rtk's own in it
        path, own = path / "rtk.md", True
    own = own or path.name == "rtk.md"
    old = read_bytes(path)
    text = decode_text(path, old)
    new_text = without_block(text) if uninstall else with_block(text, name, own)
    new = None if not new_text.strip() else new_text.encode()
    if new_text == text:
        new = old
    what = "instructions (advice the model may ignore)"
    return Change(name, path, old, new, what, updated=not uninstall and bool(_block_span(text)))


def block(name: str) -> str:
    return f"{START.format(name=name)}\n{TEXT}{END}\n"


def with_block(text: str, name: str, own: bool) -> str:
    """The text with rtk's block: in place of an older one (ours or the Rust rtk's), else at the
    end after a blank line; a file of rtk's own is the block alone."""
    if own or text.startswith(RUST_FILE):
        return block(name)
    span = _block_span(text)
    if span:
        return text[:span[0]] + block(name) + text[span[1]:]
    if not text:
        return block(name)
    return text + "\n" + block(name)  # a blank line before it, or the newline the file lacked


def without_block(text: str) -> str:
    """The text without rtk's block (nor the newline rtk put before it): the user's bytes."""
    if text.startswith(RUST_FILE):
        return ""
    span = _block_span(text)
    if not span:
        return text
    before, after = text[:span[0]], text[span[1]:]
    if not after and before.endswith("\n"):
        before = before[:-1]  # the newline rtk put before its block
    return before + after


def _block_span(text: str) -> tuple[int, int] | None:
    """(start, end) of rtk's block, the Rust rtk's included, ending after its last line's newline."""
    for start_mark, end_mark in ((START.split("`")[0], END), (RUST_START, RUST_END)):
        start = text.find(start_mark)
        end = text.find(end_mark, start) if start >= 0 else -1
        if start >= 0 and end >= 0:
            stop = end + len(end_mark)
            return start, stop + 1 if text[stop:stop + 1] == "\n" else stop
    return None


def installed(name: str, root: Path, global_: bool) -> Path | None:
    """The agent's instruction file holding rtk's block, if any."""
    agent = AGENTS[name]
    try:
        path = agent.path(root, global_)
        if path.is_dir():
            path = path / "rtk.md"
        text = decode_text(path, read_bytes(path))
    except InstallError:
        return None
    return path if _block_span(text) or text.startswith(RUST_FILE) else None
