"""`rtk session [SESSION]`: the contexts session memory keeps, or one session's calls."""
from __future__ import annotations

import click

EPILOG = """\b
Examples:
  rtk session                 # every context: calls, answered from memory, chars spared
  rtk session 3f9a            # the calls of the sessions whose id starts with 3f9a
\b
Exit codes: 0; 1 no such session; 2 usage error."""


@click.command(name="session", epilog=EPILOG)
@click.argument("session_id", required=False)
def session_cmd(session_id: str | None) -> None:
    """What session memory remembers (docs/session.md): repeats, re-reads and deltas per context."""
    from rtk.session import listing

    lines = listing.calls(session_id) if session_id else listing.contexts()
    if not lines:
        if session_id:
            click.echo(f"rtk: no session {session_id} in session memory", err=True)
            raise click.exceptions.Exit(1)
        click.echo("rtk: session memory holds nothing yet (it serves Claude Code: rtk init installs its hooks)",
                   err=True)
        return
    click.echo("\n".join(lines))
