"""node: a script's output as printed, with the frames inside node itself and node_modules dropped.

What is kept and dropped is told in `filter.py`. The package also holds the helpers every JS
test-runner filter shares: `frames` (which stack frames are the user's), `failure` (one failure's
body, capped) and `coverage` (the istanbul text table reduced).
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "node",
    "node script.js (failures: message, user frames)",
    (Words(("node", "nodejs")),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.node.filter import create as build

    return build(ctx)
