"""The human-facing subcommands (click). Parses and dispatches; the logic lives in its modules."""
from __future__ import annotations

import click

from rtk import __version__

EPILOG = """\b
Examples:
  rtk git status                 # any command: the registry picks the filter
  rtk -v pytest -x               # say which filter serves it (stderr)
  rtk recall 3f9a2c              # what a filter left out, from its hint line
  rtk gain -d                    # tokens saved per day
\b
Exit codes: a wrapped command's own (128+N when it died of signal N; 127 not found,
126 not executable); 2 a usage error of rtk's own; 1 an rtk verb that failed (one
`rtk:` line); 3 a bug in rtk (one line; RTK_DEBUG=1 for the traceback)."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=EPILOG)
@click.version_option(__version__, "-V", "--version", prog_name="rtk", message="%(prog)s %(version)s")
def cli() -> None:
    """rtk runs a command and prints only what an AI coding agent needs to read.

    \b
    rtk [-v] CMD ARGS...             run CMD through the filter the registry picks
    rtk --no-tty|--no-progress CMD   at a terminal: keep pipes / no status line
    """


VERBS = (
    ("rtk.cli.hotpaths", "run_cmd"), ("rtk.cli.hotpaths", "proxy_cmd"), ("rtk.cli.hotpaths", "hook_cmd"),
    ("rtk.cli.hotpaths", "rewrite_cmd"),
    ("rtk.cli.pipe", "pipe"), ("rtk.cli.filters", "list_filters"), ("rtk.cli.recall", "recall_cmd"),
    ("rtk.cli.config", "config_cmd"), ("rtk.cli.gain", "gain"), ("rtk.cli.init", "init"),
    ("rtk.cli.uninstall", "uninstall"),
    ("rtk.cli.hook_audit", "hook_audit"), ("rtk.cli.discover", "discover"),
    ("rtk.cli.verify", "verify_cmd"), ("rtk.cli.trust", "trust_cmd"), ("rtk.cli.trust", "untrust_cmd"),
)


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
