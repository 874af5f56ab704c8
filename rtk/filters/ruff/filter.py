"""Choose the `ruff check` or the `ruff format` filter from the argv (`check --diff` prints diffs like format)."""
from __future__ import annotations

from rtk.filters.base import Filter, FilterContext

SUBCOMMANDS = frozenset({"check", "format"})


def subcommand(argv: tuple[str, ...]) -> str:
    return next((word for word in argv[1:] if word in SUBCOMMANDS), "check")


def create(ctx: FilterContext) -> Filter:
    command = subcommand(ctx.argv)
    if command == "format" or "--diff" in ctx.argv:
        from rtk.filters.ruff.format import FormatFilter

        return FormatFilter(ctx) if command == "format" else FormatFilter(ctx, heading="would fix:")
    from rtk.filters.ruff.check import CheckFilter

    return CheckFilter(ctx)
