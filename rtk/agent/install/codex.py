"""Codex's rtk-form twins of its allow rules. Codex picks the sandbox from its own `prefix_rule`s:
a rule allowing `pytest` runs it outside the read-only sandbox, but the hook's rewrite
`/path/to/rtk pytest` matches no rule and would run sandboxed (an allowed pytest then fails: "No
usable temporary directory"). The hook gives no answer where the verdicts differ; with these
twins, written by `rtk init --agent codex` into a file of rtk's own beside the user's rules, they
do not, and the rewrite goes through. The twins name rtk as a Codex rewrite does (its absolute
path: Codex runs commands in a login shell). `rtk init` again refreshes them; uninstall removes
the file."""
from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

from rtk.agent import program
from rtk.agent.rule_files import starlark_rules

TWINS_FILE = "rtk-twins.rules"
HEADER = ("# Written by `rtk init --agent codex`: the rtk form of each allow rule in the other files here\n"
          "# (rtk's hook rewrites X to `rtk X`, and Codex checks its rules on that). `rtk init` refreshes it.\n")


def twins_path(codex_home: Path) -> Path:
    return codex_home / "rules" / TWINS_FILE


def twins_text(codex_home: Path) -> str | None:
    """The twins file's text for the allow rules under `codex_home/rules`, None when there are none."""
    words = shlex.split(program.name(login_shell=True))
    patterns: list[list[str | list[str]]] = []
    for source in _rule_sources(codex_home / "rules"):
        for decision, _, positions in _rules_of(source):
            if decision == "allow" and not _is_rtk(positions):
                pattern: list[str | list[str]] = [*words, *(min(p) if len(p) == 1 else sorted(p) for p in positions)]
                if pattern not in patterns:
                    patterns.append(pattern)
    if not patterns:
        return None
    rules = "".join(f"prefix_rule(pattern={json.dumps(p)}, decision=\"allow\")\n" for p in patterns)
    return HEADER + rules


def _rules_of(source: str) -> list[tuple[str, str, tuple[frozenset[str], ...]]]:
    try:
        return list(starlark_rules(source))
    except ValueError:
        return []  # a malformed file: the hook skips it too (one warning there)


def _rule_sources(folder: Path) -> list[str]:
    sources = []
    for path in sorted(folder.glob("*.rules")) if folder.is_dir() else []:
        if path.name == TWINS_FILE:
            continue
        try:
            sources.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    return sources


def _is_rtk(positions: tuple[frozenset[str], ...]) -> bool:
    return bool(positions) and any(os.path.basename(word) == "rtk" for word in positions[0])
