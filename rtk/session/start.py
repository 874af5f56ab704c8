"""Whether a call gets session memory, and whose: the run path (`rtk X` under Claude Code) and
the post path (a hook payload) each ask here. On by default; `[session] memory = false` or
RTK_SESSION_MEMORY=0 turn it off. No memory for a command rtk does not filter, or when the
context cannot be told (identity.py)."""
from __future__ import annotations

import os

from rtk.session import identity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.config import Config
    from rtk.session.memory import Memory


def enabled(cfg: Config) -> bool:
    return bool(cfg.get("session", "memory"))


def for_run(argv: list[str], filter_name: str, cfg: Config) -> Memory | None:
    if filter_name == "passthrough" or not os.environ.get("CLAUDE_CODE_SESSION_ID") or not enabled(cfg):
        return None
    try:
        context = identity.from_run(argv, os.environ)
    except OSError:
        return None
    return _memory(context, argv, filter_name)


def for_post(context: identity.Context | None, argv: list[str], filter_name: str, cfg: Config) -> Memory | None:
    if context is None or filter_name == "passthrough" or not enabled(cfg):
        return None
    return _memory(context, argv, filter_name)


def _memory(context: identity.Context | None, argv: list[str], filter_name: str) -> Memory | None:
    if context is None:
        return None
    from rtk.session.memory import Memory

    return Memory(context, argv, filter_name)
