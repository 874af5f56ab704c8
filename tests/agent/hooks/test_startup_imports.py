"""The hot paths (`rtk hook`, `rtk rewrite`) import no module the interpreter did not already load
that costs start-up time: `re` (with `enum`, `functools`), `json`, `typing`, `pathlib`,
`dataclasses`, `inspect`. Each is 3-8 ms before every agent command (issues 8 and 9)."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SLOW = frozenset({"re", "enum", "json", "typing", "pathlib", "dataclasses", "inspect", "urllib.parse",
                  "importlib.util", "contextlib"})
PROBE = """
import sys
before = set(sys.modules)
from rtk.__main__ import main
code = main({args!r})
print(repr([code, sorted(set(sys.modules) - before)]), file=sys.stderr)  # json would load re first
"""
PAYLOAD = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/",
                      "tool_input": {"command": "git status && cargo test", "timeout": 120000}})


def _loaded(args: list[str], stdin: str, tmp_path: Path, **env: str) -> tuple[int, set[str]]:
    baseline = subprocess.run([sys.executable, "-c", "import sys; print(repr(sorted(sys.modules)))"],
                              capture_output=True, text=True, check=True)
    environ = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
               "XDG_DATA_HOME": str(tmp_path / "d"), **env}
    environ.pop("RTK_HOOK_AUDIT", None)
    proc = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], input=stdin, capture_output=True,
                          text=True, env=environ, check=False)
    code, loaded = ast.literal_eval(proc.stderr.splitlines()[-1])
    return code, set(loaded) - set(ast.literal_eval(baseline.stdout))


@pytest.mark.parametrize("args, stdin, code", [
    (["rewrite", "git status && cargo test"], "", 3),
    (["rewrite", "ls | wc -l"], "", 1),
    (["hook", "claude"], PAYLOAD, 0),
    (["hook", "cursor"], PAYLOAD.replace('"Bash"', '"Shell"'), 0),
])
def test_hot_paths_skip_slow_stdlib_modules(args: list[str], stdin: str, code: int, tmp_path: Path) -> None:
    got, loaded = _loaded(args, stdin, tmp_path)
    assert got == code
    assert not loaded & SLOW, sorted(loaded & SLOW)
    assert "rtk.config" not in loaded  # no config file, no RTK_* switch: not even read


def test_settings_files_are_read_without_the_json_package(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(git status)", "Bash(cargo test:*)"],
                                                    "deny": ["Bash(git push:*)"]}}))
    got, loaded = _loaded(["rewrite", "git status && cargo test -q"], "", tmp_path)
    assert got == 0
    assert not loaded & SLOW, sorted(loaded & SLOW)


@pytest.mark.parametrize("args, stdin", [(["rewrite", "git status && cargo test"], ""), (["hook", "claude"], PAYLOAD)])
def test_hot_paths_read_filter_declarations_only(args: list[str], stdin: str, tmp_path: Path) -> None:
    """The registry imports each filter package's `__init__` (its declaration); never a module
    beside it (the filter itself), which may import re, dataclasses and the rest."""
    _, loaded = _loaded(args, stdin, tmp_path)
    shared = {"rtk.filters", "rtk.filters.registry", "rtk.filters.serves", "rtk.filters.launchers",
              "rtk.filters.program_index"}
    packages = {f"rtk.filters.{p.name}" for p in (Path(__file__).parents[3] / "rtk" / "filters").iterdir()
                if (p / "__init__.py").exists()}
    filter_modules = {m for m in loaded if m.startswith("rtk.filters")} - shared - packages
    assert not filter_modules, sorted(filter_modules)
    assert {"trio", "click", "tiktoken", "sqlite3"}.isdisjoint(loaded)
