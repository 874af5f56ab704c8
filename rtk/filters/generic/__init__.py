"""generic: the fallback for any command no other filter serves; keeps every line but noise.

It matches no argv of its own: the registry gives it what nothing else claims.
"""
from __future__ import annotations

from rtk.filters.serves import Serves

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves("generic", "any other command", (), priority=1000)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.generic.filter import create as build

    return build(ctx)
