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


HELP_EPILOG = """\b
Examples:
  rtk help              # the verbs and the options for wrapped commands
  rtk help gain         # one verb's options, as `rtk gain --help`
\b
Exit codes: 0; 2 usage error."""


@click.command(name="help", epilog=HELP_EPILOG)
@click.argument("verb", required=False)
@click.pass_context
def help_cmd(ctx: click.Context, verb: str | None) -> None:
    """This help, or a verb's: `rtk help gain` is `rtk gain --help`."""
    group_ctx = ctx.parent or ctx
    if verb is None:
        click.echo(cli.get_help(group_ctx))
        return
    command = cli.get_command(group_ctx, verb)
    if command is None:
        click.echo(f"rtk {verb} ARGS... runs {verb} through the filter the registry picks "
                   f"(`rtk -v {verb} ...` names it, `rtk filters` lists them); `rtk help` lists rtk's verbs")
        return
    with click.Context(command, info_name=verb, parent=group_ctx) as verb_ctx:
        click.echo(command.get_help(verb_ctx))


VERBS = (
    ("rtk.cli.hotpaths", "run_cmd"), ("rtk.cli.hotpaths", "proxy_cmd"), ("rtk.cli.hotpaths", "hook_cmd"),
    ("rtk.cli.hotpaths", "rewrite_cmd"),
    ("rtk.cli.pipe", "pipe"), ("rtk.cli.filters", "list_filters"), ("rtk.cli.recall", "recall_cmd"),
    ("rtk.cli.config", "config_cmd"), ("rtk.cli.gain", "gain"), ("rtk.cli.init", "init"),
    ("rtk.cli.uninstall", "uninstall"),
    ("rtk.cli.hook_audit", "hook_audit"), ("rtk.cli.discover", "discover"),
    ("rtk.cli.verify", "verify_cmd"), ("rtk.cli.trust", "trust_cmd"), ("rtk.cli.trust", "untrust_cmd"),
    ("rtk.cli.session", "session_cmd"),
)


def attach_verbs() -> None:
    """Each verb lives in its own module; the group only lists them."""
    import importlib

    for module_name, attr in VERBS:
        cli.add_command(getattr(importlib.import_module(module_name), attr))
    cli.add_command(help_cmd)


def usage_line(exc: click.UsageError) -> str:
    """One `rtk:` line for a usage error (not click's four-line block): what is wrong and where to look."""
    path = exc.ctx.command_path if exc.ctx is not None else "rtk"
    message = " ".join(exc.format_message().split()).rstrip(".")
    where = f"{path} --help" if path != "rtk" else "rtk help"
    verb = path.split(" ", 1)[1] if " " in path else ""
    return f"rtk: {verb + ': ' if verb else ''}{message[:1].lower() + message[1:]} (see {where})"


def failure_line(exc: click.ClickException, args: list[str]) -> str:
    """One `rtk: VERB: ...` line for a verb that failed (click's own would say `Error: ...`)."""
    verb = args[0] if args and cli.get_command(click.Context(cli), args[0]) is not None else ""
    return f"rtk: {verb + ': ' if verb else ''}{' '.join(exc.format_message().split())}"


def main(args: list[str]) -> int:
    """Run the click group; the exit code is what a command passed to `ctx.exit(n)` (click then
    returns it from `main` with standalone_mode=False), else 0."""
    attach_verbs()
    try:
        result = cli.main(args=args, prog_name="rtk", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        return 130
    except click.UsageError as exc:
        click.echo(usage_line(exc), err=True)
        return 2
    except click.ClickException as exc:
        click.echo(failure_line(exc, args), err=True)
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) and not isinstance(result, bool) else 0
