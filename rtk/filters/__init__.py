"""The registry: which filter serves an argv. The single source of truth for runner and rewrite.

It only looks at words, imports no filter module and nothing outside the standard library, so the
hook path can ask it before every agent command. A filter module is imported only when a command
is actually run (`load`).
"""
from __future__ import annotations

import os

TYPE_CHECKING = False  # no `typing` or `re` at run time: the hook path consults this table
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Self

    from rtk.filters.base import Filter, FilterContext


class FilterSpec(tuple[str, str, str]):
    """A registered filter: the module that builds it and the commands it serves (for `rtk filters`).

    A plain tuple subclass (as a NamedTuple would be, without importing `typing`)."""

    __slots__ = ()

    def __new__(cls, name: str, module: str, serves: str) -> Self:
        return tuple.__new__(cls, (name, module, serves))

    @property
    def name(self) -> str:
        return self[0]

    @property
    def module(self) -> str:
        return self[1]

    @property
    def serves(self) -> str:
        return self[2]

    def __repr__(self) -> str:
        return f"FilterSpec(name={self[0]!r}, module={self[1]!r}, serves={self[2]!r})"


REGISTRY: dict[str, FilterSpec] = {
    "pytest": FilterSpec(
        "pytest", "rtk.filters.pytest",
        "pytest, py.test, python[3[.N]] -m pytest, uv run pytest, poetry run pytest, hatch run pytest",
    ),
    "cargo": FilterSpec(
        "cargo", "rtk.filters.cargo",
        "cargo [+toolchain] build|check|clippy|test|run|nextest run",
    ),
    "git": FilterSpec(
        "git", "rtk.filters.git",
        "git [global options] status|log|diff|show|add|commit|push|pull|fetch|checkout|switch"
        "|branch|stash|merge|rebase",
    ),
    "tsc": FilterSpec(
        "tsc", "rtk.filters.tsc",
        "tsc, npx tsc, pnpm [exec|dlx] tsc, npm exec tsc, yarn tsc, bunx tsc, node_modules/.bin/tsc, "
        "npm|pnpm|yarn run tsc|typecheck|type-check|check-types",
    ),
    "generic": FilterSpec("generic", "rtk.filters.generic", "any other command"),
}

GIT_SUBCOMMANDS = frozenset({"status", "log", "diff", "show", "add", "commit", "push", "pull", "fetch",
                             "checkout", "switch", "branch", "stash", "merge", "rebase"})
# Served when run through rtk, but never rewritten by a hook: they may open an editor or a
# conflict session the agent has to see exactly (spec/rewrite.md: `git rebase main` -> exit 1).
GIT_NOT_REWRITTEN = frozenset({"rebase"})
GIT_OPTS_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                                 "--super-prefix", "--config-env", "--exec-path", "--list-cmds"})
CARGO_SUBCOMMANDS = frozenset({"build", "b", "check", "c", "clippy", "test", "t", "run", "r"})
CARGO_OPTS_WITH_VALUE = frozenset({"--color", "-Z", "--config", "-C", "--explain"})
TSC_SCRIPTS = frozenset({"tsc", "typecheck", "type-check", "check-types"})
PY_RUNNERS = {"uv": "run", "poetry": "run", "hatch": "run", "pdm": "run", "pipenv": "run"}


class Match(tuple[str, bool]):
    """The registry's verdict on an argv: which filter, and whether a hook may route it there."""

    __slots__ = ()

    def __new__(cls, filter: str, rewrite: bool = True) -> Self:
        return tuple.__new__(cls, (filter, rewrite))

    @property
    def filter(self) -> str:
        return self[0]

    @property
    def rewrite(self) -> bool:
        return self[1]

    def __repr__(self) -> str:
        return f"Match(filter={self[0]!r}, rewrite={self[1]!r})"


def _basename(word: str) -> str:
    return os.path.basename(word)


def _skip_options(words: Sequence[str], start: int, with_value: frozenset[str]) -> int:
    """Index of the first non-option word from `start`, stepping over `--opt value` pairs."""
    i = start
    while i < len(words) and words[i].startswith("-") and words[i] != "-":
        if words[i] in with_value:
            i += 1
        i += 1
    return i


