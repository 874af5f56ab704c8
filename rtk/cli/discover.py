"""`rtk discover`: the commands an agent ran without rtk, their output tokens, and what rtk saves."""
from __future__ import annotations

import json
import os
import sys

import click

from rtk.gain import discover as found
from rtk.gain import transcripts

EPILOG = """\b
Examples:
  rtk discover                    # this project, the last 30 days
  rtk discover --all --since 7d --format json
  rtk discover -p myrepo
\b
Reads Claude Code's session transcripts ($CLAUDE_CONFIG_DIR or ~/.claude, projects/*/*.jsonl).
Exit codes: 0 (also when there are no transcripts: one line says so); 2 usage error."""


@click.command(name="discover", epilog=EPILOG)
@click.option("-s", "--since", "since", metavar="7d|12h|2w|N|DATE", default="30d", show_default=True,
              help="sessions since then, as in rtk gain (a bare N is days; 0 = all)")
@click.option("-p", "--project", help="only commands run in a directory whose path contains this")
@click.option("-a", "--all", "all_projects", is_flag=True, help="every project (default: this one)")
@click.option("-l", "--limit", type=click.IntRange(min=1), default=15, show_default=True,
              help="commands listed per section")
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def discover(since: str, project: str | None, all_projects: bool, limit: int, fmt: str) -> None:
    """Top commands the agent ran raw: call counts, output tokens, and what routing would save."""
    try:
        window = found.parse_window(since)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--since") from None
    root = transcripts.claude_projects_dir()
    try:
        files = transcripts.session_files(root)
    except OSError as exc:
        click.echo(f"rtk: no Claude Code transcripts readable at {root} ({exc.strerror or exc})", err=True)
        return
    scope = project if project or all_projects else _this_project()
    calls = [c for path in files for c in _calls(path) if found.in_scope(c, window, scope)]
    if not calls:
        click.echo(f"rtk: no shell commands in the transcripts at {root} for this scope", err=True)
        return
    from rtk.track.tokens import count_text

    data = found.discover(calls, count_text, filtered_output).as_dict(limit)
    if fmt == "json":
        click.echo(json.dumps({"source": root, "since_days": window.days, "project": scope, **data}, indent=2))
    else:
        click.echo(found.render_text(data, root, window), nl=False)


def _this_project() -> str:
    from rtk.track.history import project_root

    return project_root(os.getcwd())


def _calls(path: str) -> list[transcripts.ShellCall]:
    try:
        return list(transcripts.read_session(path))
    except OSError as exc:
        print(f"rtk: skipped {path} ({exc.strerror or exc})", file=sys.stderr)
        return []


def filtered_output(command: str, output: str, failed: bool) -> str:
    """What rtk would have printed for this output: the filter the runner would pick, in process,
    with nothing written to the recall store."""
    from rtk import config
    from rtk.filters.base import FilterContext, Stream
    from rtk.filters.registry import load
    from rtk.run.pipeline import OutputPipeline, Writer
    from rtk.run.replay import PipeError, pick_filter

    try:
        name, argv = pick_filter(None, command)
    except PipeError:
        return output
    if name == "passthrough":
        return output
    printed: list[bytes] = []
    writer = Writer(printed.append)
    writer.broken = {1, 2}
    cfg = config.load(report=False)
    pipeline = OutputPipeline(load(name, FilterContext(tuple(argv), True, cfg.limits)), writer, None,
                              filter_name=name, command=command, hold_seconds=None)
    pipeline.feed(output.encode("utf-8", "replace"), Stream.STDOUT)
    pipeline.finish(1 if failed else 0)
    return b"".join(printed).decode("utf-8", "replace")
