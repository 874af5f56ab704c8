"""Gemini's rtk-form twins of allow rules: Gemini checks its policy on the rewritten command, so
without `run_shell_command(rtk P)` beside `run_shell_command(P)` an allowed command would turn
into a denied one once rewritten."""
from __future__ import annotations

from typing import Any

JsonObject = dict[str, Any]
GEMINI_SHELL = "run_shell_command("


def gemini_twins(doc: JsonObject) -> list[str]:
    """The `run_shell_command(rtk P)` twin of each `run_shell_command(P)` in tools.allowed that
    lacks one."""
    allowed = _allowed(doc)
    twins = []
    for entry in allowed:
        if isinstance(entry, str) and entry.startswith(GEMINI_SHELL) and entry.endswith(")"):
            inner = entry[len(GEMINI_SHELL):-1].strip()
            twin = f"{GEMINI_SHELL}rtk {inner})"
            if inner and not inner.startswith("rtk") and twin not in allowed and twin not in twins:
                twins.append(twin)
    return twins


def add_twins(doc: JsonObject) -> int:
    twins = gemini_twins(doc)
    if twins:
        _allowed(doc).extend(twins)
    return len(twins)


def remove_twins(doc: JsonObject) -> int:
    """Take out the twins rtk adds (an rtk-form rule whose plain form is also allowed)."""
    allowed = _allowed(doc)
    plain = {e for e in allowed if isinstance(e, str) and not e.startswith(GEMINI_SHELL + "rtk ")}
    ours = [e for e in allowed if isinstance(e, str) and e.startswith(GEMINI_SHELL + "rtk ")
            and GEMINI_SHELL + e[len(GEMINI_SHELL) + 4:] in plain]
    for entry in ours:
        allowed.remove(entry)
    return len(ours)


def _allowed(doc: JsonObject) -> list[Any]:
    tools = doc.get("tools")
    allowed = tools.get("allowed") if isinstance(tools, dict) else None
    return allowed if isinstance(allowed, list) else []