def _is_python(name: str) -> bool:
    """`python`, `python3`, `python3.12` (the regex `python(\\d+(\\.\\d+)?)?`)."""
    if not name.startswith("python"):
        return False
    version = name[len("python"):]
    major, dot, minor = version.partition(".")
    return not version or (major.isdecimal() and (not dot or minor.isdecimal()))


def _match_pytest(words: Sequence[str]) -> bool:
    name = _basename(words[0])
    if name in ("pytest", "py.test"):
        return True
    if _is_python(name):
        return _python_module(words[1:]) == "pytest"
    if PY_RUNNERS.get(name) == (words[1] if len(words) > 1 else None):
        rest = list(words[_skip_options(words, 2, frozenset({"--with", "--python", "-p", "--env", "-e"})):])
        return bool(rest) and _match_pytest(rest)
    return False


def _python_module(args: Sequence[str]) -> str | None:
    """The module a `python ... -m MODULE` invocation runs, stepping over interpreter options."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "-m":
            return args[i + 1] if i + 1 < len(args) else None
        if args[i].startswith("-m"):
            return args[i][2:]
        i += 2 if args[i] in ("-X", "-W", "-c") else 1
    return None


def _match_git(words: Sequence[str]) -> Match | None:
    if _basename(words[0]) != "git":
        return None
    i = _skip_options(words, 1, GIT_OPTS_WITH_VALUE)
    sub = words[i] if i < len(words) else ""
    if sub in GIT_SUBCOMMANDS:
        return Match("git", rewrite=sub not in GIT_NOT_REWRITTEN)
    return None


def _match_cargo(words: Sequence[str]) -> bool:
    if _basename(words[0]) != "cargo":
        return False
    i = 1
    if i < len(words) and words[i].startswith("+"):
        i += 1
    i = _skip_options(words, i, CARGO_OPTS_WITH_VALUE)
    sub = words[i] if i < len(words) else ""
    if sub == "nextest":
        return words[i + 1:i + 2] == ["run"] or words[i + 1:i + 2] == ["r"]
    return sub in CARGO_SUBCOMMANDS


def _match_tsc(words: Sequence[str]) -> bool:
    name = _basename(words[0])
    rest = list(words[1:])
    if name == "tsc":
        return True
    if name in ("npx", "bunx", "pnpx"):
        i = _skip_options(rest, 0, frozenset({"-p", "--package"}))
        return rest[i:i + 1] == ["tsc"]
    if name in ("pnpm", "npm", "yarn", "bun"):
        if rest[:1] in (["exec"], ["dlx"], ["x"]):
            i = _skip_options(rest, 1, frozenset())
            return rest[i:i + 1] == ["tsc"] or rest[i:i + 2] == ["--", "tsc"]
        if rest[:1] in (["run"], ["run-script"]):
            return rest[1:2] != [] and rest[1] in TSC_SCRIPTS
        return name != "npm" and rest[:1] != [] and rest[0] in TSC_SCRIPTS
    return False


def classify(argv: Sequence[str]) -> Match | None:
    """The dedicated filter serving `argv`, or None when only the generic filter applies."""
    words = list(argv)
    if not words or not words[0]:
        return None
    if _match_pytest(words):
        return Match("pytest")
    if (git := _match_git(words)) is not None:
        return git
    if _match_cargo(words):
        return Match("cargo")
    if _match_tsc(words):
        return Match("tsc")
    return None


def filter_name_for(argv: Sequence[str]) -> str:
    match = classify(argv)
    return match.filter if match else "generic"


def load(name: str, ctx: FilterContext) -> Filter:
    """Build the named filter; a module that is missing or broken gives the generic filter."""
    import importlib

    spec = REGISTRY.get(name) or REGISTRY["generic"]
    try:
        module = importlib.import_module(spec.module)
    except ImportError:
        module = importlib.import_module(REGISTRY["generic"].module)
    return module.create(ctx)
