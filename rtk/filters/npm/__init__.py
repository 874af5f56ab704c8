"""npm, pnpm, yarn, bun: installs summarised; scripts (`npm test`) served by the filter of what they run.

What is kept and dropped is told in `filter.py` (scripts) and `pm.py` (installs); `scripts.py`
reads package.json, `route.py` maps a command line to a filter. Tried after the tool filters'
own shapes (priority 200), so `npm run typecheck` stays with tsc.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

INSTALL = ("install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall",
           "add", "ci", "clean-install", "ic", "install-clean", "uninstall", "un", "remove", "rm", "r",
           "update", "up", "upgrade", "prune", "dedupe")
RUN = ("run", "run-script", "rum", "urn", "test", "t", "tst", "start", "restart", "stop")
# `pnpm build`, `yarn lint`: the script names and tool names people run without `run`
SCRIPTS = ("build", "lint", "test", "format", "fmt", "check", "coverage", "e2e", "ci", "verify",
           "lint:fix", "test:unit", "test:e2e", "test:ci", "test:coverage", "vitest", "jest", "mocha",
           "eslint", "prettier", "biome", "next", "vite", "tsup", "rollup", "webpack", "unbuild")
OPTIONS_WITH_VALUE = ("--prefix", "-C", "--dir", "--cwd", "-w", "--workspace", "--filter", "-F",
                      "--loglevel", "--registry")

SERVES = Serves(
    "npm",
    "npm|pnpm|yarn|bun install|ci|add|remove|update; npm test|run X, pnpm X, yarn X, bun run X "
    "(the script's tools get their own filters)",
    (
        Words(("npm",), INSTALL + RUN, options_with_value=OPTIONS_WITH_VALUE),
        Words(("pnpm",), INSTALL + RUN + SCRIPTS, options_with_value=OPTIONS_WITH_VALUE),
        Words(("yarn",), INSTALL + RUN + SCRIPTS + ("workspace",), options_with_value=OPTIONS_WITH_VALUE),
        Words(("bun",), INSTALL + ("run",), options_with_value=OPTIONS_WITH_VALUE),
    ),
    priority=200,
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.npm.filter import create as build

    return build(ctx)
