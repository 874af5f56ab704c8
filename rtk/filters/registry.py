"""The registry: which filter serves an argv, collected from what each filter package declares.

Every subpackage of `rtk/filters/` that defines `SERVES` (one `Serves` or a tuple of them) is a
filter; one that defines `dynamic_serves()` adds shapes known only at run time (the declarative
engine's TOML filters). Adding a filter never edits this module. The runner, `rtk pipe`, the
rewrite engine and the fixture tests all ask it, so "which commands does rtk improve" has one
answer. It imports only the packages' `__init__` modules (data, standard library only), never a
filter's implementation, so the hook path can ask it before every agent command; a filter's
module is imported by `load` when a command actually runs.
"""
from __future__ import annotations

import os
import sys

from rtk.filters import launchers, program_index
from rtk.filters.serves import Match, Serves

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterator, Sequence
    from typing import Any

    from rtk.filters.base import Filter, FilterContext
    from rtk.filters.program_index import ProgramIndex

__all__ = ["REGISTRY", "Match", "Serves", "all_serves", "classify", "filter_name_for", "load", "lookup"]

FALLBACK = "generic"
SOURCE_RANK = {"project": 0, "user": 1, "built-in": 2}
_FILTERS_DIR = os.path.dirname(os.path.abspath(__file__))
_packages: list[str] = []
_declarations: dict[str, list[Serves]] = {}  # package -> its SERVES, imported once
_index: list[ProgramIndex] = []
_init_stats: dict[str, tuple[int, int]] = {}  # package -> its __init__.py's (mtime_ns, size)
# all_serves() for one set of packages and the dynamic declarations it was made from (held, so
# they stay the same objects while their files are unchanged)
_merged: list[tuple[tuple[str, ...], list[Sequence[Serves]], list[Serves]]] = []
# name -> the Serves that classify() just chose under it: `load` of that name right after (the
# run path: classify before the spawn, load after it) takes it instead of merging every
# declaration again, the user's and project's filter files stat-ed once more (~0.8 ms)
_chosen: dict[str, Serves] = {}


def _package_names() -> list[str]:
    if not _packages:
        for entry in os.scandir(_FILTERS_DIR):
            if entry.is_dir() and not entry.name.startswith(("_", ".")):
                try:  # one stat: that it is a package, and the program index's stamp of it
                    info = os.stat(os.path.join(entry.path, "__init__.py"))
                except OSError:
                    continue
                _packages.append(entry.name)
                _init_stats[entry.name] = (info.st_mtime_ns, info.st_size)
        _packages.sort()
    return _packages


def _declared_by(package: str) -> list[Serves]:
    if package not in _declarations:
        module_name = f"rtk.filters.{package}"
        __import__(module_name)
        declared = getattr(sys.modules[module_name], "SERVES", None)
        found = [declared] if isinstance(declared, Serves) else list(declared or ())
        _declarations[package] = [serves.with_module(serves.module or module_name) for serves in found]
    return _declarations[package]


def _program_index() -> ProgramIndex:
    """Which packages can serve which program (program_index.py), once per process."""
    if not _index:
        _index.append(program_index.cached(_FILTERS_DIR, _package_names(), _build_index, _init_stats))
    return _index[0]


def _build_index() -> ProgramIndex:
    declared = {package: _declared_by(package) for package in _package_names()}
    dynamic = {package for package in declared
               if hasattr(sys.modules[f"rtk.filters.{package}"], "dynamic_serves")}
    return program_index.build(declared, dynamic)


def _dynamic_sources(packages: Sequence[str]) -> list[tuple[str, Sequence[Serves]]]:
    """(package, what its dynamic_serves() gave): the same objects while its files are unchanged."""
    found = []
    for name in packages:
        module = sys.modules.get(f"rtk.filters.{name}")
        provider = getattr(module, "dynamic_serves", None) if module is not None else None
        if module is not None and provider is not None:
            found.append((module.__name__, provider()))
    return found


