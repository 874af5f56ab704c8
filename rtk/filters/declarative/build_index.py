"""Rebuild one part of the declarative filters' index (see the package docstring for when).

Run as `python -m rtk.filters.declarative.build_index PART [PROJECT_ROOT]`: it reads the part's filter
files with the full loader and writes the marshal file atomically, so concurrent readers see the
old index or the new one, never half of one.
"""
from __future__ import annotations

import errno
import sys

from rtk import paths
from rtk.filters import declarative
from rtk.filters.declarative import trust
from rtk.filters.declarative.catalog import Catalog, load_file
from rtk.filters.declarative.definition import FilterDef


def _entry(spec: FilterDef) -> dict[str, object]:
    return {
        "name": spec.name,
        "source": spec.source,
        "path": spec.path,
        "summary": spec.description,
        "serves": ", ".join(declarative.describe(m) for m in spec.matchers),
        "matchers": list(spec.matchers),
        "priority": spec.priority,
    }


def build(files: list[tuple[str, str]]) -> dict[str, object]:
    store = trust.load_store()
    found = Catalog()
    for source, path in files:
        found.extend(load_file(source, path, store))
    return {"entries": [_entry(spec) for spec in found.filters], "errors": found.errors,
            "untrusted": [tuple(item) for item in found.untrusted]}


def write_part(part: str, root: str | None) -> None:
    files = declarative.part_files(part, root)
    key = declarative.index_key(files, root)  # taken before reading: a change meanwhile goes stale
    data = build(files)
    data["key"] = key
    path, spare = declarative.part_paths(part, root)
    try:
        _write(path, data)
    except OSError:
        _write(spare, data)  # a read-only data dir (a sandbox): the private temp dir instead


def _write(path: str, data: dict[str, object]) -> None:
    paths.write_marshal(path, data)


def main(argv: list[str]) -> int:
    part = argv[0] if argv else "built-in"
    try:
        write_part(part, argv[1] if len(argv) > 1 and argv[1] else None)
    except OSError as exc:
        if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):  # a read-only sandbox: say nothing
            print(f"rtk: cannot write the filter index: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback, on the hook's stderr
        print(f"rtk: cannot build the TOML filter index: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
