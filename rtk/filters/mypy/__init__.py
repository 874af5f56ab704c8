"""mypy: every error under its file with its line, code and whole message, notes under their error.

Keeps each `error`/`warning` as `L<line>[:<col>] [code] message` under one line per file, the
message joined back when `pretty = true` wrapped it, each `note:` under the error it belongs to
(a note repeated word for word across the run is printed once), `--show-error-context` lines in
their file's group, configuration and usage errors,
mypy's own summary line (`Found N errors in M files (checked K source files)`, `Success: ...`)
and one count by error code. Drops (recallable): `pretty`'s source lines and carets. Anything
else passes through.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "mypy",
    "mypy, dmypy run|check, python -m mypy",
    (Words(("mypy",)), Words(("dmypy",), ("run", "check"))),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.mypy.filter import MypyFilter

    return MypyFilter(ctx)
