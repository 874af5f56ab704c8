"""`rtk config` shows every `[limits]` key with its default (rtk/filters/limits.py): that table and
the `ctx.limit(key, default)` calls in the filters must say the same thing."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from rtk.filters import limits
from rtk.filters.budget import (
    CLAUDE_CODE_FAILING_LIMIT,
    CLAUDE_CODE_LIMIT,
    CODEX_LIMIT,
    failing_limit,
    host_limit,
)

RTK = Path(limits.__file__).resolve().parents[1]


def limit_calls() -> list[tuple[str, str, object]]:
    """(module, key, default) for every `X.limit("key", default)` in rtk; a default that is not a
    module-level value (a local variable) is None."""
    found = []
    for path in sorted(RTK.rglob("*.py")):
        module = ".".join(path.relative_to(RTK.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "limit"
                    and len(node.args) == 2 and isinstance(node.args[0], ast.Constant)):
                found.append((module, node.args[0].value, _value(module, node.args[1])))
    return found


def _value(module: str, node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except ValueError:
        pass
    try:
        return eval(compile(ast.Expression(node), module, "eval"), vars(importlib.import_module(module)))
    except NameError:
        return None


CALLS = limit_calls()


def test_the_filters_read_limits() -> None:
    assert len(CALLS) >= 30 and {key for _, key, _ in CALLS} >= {"grep_max_per_file", "git_log_max_commits"}


@pytest.mark.parametrize(("module", "key", "default"), CALLS, ids=[f"{m}:{k}" for m, k, _ in CALLS])
def test_every_limit_read_is_listed_with_its_default(module: str, key: str, default: object) -> None:
    if key in limits.INTERNAL:
        return
    assert key in limits.LIMITS, f"{module} reads [limits] {key}: add it to rtk/filters/limits.py"
    if default is not None:
        assert limits.LIMITS[key].default == default, f"{module} reads {key} with default {default}"


def test_every_listed_limit_is_read_somewhere() -> None:
    read = {key for _, key, _ in CALLS} | {"claude_code_max_chars", "codex_max_chars", "claude_code_failing_max_chars"}
    assert set(limits.LIMITS) <= read


def test_the_host_windows_are_the_ones_listed() -> None:
    assert host_limit({"CLAUDECODE": "1"}) == CLAUDE_CODE_LIMIT == limits.LIMITS["claude_code_max_chars"].default
    assert host_limit({"CODEX_THREAD_ID": "t"}) == CODEX_LIMIT == limits.LIMITS["codex_max_chars"].default
    assert host_limit({"CLAUDECODE": "1"}, {"claude_code_max_chars": 12_000}) == 12_000
    assert failing_limit({"CLAUDECODE": "1"}) == CLAUDE_CODE_FAILING_LIMIT
    assert limits.LIMITS["claude_code_failing_max_chars"].default == CLAUDE_CODE_FAILING_LIMIT
