"""The tree keeps its shape: one package per subsystem, few modules at the top, no import cycles.

Cycles are found from the source with `ast`, so function-level and TYPE_CHECKING imports count
as much as top-level ones: a cycle anywhere means two modules that should share a third.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

RTK = Path(__file__).resolve().parents[1] / "rtk"
SUBSYSTEMS = ("cli", "run", "filters", "shell", "agent", "session", "track", "gain")
MAX_TOP_MODULES = 8
MAX_LINES = 450


def module_name(path: Path) -> str:
    parts = list(path.relative_to(RTK.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in RTK.rglob("*.py")}


def resolve(name: str) -> str | None:
    """The rtk module an import names (`rtk.filters.base.Line` -> `rtk.filters.base`)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str) -> set[str]:
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(resolve(alias.name) for alias in node.names if alias.name.startswith("rtk"))
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base) if node.level else node.module or ""
            if module.startswith("rtk"):
                found.update(resolve(f"{module}.{alias.name}") if f"{module}.{alias.name}" in MODULES
                             else resolve(module) for alias in node.names)
    return {m for m in found if m and m != name}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycles() -> None:
    graph = {name: imports_of(name) for name in MODULES}
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_few_modules_at_the_top() -> None:
    top = sorted(p.name for p in RTK.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


@pytest.mark.parametrize("package", SUBSYSTEMS)
def test_each_subsystem_says_what_it_owns(package: str) -> None:
    init = RTK / package / "__init__.py"
    docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert docstring and len(docstring.split()) >= 20, f"{init}: a paragraph on what it owns and may import"


def test_no_module_is_too_long() -> None:
    long = {str(p.relative_to(RTK)): n for p in RTK.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, long


def test_every_filter_package_declares_what_it_serves() -> None:
    """The registry reads `SERVES` (or `dynamic_serves`) and builds with `create`: one shape for all."""
    for init in sorted((RTK / "filters").glob("*/__init__.py")):
        tree = ast.parse(init.read_text(encoding="utf-8"))
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        assert "create" in names and names & {"SERVES", "dynamic_serves"}, init
