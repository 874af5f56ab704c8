"""tsc (the TypeScript compiler): every diagnostic with file, line, column, code and message.

What is kept and dropped is told in `filter.py`. `npx tsc`, `pnpm exec tsc` and the other
launchers are looked through by the registry; the `typecheck`-style scripts are matched here.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SCRIPTS = ("tsc", "typecheck", "type-check", "check-types")

SERVES = Serves(
    "tsc",
    "tsc (vue-tsc, tsgo), npx tsc, pnpm [exec|dlx] tsc, npm exec tsc, yarn tsc, bunx tsc, node_modules/.bin/tsc, "
    "npm|pnpm|yarn run tsc|typecheck|type-check|check-types",
    (
        Words(("tsc", "vue-tsc", "tsgo")),  # vue-tsc and TypeScript 7's tsgo print tsc's diagnostics
        Words(("npm", "pnpm", "yarn", "bun"), ("run", "run-script"), SCRIPTS, skip_options=False),
        Words(("pnpm", "yarn", "bun"), SCRIPTS, skip_options=False),
    ),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.tsc.filter import create as build

    return build(ctx)
