"""`rtk hook-audit [--since N]`: a summary of the hooks' decisions from the audit log."""
from __future__ import annotations

import json
import sys

import click

from rtk.agent import audit_report

EPILOG = """\b
Examples:
  RTK_HOOK_AUDIT=1 claude ...     # (or [hooks] audit = true in config.toml) to record decisions
  rtk hook-audit                  # the last 7 days
  rtk hook-audit --since 0 --format json
\b
Exit codes: 0 (also when there is no log yet: one line says how to start one); 2 usage error."""


@click.command(name="hook-audit", epilog=EPILOG)
@click.option("-s", "--since", "since_days", type=click.IntRange(min=0), default=7, show_default=True,
              help="entries from the last N days (0 = all time)")
@click.option("-f", "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("-n", "top", type=click.IntRange(min=1), default=10, show_default=True,
              help="how many commands each top list names")
def hook_audit(since_days: int, fmt: str, top: int) -> None:
    """Decisions per action, the commands most often rewritten and most often left alone."""
    path = audit_report.log_path()
    try:
        entries = audit_report.read_entries(path, since_days)
    except FileNotFoundError:
        click.echo(f"rtk: no hook audit log at {path} (turn auditing on with RTK_HOOK_AUDIT=1 "
                   "or [hooks] audit = true)", err=True)
        return
    except OSError as exc:
        click.echo(f"rtk: cannot read {path} ({exc.strerror or exc})", err=True)
        sys.exit(1)
    summary = audit_report.summarize(entries, top)
    if fmt == "json":
        click.echo(json.dumps({"log": path, "since_days": since_days, **summary}, indent=2))
    else:
        click.echo(audit_report.render_text(summary, path, since_days), nl=False)
