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


@cli.command()
@click.option("-f", "--filter", "filter_name", help="filter to apply, by name (see `rtk filters`)")
@click.option("--cmd", "command_line", help="choose the filter as the runner would for this command line")
@click.option("--exit-code", default=0, type=int, show_default=True, help="the command's exit code")
def pipe(filter_name: str | None, command_line: str | None, exit_code: int) -> None:
    """Filter stdin as if it were the output of a command (replays fixtures)."""
    from rtk.pipe import PipeError, run_pipe

    try:
        run_pipe(filter_name, command_line, exit_code)
    except PipeError as exc:
        raise click.UsageError(str(exc)) from None


@cli.command(name="filters")
def list_filters() -> None:
    """List the registered filters and the commands each serves."""
    from rtk.filters import REGISTRY

    width = max(len(name) for name in REGISTRY)
    for spec in REGISTRY.values():
        click.echo(f"{spec.name:<{width}}  {spec.serves}")


@cli.command()
@click.argument("entry_id", required=False)
@click.option("--grep", "pattern", help="only lines matching this regular expression")
@click.option("--head", type=int, help="only the first N lines")
@click.option("--tail", type=int, help="only the last N lines")
@click.option("--list", "list_entries", is_flag=True, help="list stored entries")
def recall(entry_id: str | None, pattern: str | None, head: int | None, tail: int | None,
           list_entries: bool) -> None:
    """Print the full raw output of an earlier run (the id from its hint line)."""
    from rtk.recall_cli import RecallCliError, run_recall

    try:
        run_recall(entry_id, pattern, head, tail, list_entries)
    except RecallCliError as exc:
        click.echo(f"rtk: {exc}", err=True)
        sys.exit(1)


@cli.command(name="config")
@click.option("--path", "show_path", is_flag=True, help="print the config file path")
@click.option("--init", "init_file", is_flag=True, help="write a commented default config file")
def config_cmd(show_path: bool, init_file: bool) -> None:
    """Print the effective configuration and where each value came from."""
    from rtk.config_cli import ConfigCliError, run_config

    try:
        click.echo(run_config(show_path, init_file), nl=False)
    except ConfigCliError as exc:
        click.echo(f"rtk: {exc}", err=True)
        sys.exit(1)


def register_optional_commands() -> None:
    """gain and init live in their own modules (other issues); attach them when present."""
    for module_name, attr in (("rtk.gain_cli", "gain"), ("rtk.init_cli", "init")):
        try:
            module = __import__(module_name, fromlist=[attr])
        except ImportError:
            continue
        cli.add_command(getattr(module, attr))


def main(args: list[str]) -> int:
    """Run the click group; the exit code is what a command passed to `ctx.exit(n)` (click then
    returns it from `main` with standalone_mode=False), else 0."""
    register_optional_commands()
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
