"""ruff: `ruff check` findings grouped by file and `ruff format` as a list of files.

Keeps every finding as `L<line>:<col> CODE message` under its file (all output formats: full,
concise, grouped, the older `path:line:col: CODE` one), the marked source line of a full-format
code frame and its `help:` line, ruff's own summary lines verbatim (`Found N errors (M fixed, K
remaining).`, `[*] N fixable ...`, `All checks passed!`, `--statistics` rows), every `warning:`,
and one closing count by rule. `ruff format --check`/`--diff`: every file that would change and
ruff's count line; syntax errors with their location. Drops (recallable): code frames, fix
suggestions, diffs. What it does not recognise passes through.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "ruff",
    "ruff check|format [options] (also python -m ruff, uv run ruff)",
    (Words(("ruff",), ("check", "format")),),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.ruff.filter import create as build

    return build(ctx)
