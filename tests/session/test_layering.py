"""Session memory sits under the run, post and hook paths: it imports none of them, nor anything
heavy (the hook path loads it), and the hook's pre path loads only its identity module."""
from __future__ import annotations

import ast
import subprocess
import sys

from tests.test_layout import MODULES, imports_of

HEAVY = ("trio", "tiktoken", "sqlite3", "click", "subprocess")


def _external(name: str) -> set[str]:
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    found |= {node.module.split(".")[0] for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    return found


def test_session_imports_none_of_its_callers_and_nothing_heavy() -> None:
    for name in (n for n in MODULES if n.startswith("rtk.session")):
        callers = {m for m in imports_of(name) if m.startswith(("rtk.run", "rtk.agent", "rtk.cli", "rtk.track",
                                                                   "rtk.gain"))}
        assert not callers, (name, callers)
        assert not _external(name) & set(HEAVY), (name, _external(name) & set(HEAVY))


def test_the_pre_hook_loads_only_identity() -> None:
    code = ("import sys, rtk.paths; before = set(sys.modules); from rtk.session import identity; "
            "print(sorted(set(sys.modules) - before))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['rtk.session', 'rtk.session.identity', 'rtk.session.store']"
