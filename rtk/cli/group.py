"""The human-facing subcommands (click). Parses and dispatches; the logic lives in its modules."""
from __future__ import annotations

import sys

import click

from rtk import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="rtk", message="%(prog)s %(version)s")
def cli() -> None:
    """rtk runs a command and prints only what an AI coding agent needs to read.

    \b
    rtk CMD ARGS...                  run CMD through the filter the registry picks
    rtk run [--filter NAME] -- CMD   force a filter
    rtk proxy CMD ARGS...            run with no filter (raw, still counted)
    rtk hook claude|cursor|gemini|codex|copilot   agent hook (JSON on stdin)
    rtk rewrite "COMMAND LINE"       the rtk form of a command line
    """


VERBS = (("rtk.cli.pipe", "pipe"), ("rtk.cli.filters", "list_filters"), ("rtk.cli.recall", "recall_cmd"),
         ("rtk.cli.config", "config_cmd"), ("rtk.cli.gain", "gain"), ("rtk.cli.init", "init"))


def attach_verbs() -> None:
    """Each verb lives in its own module; the group only lists them."""
    import importlib

    for module_name, attr in VERBS:
        cli.add_command(getattr(importlib.import_module(module_name), attr))


def main(args: list[str]) -> int:
    """Run the click group; the exit code is what a command passed to `ctx.exit(n)` (click then
    returns it from `main` with standalone_mode=False), else 0."""
    attach_verbs()
    try:
        result = cli.main(args=args, prog_name="rtk", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        return 130
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) and not isinstance(result, bool) else 0
