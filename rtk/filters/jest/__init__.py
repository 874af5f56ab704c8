"""jest: every failing test with its message, Expected/Received and user frame; one summary line.

What is kept and dropped is told in `filter.py`; the coverage table is reduced by node/coverage.py.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "jest",
    "jest [options] (also npx jest, npm test when the script runs jest)",
    (Words(("jest",)),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.jest.filter import create as build

    return build(ctx)
