"""`rtk uninstall`: take rtk's hooks out of the agents' config files (the click front of
rtk/agent/install, like `rtk init --uninstall`)."""
from __future__ import annotations

import sys

import click

from rtk.agent.install import ALL_AGENTS, InstallError, Options, run_init


@click.command(name="uninstall", epilog="""\b
Examples:
  rtk uninstall -g                      # every agent rtk is installed for, your home directory
  rtk uninstall -g --agent cursor --agent gemini
  rtk uninstall -g --dry-run            # the diff of each file, nothing written
\b
Only rtk's entries go (upstream's legacy rtk-rewrite.sh hooks too, the script kept as .bak);
everything else in the files stays. Exit codes: 0 done; 1 a file could not be read or written;
2 usage error.""")
@click.option("-g", "--global", "global_", is_flag=True, help="your home directory (all projects)")
@click.option("--agent", "agents", multiple=True, type=click.Choice(list(ALL_AGENTS)),
              help="agent to unhook (repeatable; default: every agent rtk is installed for)")
@click.option("--dry-run", is_flag=True, help="print what would change (a diff per file), write nothing")
def uninstall(global_: bool, agents: tuple[str, ...], dry_run: bool) -> None:
    """Remove rtk's hook from an agent; everything else in its files stays."""
    try:
        chosen = tuple(dict.fromkeys(agents))
        run_init(Options(chosen or ALL_AGENTS, global_, True, dry_run, every_agent=not chosen), click.echo)
    except InstallError as exc:
        click.echo(f"rtk: {exc}", err=True)
        sys.exit(exc.exit_code)
