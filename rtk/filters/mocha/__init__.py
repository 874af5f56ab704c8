"""mocha: each failure with its title path, message, diff and user frames; one summary line.

What is kept and dropped is told in `filter.py`.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "mocha",
    "mocha [options] (spec, dot, tap reporters)",
    (Words(("mocha", "_mocha")),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.mocha.filter import create as build

    return build(ctx)
