"""`run`, `proxy`, `hook` and `rewrite` as click commands: their help, completion and `rtk --help`.

The same verbs are dispatched by `rtk/__main__.py` without click, because they run before or
around every agent command; click sees them only for `--help` and shell completion, and then calls
the very same functions, so both paths behave alike.
"""
from __future__ import annotations

import sys

import click

PASS_THROUGH = {"ignore_unknown_options": True, "allow_interspersed_args": False,
                "help_option_names": ["-h", "--help"]}
RUN_EPILOG = """\b
Examples:
  rtk run -- git log -n 50
  rtk run --filter git -- ./scripts/my-git-wrapper log
\b
Exit codes: the command's own; 128+N when it died of signal N; 127 command not found;
126 not executable; 2 a usage error of rtk's own (no command, unknown filter)."""
PROXY_EPILOG = """\b
Example:
  rtk proxy cargo build      # raw bytes, counted in `rtk gain`
\b
Exit codes: the command's own; 127 command not found; 2 no command given."""
HOOK_EPILOG = """\b
Example (what a host runs before each shell command):
  echo '{"tool_name":"Bash","tool_input":{"command":"git status"}}' | rtk hook claude
\b
Exit codes: always 0 (a hook never blocks the agent; errors are one stderr line and
"no opinion"); 2 when no host is named."""
REWRITE_EPILOG = """\b
Examples:
  rtk rewrite "git status && cargo test"     # -> rtk git status && rtk cargo test
  rtk rewrite --explain "grep -rn x . | wc -l"
\b
Exit codes: 0 rewritten, allowed by the host's rules; 1 nothing to rewrite; 2 a deny rule
applies (print nothing); 3 rewritten, the host must ask first."""


@click.command(name="run", context_settings=PASS_THROUGH, epilog=RUN_EPILOG)
@click.option("-f", "--filter", "filter_name", metavar="NAME", help="the filter to use (see `rtk filters`)")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def run_cmd(filter_name: str | None, command: tuple[str, ...]) -> None:
    """Run COMMAND through a filter the registry picks, or the one --filter names."""
    from rtk.__main__ import main as dispatch

    sys.exit(dispatch(["run", *(["--filter", filter_name] if filter_name else []), "--", *command]))


@click.command(name="proxy", context_settings=PASS_THROUGH, epilog=PROXY_EPILOG)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def proxy_cmd(command: tuple[str, ...]) -> None:
    """Run COMMAND with no filter at all: its output byte for byte, still tracked."""
    from rtk.__main__ import main as dispatch

    sys.exit(dispatch(["proxy", *command]))


@click.command(name="hook", epilog=HOOK_EPILOG)
@click.argument("host", type=click.Choice(["claude", "cursor", "gemini", "codex", "copilot", "opencode", "droid",
                                           "trae", "kilo", "cline", "hermes", "check"]))
@click.argument("args", nargs=-1)
def hook_cmd(host: str, args: tuple[str, ...]) -> None:
    """Agent hook: the host's JSON payload on stdin, its answer on stdout."""
    from rtk.agent.hooks import main as hook_main

    sys.exit(hook_main([host, *args]))


@click.command(name="rewrite", context_settings=PASS_THROUGH, epilog=REWRITE_EPILOG)
@click.option("--explain", is_flag=True, help="print each reason and the verdict")
@click.option("--host", type=click.Choice(["claude", "cursor", "gemini", "codex", "copilot", "droid", "none"]),
              default="claude", show_default=True, help="whose permission rules apply")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def rewrite_cmd(explain: bool, host: str, command: tuple[str, ...]) -> None:
    """The rtk form of a command line (what the hooks use)."""
    from rtk.cli.rewrite import main as rewrite_main

    sys.exit(rewrite_main([*(["--explain"] if explain else []), "--host", host, "--", *command]))
