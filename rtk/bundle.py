"""The modules rtk's start loads, served from one file instead of one file each.

Importing its ~35 modules is three quarters of what rtk adds to a wrapped command (~8.5 of
~11.5 ms CPU on the development machine), and much of that is the import system's work per
file: finding it, opening, reading and checking its .pyc. The bundle holds the compiled code of
the rtk modules earlier runs loaded, in one marshal file beside the package's bytecode (like a
.pyc; else in the data dir's cache), and `bin/rtk` puts its finder first on `sys.meta_path`.

A module is served from the bundle only while its source file has the mtime and size the bundle
recorded (one stat, as the normal import makes); a changed or new module, or a missing or broken
bundle, is imported the normal way, and the process that saw it writes a fresh bundle as it
ends (`refresh`, after its output is flushed). Only `bin/rtk` installs the finder:
`python -m rtk`, the tests and library users import as usual; `RTK_NO_BUNDLE=1` turns it off.

Where Python writes no bytecode (`-B`, `PYTHONDONTWRITEBYTECODE`, set in many container images)
nothing is written beside the package, but the bundle still goes to rtk's own data dir, where
rtk writes on every run anyway: an install without .pyc files (editable, or `uv` without
`--compile-bytecode`) would otherwise compile every module from source on every call (a hook
call 3x slower, ~90 instead of ~30 ms, on the development machine).
"""
from __future__ import annotations

import marshal
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import CodeType, ModuleType
    from typing import Any

VERSION = 1
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
# name -> (source path, is a package, source mtime_ns, source size, marshalled code)
Entry = tuple[str, bool, int, int, bytes]


class BundleFinder:
    """A meta-path finder and loader for the bundled modules that are still current."""

    def __init__(self, modules: dict[str, Entry], path: str | None) -> None:
        self.modules = modules
        self.path = path  # where the bundle was read from (None: none was)
        self.missed = not modules  # a module of rtk was imported the normal way

    def find_spec(self, name: str, path: object = None, target: object = None) -> Any:
        if name != "rtk" and not name.startswith("rtk."):
            return None
        entry = self.modules.get(name)
        if entry is None or not _current(entry):
            self.missed = True
            return None
        spec = sys.modules["_frozen_importlib"].ModuleSpec(name, self, origin=entry[0], is_package=entry[1])
        spec.has_location = True  # __file__ is the source, as for a normal import
        if entry[1]:
            spec.submodule_search_locations = [os.path.dirname(entry[0])]
        return spec

    def create_module(self, spec: object) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        code: CodeType = marshal.loads(self.modules[module.__name__][4])
        exec(code, module.__dict__)  # noqa: S102 - rtk's own compiled source, checked current


_installed: list[BundleFinder] = []


def install() -> BundleFinder | None:
    """Read the bundle and put its finder first (None when `RTK_NO_BUNDLE` is set)."""
    if os.environ.get("RTK_NO_BUNDLE", "").strip().lower() not in ("", "0", "false", "no", "off"):
        return None
    modules: dict[str, Entry] = {}
    found_at = None
    for path in places():
        data = _read(path)
        if data is not None:
            modules, found_at = data, path
            break
    finder = BundleFinder(modules, found_at)
    sys.meta_path.insert(0, finder)
    _installed[:] = [finder]
    return finder


def refresh() -> None:
    """When this run imported an rtk module the normal way, write a bundle of every current rtk
    module now loaded (the earlier bundle's current entries kept). Never raises."""
    finder = _installed[0] if _installed else None
    if finder is None or not finder.missed:
        return
    try:
        modules = {name: entry for name, entry in finder.modules.items() if _current(entry)}
        for name, module in list(sys.modules.items()):
            if (name == "rtk" or name.startswith("rtk.")) and name not in modules:
                entry = _entry(module)
                if entry is not None:
                    modules[name] = entry
        _write(modules, finder.path)
    except Exception:  # noqa: BLE001 - a cache: the next run imports the normal way
        return


def places() -> list[str]:
    """Beside the package's bytecode, else the data dir's cache (a read-only install, or no
    bytecode written), named after the package's directory: two installs sharing a data dir
    (a development checkout beside a tool install) would otherwise replace each other's bundle
    on every run."""
    name = f"hot-modules.{sys.implementation.cache_tag}"
    from rtk.paths import data_dir_path

    return [os.path.join(PACKAGE_DIR, "__pycache__", f"{name}.marshal"),
            os.path.join(data_dir_path(), "cache", f"{name}.{_path_tag(PACKAGE_DIR)}.marshal")]


def _path_tag(path: str) -> str:
    """A stable short name for a path (FNV-1a, 64 bits; `hash()` differs per process and
    hashlib loads a shared library): ~6 us."""
    value = 0xCBF29CE484222325
    for byte in path.encode("utf-8", "surrogateescape"):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return format(value, "016x")


def _current(entry: Entry) -> bool:
    try:
        info = os.stat(entry[0])
    except OSError:
        return False
    return info.st_mtime_ns == entry[2] and info.st_size == entry[3]


def _entry(module: ModuleType) -> Entry | None:
    """The module's source compiled as the normal import would, stamped with the source's stat."""
    source = getattr(module, "__file__", None)
    if not source or not source.endswith(".py") or not os.path.abspath(source).startswith(PACKAGE_DIR):
        return None
    with open(source, "rb") as handle:
        info = os.fstat(handle.fileno())
        text = handle.read()
    code = compile(text, source, "exec", dont_inherit=True)
    return source, hasattr(module, "__path__"), info.st_mtime_ns, info.st_size, marshal.dumps(code)


def _read(path: str) -> dict[str, Entry] | None:
    try:
        with open(path, "rb") as handle:
            data = marshal.loads(handle.read())  # (marshal.load on a file reads it piece by piece)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("key") != _key():
        return None
    modules = data.get("modules")
    return modules if isinstance(modules, dict) else None


def _key() -> tuple[object, ...]:
    from rtk import __version__

    return (VERSION, __version__, PACKAGE_DIR, sys.version_info[:3], sys.flags.optimize)


def _write(modules: dict[str, Entry], read_from: str | None) -> None:
    from rtk.paths import write_marshal

    order = places()
    beside = order[0]
    if sys.dont_write_bytecode:  # -B / PYTHONDONTWRITEBYTECODE: nothing beside the package
        order = order[1:]
    elif read_from in order:  # where it was: the first writable place then
        order = order[order.index(read_from):]
    for path in order:
        try:  # in the data dir 0600 like everything rtk keeps there; beside the package as a .pyc
            write_marshal(path, {"key": _key(), "modules": modules}, private=path != beside)
            return
        except (OSError, ValueError):
            continue
