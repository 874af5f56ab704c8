"""One module per agent host (as pre-commit keeps one per language): its payload readers and
answer shapes for both paths, and its permission rule; `base` holds what they share."""
from __future__ import annotations

from rtk.agent.hosts import claude, cline, codex, copilot, cursor, droid, gemini, hermes, kilo, opencode, trae
from rtk.agent.hosts.base import EVERY, READERS, SKIP, Call, Finished, Host

__all__ = ["EVERY", "HOSTS", "READERS", "SKIP", "Call", "Finished", "Host"]

HOSTS: dict[str, Host] = {module.HOST.name: module.HOST
                          for module in (claude, cursor, gemini, codex, copilot, opencode, droid, kilo, trae, cline, hermes)}
