"""Which filter serves a script's command line, and which tool's output a line starts.

`vitest run --coverage` -> vitest; `cross-env TZ=UTC jest` -> jest; `tsc -b && vite build` ->
tsc then jsbuild; `node --test` -> node; an unknown tool -> generic. The same words decide for
the banner line a package manager prints before a script (`> vitest run`, `$ eslint .`), so a
replayed log without its package.json is still routed.
"""
from __future__ import annotations

import os
import re
import shlex

TOOLS = {
    "vitest": "vitest", "jest": "jest", "mocha": "mocha", "_mocha": "mocha", "eslint": "eslint",
    "prettier": "prettier", "biome": "biome", "tsc": "tsc", "vue-tsc": "tsc", "tsup": "jsbuild",
    "unbuild": "jsbuild", "rollup": "jsbuild", "webpack": "jsbuild", "webpack-cli": "jsbuild",
    "node": "node", "nodejs": "node",
}
BUILD_ONLY = {"next": "jsbuild", "vite": "jsbuild"}  # `next build`, `vite build`; not their dev servers
MANAGERS = frozenset({"npm", "pnpm", "yarn", "bun"})
LAUNCHERS = frozenset({"npx", "bunx", "pnpx", "cross-env", "env", "dotenv", "dotenvx", "nyc", "c8",
                       "time", "nice"})
MANAGER_EXEC = frozenset({"exec", "dlx", "x"})
CHAIN = re.compile(r"\s*(?:&&|\|\||;|\|)\s*")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")

# A line that shows which tool's output begins (a chain's next command, or a log replayed
# without its package.json).
STARTS = (
    (re.compile(r"^\s*RUN\s+v\d+\.\d+"), "vitest"),
    (re.compile(r"^(?:PASS|FAIL) \S"), "jest"),
    (re.compile(r"^Checking formatting\.\.\.\s*$"), "prettier"),
    (re.compile(r"^\S.*\(\d+,\d+\): error TS\d+:|^\S.*:\d+:\d+ - error TS\d+:"), "tsc"),
    (re.compile(r"^vite v\d\S* building|^▲ Next\.js|^CLI Building entry|^ℹ Building \S|"
                r"^webpack [\d.]+ compiled|^\S.* → \S.*\.\.\.$"), "jsbuild"),
    (re.compile(r"^\S+:\d+:\d+ lint/\S+|^\S+ format ━━"), "biome"),
)


def filters_for(command: str) -> list[str]:
    """The filter for each command of a chain (`a && b`), in order; "" where one is not known."""
    return [name for name, _ in commands_for(command)]


def commands_for(command: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each command of a chain with its filter and its words (the argv its filter is built with)."""
    return [(tool_filter(part), tuple(_words(part))) for part in CHAIN.split(command.strip()) if part.strip()]


def tool_filter(command: str) -> str:
    """The filter for one command (its program after env assignments and launchers)."""
    words = _words(command)
    while words and (ASSIGNMENT.match(words[0]) or os.path.basename(words[0]) in LAUNCHERS):
        words = _after_launcher(words)
    if not words:
        return ""
    program = os.path.basename(words[0])
    if program in MANAGERS:
        return _manager_command(words)
    if program in BUILD_ONLY:
        return BUILD_ONLY[program] if "build" in words[1:2] else "generic"
    if program in ("node", "nodejs"):
        return _node_program(words)
    return TOOLS.get(program, "generic")


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _after_launcher(words: list[str]) -> list[str]:
    if ASSIGNMENT.match(words[0]):
        return words[1:]
    rest = words[1:]
    while rest and (rest[0].startswith("-") or ASSIGNMENT.match(rest[0])):
        rest = rest[1:]  # `cross-env NODE_ENV=test jest`, `npx --yes vitest`, `dotenv -- jest`
    return rest


def _manager_command(words: list[str]) -> str:
    """`npm run build` and `pnpm lint` are scripts (resolved by the caller): "npm"."""
    if len(words) > 1 and words[1] in MANAGER_EXEC:
        return tool_filter(shlex.join(words[2:]))
    return "npm"


def _node_program(words: list[str]) -> str:
    """`node node_modules/jest/bin/jest.js` is jest; `node script.js` is node."""
    for word in words[1:]:
        if word.startswith("-"):
            continue
        parts = word.replace("\\", "/").split("/")
        for tool, name in TOOLS.items():
            if tool in parts or os.path.basename(word) == tool:
                return name if name != "node" else "node"
        return "node"
    return "node"


def output_starts(text: str) -> str | None:
    """The tool whose output `text` (ANSI-free) begins, or None."""
    for pattern, name in STARTS:
        if pattern.search(text):
            return name
    return None
