"""`rtk filters`: the registered filters and the commands each serves."""
from __future__ import annotations

import click


@click.command(name="filters")
def list_filters() -> None:
    """List the registered filters and the commands each serves."""
    from rtk.filters.registry import REGISTRY

    width = max(len(name) for name in REGISTRY)
    for spec in REGISTRY.values():
        click.echo(f"{spec.name:<{width}}  {spec.serves}")
