"""cargo build|check|clippy|test|run|nextest run: diagnostics, failing tests and one summary.

What is kept and dropped is told in `filter.py`; the parsing lives in the modules beside it.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

OPTS_WITH_VALUE = ("--color", "-Z", "--config", "-C", "--explain")
SUBCOMMANDS = ("build", "b", "check", "c", "clippy", "test", "t", "run", "r")

SERVES = Serves(
    "cargo",
    "cargo [+toolchain] build|check|clippy|test|run|nextest run",
    (
        Words(("cargo",), SUBCOMMANDS, options_with_value=OPTS_WITH_VALUE, option_prefixes=("-", "+")),
        Words(("cargo",), ("nextest",), ("run", "r"), options_with_value=OPTS_WITH_VALUE,
              option_prefixes=("-", "+")),
    ),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.cargo.filter import create as build

    return build(ctx)
