"""`--stat` diffstats without their alignment: ` src/a.py      |  12 +++--` -> `src/a.py | 12 +++--`.

git pads every name and count into columns for a terminal; an agent reads each line on its own,
and the padding costs a token or more per line. The name (as git printed it, `.../x.py` when
git shortened it), the count and the +/- bar stay; any line that is not exactly a diffstat line
is left as it is. `git diff --stat` (alone or with other lists) goes through StatFilter; `git
log/show --stat` through the log filter, which uses `compact_stat` on its list lines.
"""
from __future__ import annotations

from rtk.filters.base import Line, Stream, strip_ansi
from rtk.filters.git.common import PassFilter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from rtk.filters.base import FilterContext

PATCH_START = "diff --"


def compact_stat(text: str) -> str | None:
    """The diffstat line without its padding, or None when `text` is not one."""
    if not text.startswith(" ") or "|" not in text:
        return None
    name, _, rest = text.rpartition("|")
    name, count = name.strip(), rest.strip()
    if not name or not _is_count(count):
        return None
    return f"{name} | {count}"


def _is_count(count: str) -> bool:
    """`12 +++--`, `0`, `Bin 0 -> 1204 bytes`, `Bin`."""
    if count.startswith("Bin"):
        return count == "Bin" or count.startswith("Bin ")
    number, _, bar = count.partition(" ")
    return number.isdigit() and set(bar) <= {"+", "-"}


class StatFilter(PassFilter):
    """`git diff --stat`: the diffstat lines compacted until a patch starts (`--stat -p`), then
    every line as git printed it."""

    def __init__(self, ctx: FilterContext | None = None) -> None:
        super().__init__(ctx)
        self.in_patch = False

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        if text.startswith(PATCH_START):
            self.in_patch = True
        compact = None if self.in_patch else compact_stat(text)
        return super().feed(line if compact is None else compact, stream)
