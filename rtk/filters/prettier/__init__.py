"""prettier: the files that need formatting (or were written), errors with locations, one summary line.

What is kept and dropped is told in `filter.py`.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "prettier",
    "prettier --check|--write|--list-different",
    (Words(("prettier",)),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.prettier.filter import create as build

    return build(ctx)
