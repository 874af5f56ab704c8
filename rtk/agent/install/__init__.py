"""`rtk init`: install rtk's hooks into the agents' config files (a plugin file for OpenCode), or
take them out again.

`edits` changes hook documents (pure), `awareness` and `gemini` the other pure edits, `opencode`
the plugin file, `files` and `atomic` read, validate and write, `run` plans a whole run and
reports, `report` (--show) and `stale` say what is installed; `rtk/cli/init.py` is only the click front.
The names below load on first use: `rtk gain` imports `stale` alone, without the writers.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rtk.agent.install.edits import AGENTS
    from rtk.agent.install.files import InstallError
    from rtk.agent.install.report import ALL_AGENTS, show
    from rtk.agent.install.run import Options, UsageError, hook_program, run_init

_HOMES = {"AGENTS": "edits", "InstallError": "files", "Options": "run", "UsageError": "run",
          "hook_program": "run", "run_init": "run", "ALL_AGENTS": "report", "show": "report"}
__all__ = ["AGENTS", "ALL_AGENTS", "InstallError", "Options", "UsageError", "hook_program", "run_init", "show"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
