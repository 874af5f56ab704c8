"""pytest: each failure and error as soon as pytest has printed it, then one summary line.

What is kept and dropped is told in `filter.py`. `python -m pytest`, `uv run pytest` and the other
launchers are looked through by the registry (`rtk/filters/launchers.py`).
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "pytest",
    "pytest, py.test, python[3[.N]] -m pytest, uv run pytest, poetry run pytest, hatch run pytest",
    (Words(("pytest", "py.test")),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.pytest.filter import create as build

    return build(ctx)
