"""eslint: every problem as `line:col severity rule: message` grouped by file; totals and fixable counts.

What is kept and dropped is told in `filter.py`.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "eslint",
    "eslint [options] (stylish and unix formats, --fix)",
    (Words(("eslint",)),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.eslint.filter import create as build

    return build(ctx)
