"""`rtk init`: install rtk's hook into the agents' config files, or take it out again.

`edits` changes documents (pure), `files` reads, validates and writes them, `run` plans a whole
run and reports; `rtk/init_cli.py` is only the click front.
"""
from __future__ import annotations

from rtk.agent.install.edits import AGENTS
from rtk.agent.install.files import InstallError
from rtk.agent.install.run import Options, UsageError, hook_program, run_init, show

__all__ = ["AGENTS", "InstallError", "Options", "UsageError", "hook_program", "run_init", "show"]
