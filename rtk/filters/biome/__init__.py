"""biome: every diagnostic as `line:col severity rule: message` under its file; biome's totals on one line.

What is kept and dropped is told in `filter.py`.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "biome",
    "biome lint|check|format|ci",
    (Words(("biome",), ("lint", "check", "format", "ci")),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.biome.filter import create as build

    return build(ctx)
