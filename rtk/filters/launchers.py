"""Launchers the registry looks through, so a filter declares only its own tool's words.

`npx tsc`, `pnpm exec vitest`, `uv run pytest`, `python3 -m mypy` run the same tool and print the
same output as `tsc`, `vitest`, `pytest`, `mypy`: the registry tries the peeled argv first, then
the argv as typed (`python script.py` is a shape of its own). Standard library only: this runs on
the hook path.
"""
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

# launcher -> options of the launcher that take a value (stepped over before the tool's name)
NPX_LIKE = {"npx": frozenset({"-p", "--package", "-c", "--call"}), "bunx": frozenset({"-p", "--package"}),
            "pnpx": frozenset({"-p", "--package"})}
JS_MANAGERS = frozenset({"npm", "pnpm", "yarn", "bun"})
JS_EXEC = frozenset({"exec", "dlx", "x"})
PY_RUNNERS = frozenset({"uv", "poetry", "hatch", "pdm", "pipenv"})
PY_RUN_OPTS = frozenset({"--with", "--python", "-p", "--env", "-e", "--project", "--directory",
                         "--package", "--extra", "--group", "--env-file", "--from"})
PY_INTERPRETER_OPTS = frozenset({"-X", "-W", "-c", "-Q"})
MAX_DEPTH = 4


def candidates(words: Sequence[str]) -> list[list[str]]:
    """The argv to match, most peeled first, the argv as typed last."""
    found = [list(words)]
    while len(found) <= MAX_DEPTH and (inner := peel(found[-1])) is not None:
        found.append(inner)
    return found[::-1]


def peel(words: Sequence[str]) -> list[str] | None:
    """The tool's argv inside one launcher, or None when `words` is not a launcher call."""
    if not words:
        return None
    name = os.path.basename(words[0])
    if name in NPX_LIKE:
        return _after_options(words, 1, NPX_LIKE[name])
    if name in JS_MANAGERS and words[1:2] and words[1] in JS_EXEC:
        return _after_options(words, 2, frozenset({"-p", "--package", "-c"}))
    if name in PY_RUNNERS and words[1:2] == ["run"]:
        return _after_options(words, 2, PY_RUN_OPTS)
    if is_python(name):
        return _python_module(words)
    return None


def _after_options(words: Sequence[str], start: int, with_value: frozenset[str]) -> list[str] | None:
    i = start
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        i += 2 if words[i] in with_value else 1
    if words[i:i + 1] == ["--"]:
        i += 1
    return list(words[i:]) or None


def is_python(name: str) -> bool:
    """`python`, `python3`, `python3.12` (the regex `python(\\d+(\\.\\d+)?)?`)."""
    if not name.startswith("python"):
        return False
    version = name[len("python"):]
    major, dot, minor = version.partition(".")
    return not version or (major.isdecimal() and (not dot or minor.isdecimal()))


def _python_module(words: Sequence[str]) -> list[str] | None:
    """`python [opts] -m MODULE ARGS` -> `MODULE ARGS`, stepping over interpreter options."""
    i = 1
    while i < len(words) and words[i].startswith("-"):
        if words[i] == "-m":
            return list(words[i + 1:]) or None
        if words[i].startswith("-m"):
            return [words[i][2:], *words[i + 1:]]
        i += 2 if words[i] in PY_INTERPRETER_OPTS else 1
    return None
