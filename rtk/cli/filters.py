"""`rtk filters [--explain "CMD LINE"]`: every filter, where it comes from and what it serves."""
from __future__ import annotations

import click

FILTERS_EPILOG = """\b
Examples:
  rtk filters
  rtk filters --explain "npx vitest run"
\b
Exit codes: 0; 2 usage error."""


@click.command(name="filters", epilog=FILTERS_EPILOG)
@click.option("--explain", "command", metavar="CMD", help="Say which filter would run CMD, and why.")
def list_filters(command: str | None) -> None:
    """List the filters (built-in, user, project) and the commands each serves."""
    if command is not None:
        from rtk.filters.declarative.report import explain

        for line in explain(command):
            click.echo(line)
        return
    from rtk.filters.declarative.report import untrusted_filters
    from rtk.filters.registry import REGISTRY

    rows = [(spec.name, spec.source, spec.serves) for spec in REGISTRY.values()]
    rows += [(name, f"({why}: see rtk trust)", serves) for name, why, serves in untrusted_filters()]
    width = max(len(name) for name, _, _ in rows)
    source_width = max(len(source) for _, source, _ in rows)
    for name, source, serves in rows:
        click.echo(f"{name:<{width}}  {source:<{source_width}}  {serves or 'any other command'}")
