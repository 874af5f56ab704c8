"""`rtk trust [--yes] [--list]` and `rtk untrust`: which project filter files may apply.

A project's `.rtk/filters.toml` (and `.rtk/filters/*.toml`) decides what an agent sees of
commands run in that repository, and comes with the repository; so it applies only once the user
has looked at it and trusted its exact content (sha256, recorded in the data dir).
"""
from __future__ import annotations

import sys

import click


def _project() -> tuple[str, list[str]]:
    from rtk.filters import declarative

    root = declarative.project_root()
    files = declarative.project_files(root)
    if root is None or not files:
        raise click.ClickException("no project filters here (.rtk/filters.toml or .rtk/filters/*.toml "
                                   "in this directory or a parent)")
    return root, files


TRUST_EPILOG = """\b
Examples:
  rtk trust            # review and trust this project's .rtk/filters.toml
  rtk trust --yes      # in scripts
  rtk trust --list
\b
Exit codes: 0; 1 nothing to trust or not confirmed (one line); 2 usage error."""


@click.command(name="trust", epilog=TRUST_EPILOG)
@click.option("--yes", "-y", is_flag=True, help="Trust without asking (for scripts).")
@click.option("--list", "listing", is_flag=True, help="List the trusted filter files.")
def trust_cmd(yes: bool, listing: bool) -> None:
    """Review and trust this project's filter files (.rtk/filters.toml, .rtk/filters/*.toml)."""
    from rtk.filters.declarative import trust
    from rtk.filters.declarative.catalog import read_bytes
    from rtk.filters.declarative.report import describe_file

    if listing:
        store = trust.load_store()
        if not store:
            click.echo("no trusted filter files")
        for path in sorted(store):
            click.echo(f"{trust.status(path, read_bytes(path), store):<9}  {path}")
        return
    root, files = _project()
    for path in files:
        click.echo(f"{path} ({trust.status(path, read_bytes(path))})")
        for line in describe_file(path):
            click.echo(line)
    if not yes:
        if not sys.stdin.isatty():
            raise click.ClickException("not a terminal: pass --yes to trust these files")
        if not click.confirm(f"Trust {len(files)} file(s) in {root}/.rtk?", default=False):
            raise click.ClickException("not trusted")
    recorded = trust.trust(files)
    click.echo(f"trusted {len(recorded)} file(s); their filters now apply in {root}")


UNTRUST_EPILOG = """\b
Example:
  rtk untrust          # this project's filters stop applying
\b
Exit codes: 0; 2 usage error."""


@click.command(name="untrust", epilog=UNTRUST_EPILOG)
def untrust_cmd() -> None:
    """Stop applying this project's filter files."""
    from rtk.filters import declarative
    from rtk.filters.declarative import trust

    root = declarative.project_root()
    if root is None:  # nothing can apply here, so nothing is left to stop: done, as `rm -f` would be
        click.echo("nothing to untrust: no .rtk directory here or in a parent")
        return
    gone = trust.untrust(root)
    click.echo(f"untrusted {len(gone)} file(s) in {root}/.rtk" if gone else "nothing was trusted here")
