"""Read filter files into `FilterDef`s, skipping what is broken or untrusted with one line each.

A file that is not valid TOML, or has an unsupported `schema_version`, is skipped whole; a filter
with an unknown field or a bad regex is skipped alone; everything else in the file still works.
Project files are read only when trust.py says their exact content was trusted.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field

from . import trust
from .definition import FilterDef, build_filter
from .schema import SpecError

SCHEMA_VERSION = 1


@dataclass
class Catalog:
    filters: list[FilterDef] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)       # one `rtk: ...` line each
    untrusted: list[tuple[str, str]] = field(default_factory=list)  # (path, trust status)
    orphans: list[str] = field(default_factory=list)      # [[tests.X]] naming no filter X

    def extend(self, other: Catalog) -> None:
        self.filters += other.filters
        self.errors += other.errors
        self.untrusted += other.untrusted
        self.orphans += other.orphans


def read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def load_file(source: str, path: str, store: dict[str, dict[str, object]] | None = None) -> Catalog:
    found = Catalog()
    content = read_bytes(path)
    if content is None:
        found.errors.append(f"rtk: {path}: cannot read the filter file (skipped)")
        return found
    if source == "project":
        state = trust.status(path, content, store)
        if state != trust.TRUSTED:
            found.untrusted.append((path, state))
            return found
    return parse_text(source, path, content, found)


def parse_text(source: str, path: str, content: bytes, found: Catalog | None = None) -> Catalog:
    found = found or Catalog()
    try:
        data = tomllib.loads(content.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        found.errors.append(f"rtk: {path}: not valid TOML ({exc}); file skipped")
        return found
    version = data.get("schema_version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        found.errors.append(f"rtk: {path}: schema_version {version!r} is not supported (expected 1); file skipped")
        return found
    tables, tests = data.get("filters", {}), data.get("tests", {})
    if not isinstance(tables, dict) or not isinstance(tests, dict):
        found.errors.append(f"rtk: {path}: 'filters' and 'tests' must be tables; file skipped")
        return found
    for name in sorted(tables):
        try:
            found.filters.append(build_filter(name, tables[name], tests.get(name), source, path))
        except SpecError as exc:
            found.errors.append(f"rtk: {path}: {exc}; filter '{name}' skipped")
    found.orphans += [f"{path}: [[tests.{name}]] names no filter" for name in sorted(tests)
                      if name not in tables]
    return found


def load_all(files: list[tuple[str, str]]) -> Catalog:
    """Every filter of `files` ((source, path) pairs, in source order)."""
    store = trust.load_store()
    found = Catalog()
    for source, path in files:
        found.extend(load_file(source, path, store))
    return found


def find(name: str, source: str, path: str) -> FilterDef | None:
    """The named filter from one file (the one the index points at), re-read and re-checked."""
    if not os.path.isfile(path):
        return None
    for spec in load_file(source, path).filters:
        if spec.name == name:
            return spec
    return None


def untrusted_line(path: str, state: str) -> str:
    why = "changed since it was trusted" if state == trust.CHANGED else "not trusted"
    return f"rtk: project filters in {path} {why}, not applied (run `rtk trust` to review and apply them)"
