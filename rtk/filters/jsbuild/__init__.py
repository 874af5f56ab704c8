"""jsbuild: JS bundler builds; warnings and errors in full, the size table reduced to totals and the largest.

What is kept and dropped is told in `filter.py`; the size table is read by `sizes.py`.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "jsbuild",
    "next build, vite build, tsup, unbuild, rollup, webpack",
    (Words(("next",), ("build",)), Words(("vite",), ("build",)), Words(("tsup", "unbuild", "rollup", "webpack", "webpack-cli")),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.jsbuild.filter import create as build

    return build(ctx)
