"""make (and gmake, cmake --build, ninja, just): compiler diagnostics, failures, no command lines.

Keeps every `warning:`/`error:`/`note:` with its `file:line:col`, the `In function` context
lines, `make: *** [target] Error N` and ninja's `FAILED:` lines, make's own messages (`No rule to
make target`, `Nothing to be done`) and anything unrecognised. Drops (counted in one closing
line): compiler, archiver and linker command lines, cmake/ninja progress lines, `Entering/Leaving
directory`, and the source frame under each diagnostic (recallable).
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "make",
    "make, gmake, ninja, cmake --build, just",
    (Words(("make", "gmake")), Words(("ninja",)), Words(("cmake",), ("--build",), skip_options=False),
     Words(("just",))),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.make.filter import MakeFilter

    return MakeFilter(ctx)
