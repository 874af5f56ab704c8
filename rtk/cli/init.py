"""`rtk init`: the click front of rtk/install (options in, messages out, nothing else)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from rtk.agent.install import ALL_AGENTS, InstallError, Options, run_init, show


@click.command(name="init", epilog="""\b
Examples:
  rtk init -g                      # Claude Code, for every project
  rtk init -g --cursor --codex     # more agents (same as --agent cursor --agent codex)
  rtk init -g --agent opencode     # OpenCode: a plugin in ~/.config/opencode/plugins/
  rtk init -g --agent droid        # Factory Droid (also: trae, cline, kilo)
  rtk init --agent qwen            # an instruction file (QWEN.md): advice the model may ignore
  rtk init --show                  # what is installed where
  rtk init -g --uninstall --dry-run
\b
Exit codes: 0 done; 1 a settings file could not be read or written (one line says which);
2 usage error.""")
@click.option("-g", "--global", "global_", is_flag=True, help="install in your home directory (all projects)")
@click.option("--agent", "agents", multiple=True, type=click.Choice(list(ALL_AGENTS)),
              help="agent to hook (repeatable; default claude)")
@click.option("--claude", "shortcuts", flag_value="claude", multiple=True, help="same as --agent claude")
@click.option("--cursor", "shortcuts", flag_value="cursor", multiple=True, help="same as --agent cursor")
@click.option("--codex", "shortcuts", flag_value="codex", multiple=True, help="same as --agent codex")
@click.option("--gemini", "shortcuts", flag_value="gemini", multiple=True, help="same as --agent gemini")
@click.option("--copilot", "shortcuts", flag_value="copilot", multiple=True, help="same as --agent copilot")
@click.option("--opencode", "shortcuts", flag_value="opencode", multiple=True, help="same as --agent opencode")
@click.option("--uninstall", is_flag=True, help="take rtk's hook out again, keep everything else")
@click.option("--dry-run", is_flag=True, help="print what would change (a diff per file), write nothing")
@click.option("--show", "show_only", is_flag=True, help="what is installed where, one line per agent")
def init(global_: bool, agents: tuple[str, ...], shortcuts: tuple[str, ...], uninstall: bool, dry_run: bool,
         show_only: bool) -> None:
    """Hook rtk into an agent: its shell commands then run through rtk."""
    agents = tuple(dict.fromkeys((*agents, *(s for s in shortcuts if s))))
    if show_only:
        if uninstall or dry_run:
            raise click.UsageError("--show cannot be combined with --uninstall or --dry-run")
        show(agents, Path.home(), Path.cwd(), click.echo, lambda line: click.echo(line, err=True))
        return
    options = Options(agents or ("claude",), global_, uninstall, dry_run)
    try:
        run_init(options, click.echo)
    except InstallError as exc:
        click.echo(f"rtk: {exc}", err=True)
        sys.exit(exc.exit_code)  # rtk.cli.group.main drops the code of click's own ctx.exit
