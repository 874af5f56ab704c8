"""`rtk pipe`: filter stdin as the runner would filter a command's output (replays fixtures)."""
from __future__ import annotations

import click

PIPE_EPILOG = """\b
Examples:
  rtk pipe --cmd "git log -n 50" < log.txt
  rtk pipe -f pytest --exit-code 1 < pytest-output.txt
\b
Exit codes: 0; 2 usage error (no filter chosen, unknown filter, unparsable --cmd)."""


@click.command(name="pipe", epilog=PIPE_EPILOG)
@click.option("-f", "--filter", "filter_name", help="filter to apply, by name (see `rtk filters`)")
@click.option("--cmd", "command_line", help="choose the filter as the runner would for this command line")
@click.option("--exit-code", default=0, type=int, show_default=True, help="the command's exit code")
def pipe(filter_name: str | None, command_line: str | None, exit_code: int) -> None:
    """Filter stdin as if it were the output of a command (replays fixtures)."""
    from rtk.run.replay import PipeError, run_pipe

    try:
        run_pipe(filter_name, command_line, exit_code)
    except PipeError as exc:
        raise click.UsageError(str(exc)) from None
