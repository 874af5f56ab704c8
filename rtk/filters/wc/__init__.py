"""wc: every count and every path exactly, without the column padding; the total line kept.

`   1625 src/flask/app.py` becomes `1625 src/flask/app.py` (several counts stay in wc's order,
separated by one space). Three or more files in a row from one directory are listed under it
(`src/flask/ (24):`, then ` 1625 app.py`): every name stays under its directory, so repeated
basenames stay unambiguous.
Error lines (`wc: x: No such file or directory`) are kept verbatim. `--files0-from` and unknown
layouts pass through.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves("wc", "wc [-l|-w|-c|-m|-L] [files]", (Words(("wc",)),))


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.wc.filter import WcFilter

    return WcFilter(ctx)
