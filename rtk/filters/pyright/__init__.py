"""pyright / basedpyright: diagnostics under their file without the path repeated on every line.

Keeps every error, warning and information as `L<line>:<col> <kind>: message (rule)` under the
file's line, the indented explanation lines under it, pyright's count line verbatim (`137
errors, 2551 warnings, 0 notes`) and one count by rule. Diagnostics of one file with the same
kind, message and explanation share a line listing their locations. `--outputjson` and
anything unrecognised pass through.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "pyright",
    "pyright, basedpyright (also npx pyright, python -m basedpyright)",
    (Words(("pyright", "basedpyright")),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.pyright.filter import PyrightFilter

    return PyrightFilter(ctx)