def all_serves(packages: Collection[str] | None = None) -> list[Serves]:
    """Every filter (of `packages`, default all), in matching order: project and user filters
    first, then built-in ones; a later source replaces an earlier one of the same name."""
    chosen = tuple(_package_names() if packages is None else sorted(packages))
    static = [s for package in chosen for s in _declared_by(package)]
    sources = _dynamic_sources(chosen)
    provided_now = [provided for _, provided in sources]
    if _merged and _merged[0][0] == chosen and len(_merged[0][1]) == len(provided_now) \
            and all(a is b for a, b in zip(_merged[0][1], provided_now, strict=True)):
        return _merged[0][2]
    dynamic = [s.with_module(s.module or module) for module, provided in sources for s in provided]
    by_name: dict[str, Serves] = {}
    for serves in (*static, *dynamic):
        previous = by_name.get(serves.name)
        if previous is None or SOURCE_RANK.get(serves.source, 2) <= SOURCE_RANK.get(previous.source, 2):
            by_name[serves.name] = serves
    merged = sorted(by_name.values(), key=lambda s: (SOURCE_RANK.get(s.source, 2), s.priority, s.name))
    _merged[:] = [(chosen, provided_now, merged)]
    return merged


def classify(argv: Sequence[str]) -> Match | None:
    """The dedicated filter serving `argv`, or None when only the generic filter applies.

    Only the packages that can serve argv's program (after launchers like `npx` are peeled) are
    imported and asked; the answer is the one asking every package would give."""
    _chosen.clear()  # only the latest choice stands (a long-lived caller classifies many argvs)
    words = list(argv)
    if not words or not words[0]:
        return None
    candidates = list(launchers.candidates(words))
    programs = {os.path.basename(candidate[0]) for candidate in candidates if candidate}
    serves = all_serves(_program_index().packages_for(programs))
    for candidate in candidates:
        for entry in serves:
            match = entry.match(candidate)
            if match is not None:
                _chosen[entry.name] = entry
                return match
    return None


def filter_name_for(argv: Sequence[str]) -> str:
    match = classify(argv)
    return match.filter if match else FALLBACK


def lookup(name: str) -> Serves | None:
    """The filter named `name`, importing only its package (and those declaring at run time)."""
    index = _program_index()
    packages = set(index.always)
    if name in index.names:
        packages.add(index.names[name])
    return next((s for s in all_serves(packages) if s.name == name), None)


class _Registry:
    """`REGISTRY[name]` -> Serves, in listing order (the generic fallback last); computed on use."""

    def _table(self) -> dict[str, Serves]:
        serves = all_serves()
        table = {s.name: s for s in serves if s.name != FALLBACK}
        table.update({s.name: s for s in serves if s.name == FALLBACK})
        return table

    def __getitem__(self, name: str) -> Serves:
        return self._table()[name]

    def __contains__(self, name: object) -> bool:
        return name in self._table()

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())

    def get(self, name: str, default: Serves | None = None) -> Serves | None:
        return self._table().get(name, default)

    def values(self) -> list[Serves]:
        return list(self._table().values())

    def items(self) -> list[tuple[str, Serves]]:
        return list(self._table().items())


REGISTRY = _Registry()


def load(name: str, ctx: FilterContext) -> Filter:
    """Build the named filter; a module that is missing or broken gives the generic filter."""
    serves = _chosen.pop(name, None) or lookup(name) or lookup(FALLBACK)
    assert serves is not None, "the generic filter is always there"
    try:
        module = _imported(serves.module)
    except ImportError:
        serves = lookup(FALLBACK)
        assert serves is not None
        module = _imported(serves.module)
    return module.create(ctx.replace(filter_name=serves.name))


def _imported(name: str) -> Any:
    """importlib.import_module without importing importlib (and the warnings it loads)."""
    __import__(name)
    return sys.modules[name]
