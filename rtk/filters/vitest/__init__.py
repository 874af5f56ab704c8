"""vitest: every failing test as `file > describe > test` with its message, diff and user frame; one summary line.

What is kept and dropped is told in `filter.py`; the coverage table is reduced by node/coverage.py.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "vitest",
    "vitest [run] [options] (also npx/pnpm exec/bunx vitest, npm test when the script runs vitest)",
    (Words(("vitest",)),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.vitest.filter import create as build

    return build(ctx)
