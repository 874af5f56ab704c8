"""Choose the `ruff check` or the `ruff format` filter from the argv."""
from __future__ import annotations

from rtk.filters.base import Filter, FilterContext

SUBCOMMANDS = frozenset({"check", "format"})


def subcommand(argv: tuple[str, ...]) -> str:
    return next((word for word in argv[1:] if word in SUBCOMMANDS), "check")


def create(ctx: FilterContext) -> Filter:
    if subcommand(ctx.argv) == "format":
        from rtk.filters.ruff.format import FormatFilter

        return FormatFilter(ctx)
    from rtk.filters.ruff.check import CheckFilter

    return CheckFilter(ctx)
