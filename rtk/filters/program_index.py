"""Which filter packages can serve a program: read from a cache, so a run imports only those.

Every `Words` shape starts with the basenames argv[0] may have, so the packages that can match
`git status` are the ones naming `git` (plus those that declare shapes at run time, or shapes of
another kind: always imported). Importing all ~30 packages' `__init__` to find out costs ~2 ms on
every wrapped command and every hook call; this index costs one directory scan and a stat per
package. It is keyed on each package's `__init__.py` (name, mtime, size) and rtk's version, so
adding or editing a filter rebuilds it on the next call; it is written like a .pyc (in the
package's __pycache__ when writable, else the data dir's cache), and without a writable place
every call simply imports every package, as before.
"""
from __future__ import annotations

import os
import sys

from rtk.paths import data_dir_path, read_marshal, write_marshal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from rtk.filters.serves import Serves

INDEX_VERSION = 1


def stamp(filters_dir: str, packages: Sequence[str],
          stats: Mapping[str, tuple[int, int]] | None = None) -> tuple[object, ...]:
    """What the index is valid for: the packages' __init__ files as they are now (`stats`:
    their (mtime_ns, size) as the caller just read them, else each is stat-ed here)."""
    from rtk import __version__

    found: list[object] = [INDEX_VERSION, __version__, filters_dir]
    for name in packages:
        if stats is not None and name in stats:
            found.append((name, *stats[name]))
            continue
        try:
            info = os.stat(os.path.join(filters_dir, name, "__init__.py"))
        except OSError:
            info = None
        found.append((name, info.st_mtime_ns, info.st_size) if info else (name, 0, 0))
    return tuple(found)


class ProgramIndex:
    """`programs`: program -> packages naming it; `always`: packages to import for any program
    (run-time or other shapes); `names`: filter name -> its package."""

    __slots__ = ("always", "names", "programs")

    def __init__(self, programs: dict[str, list[str]], always: list[str], names: dict[str, str]) -> None:
        self.programs, self.always, self.names = programs, always, names

    def packages_for(self, programs: set[str]) -> set[str]:
        return {package for program in programs for package in self.programs.get(program, ())} | set(self.always)

    def as_data(self) -> dict[str, object]:
        return {"programs": self.programs, "always": self.always, "names": self.names}


def build(declared: dict[str, list[Serves]], dynamic: set[str]) -> ProgramIndex:
    """The index of each package's declarations (packages in `dynamic` declare more at run time)."""
    programs: dict[str, list[str]] = {}
    always = set(dynamic)
    names: dict[str, str] = {}
    for package, serves in declared.items():
        for entry in serves:
            names.setdefault(entry.name, package)
            for shape in entry.matchers:
                shape_programs = getattr(shape, "program", None)
                if shape_programs is None:
                    always.add(package)
                    continue
                for program in shape_programs:
                    if package not in programs.setdefault(program, []):
                        programs[program].append(package)
    return ProgramIndex(programs, sorted(always), names)


def cached(filters_dir: str, packages: Sequence[str], compute: Callable[[], ProgramIndex],
           stats: Mapping[str, tuple[int, int]] | None = None) -> ProgramIndex:
    """The index for these packages: the stored one while its stamp holds, else computed and stored."""
    key = stamp(filters_dir, packages, stats)
    for path in _places(filters_dir):
        data = read_marshal(path)
        if data is not None and data.get("stamp") == key:
            try:
                return ProgramIndex(**data["index"])  # type: ignore[arg-type]
            except TypeError:
                break  # another layout (an older rtk wrote it): rebuild
    index = compute()
    for path in _places(filters_dir):
        try:
            write_marshal(path, {"stamp": key, "index": index.as_data()})
            break
        except (OSError, ValueError):
            continue  # not writable here: the next place, or none (every call computes it)
    return index


def _places(filters_dir: str) -> list[str]:
    name = f"filter-programs.{sys.implementation.cache_tag}.marshal"
    return [os.path.join(filters_dir, "__pycache__", name), os.path.join(data_dir_path(), "cache", name)]
