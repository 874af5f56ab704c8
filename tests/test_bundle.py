"""rtk/bundle.py: `bin/rtk` loads rtk's modules from one file, and never a stale one (issue 22).

Each test runs a copy of the package (so the bundle it writes, and the module it edits, are
its own) through a copy of `bin/rtk` or a probe that starts the same way.
"""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import gc, sys
gc.disable()
from rtk import bundle
finder = bundle.install()
import rtk.run.runner, rtk.run.exits
print(repr([type(rtk.run.runner.__spec__.loader).__name__, getattr(rtk.run.exits, "MARKER", None),
            rtk.run.runner.__file__, finder is not None and finder.missed]))
"""


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "rtk", tmp_path / "rtk", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "bin" / "rtk", tmp_path / "rtk-script")
    return tmp_path


def _env(copy: Path, **extra: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(copy), "HOME": str(copy),
            "XDG_DATA_HOME": str(copy / "data"), "RTK_TRACK": "0", **extra}


def _run(copy: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(copy / "rtk-script"), *args], capture_output=True, text=True,
                          env=_env(copy, **extra), cwd=copy, check=False, timeout=60)


def _probe(copy: Path, **extra: str) -> list[object]:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=_env(copy, **extra),
                         cwd=copy, check=True, timeout=60).stdout
    return ast.literal_eval(out.splitlines()[-1])  # type: ignore[no-any-return]


def _bundle(copy: Path) -> Path:
    found = sorted((copy / "rtk" / "__pycache__").glob("hot-modules.*.marshal"))
    assert found, "no bundle was written"
    return found[0]


def test_a_run_writes_the_bundle_and_the_next_start_is_served_from_it(copy: Path) -> None:
    first = _run(copy, "true")
    assert first.returncode == 0, first.stderr
    assert _bundle(copy).stat().st_size > 0
    loader, _, path, missed = _probe(copy)
    assert loader == "BundleFinder"
    assert path == str(copy / "rtk" / "run" / "runner.py")  # __file__ is the source, as usual
    assert missed is False


def test_an_edited_module_is_imported_as_it_is_now_then_bundled_again(copy: Path) -> None:
    assert _run(copy, "true").returncode == 0
    exits = copy / "rtk" / "run" / "exits.py"
    exits.write_text(exits.read_text() + "\nMARKER = 'edited'\n")
    _, marker, _, missed = _probe(copy)
    assert marker == "edited" and missed is True  # never the bundled (stale) code
    assert _run(copy, "true").returncode == 0  # this run writes the edited module down
    assert _probe(copy)[1:4:2] == ["edited", False]


def test_a_broken_bundle_is_ignored_and_replaced(copy: Path) -> None:
    assert _run(copy, "true").returncode == 0
    _bundle(copy).write_bytes(b"\x00not marshal at all")
    result = _run(copy, "sh", "-c", "echo hi")
    assert result.returncode == 0 and result.stdout == "hi\n", result.stderr
    assert _probe(copy)[0] == "BundleFinder"


def test_a_package_it_cannot_write_beside_uses_the_data_dirs_cache(copy: Path) -> None:
    (copy / "rtk" / "__pycache__").write_text("a file where the bytecode dir would be")  # root or not
    result = _run(copy, "sh", "-c", "exit 3")
    assert result.returncode == 3, result.stderr
    assert sorted((copy / "data" / "rtk" / "cache").glob("hot-modules.*.marshal"))
    assert _probe(copy)[0] == "BundleFinder"


def test_rtk_no_bundle_imports_the_normal_way(copy: Path) -> None:
    assert _run(copy, "true").returncode == 0
    assert _probe(copy, RTK_NO_BUNDLE="1")[0] != "BundleFinder"


def test_where_python_writes_no_bytecode_the_bundle_goes_to_the_data_dir_only(copy: Path) -> None:
    # an install without .pyc files under PYTHONDONTWRITEBYTECODE would compile every module on
    # every call: the bundle still serves it, from rtk's own data dir, never beside the package
    assert _run(copy, "true", PYTHONDONTWRITEBYTECODE="1").returncode == 0
    assert not list((copy / "rtk").glob("__pycache__/hot-modules.*"))
    assert not list((copy / "rtk").rglob("*.pyc"))
    found = sorted((copy / "data" / "rtk" / "cache").glob("hot-modules.*.marshal"))
    assert found and found[0].stat().st_mode & 0o777 == 0o600  # private, as all rtk keeps there
    assert _probe(copy, PYTHONDONTWRITEBYTECODE="1")[0::3] == ["BundleFinder", False]
    assert _run(copy, "true", PYTHONDONTWRITEBYTECODE="1").returncode == 0
    assert not list((copy / "rtk").glob("__pycache__/hot-modules.*"))


def test_two_installs_sharing_a_data_dir_keep_a_bundle_each(copy: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    other = tmp_path_factory.mktemp("other")
    shutil.copytree(copy / "rtk", other / "rtk")
    shutil.copy(copy / "rtk-script", other / "rtk-script")  # (a script's own dir comes first on sys.path)
    data = {"XDG_DATA_HOME": str(copy / "data"), "PYTHONDONTWRITEBYTECODE": "1"}
    for package in (copy, other):  # each writes its own bundle into the one shared data dir
        env = {**_env(package), **data}
        subprocess.run([sys.executable, str(package / "rtk-script"), "true"], env=env, cwd=package, check=True,
                       timeout=60)
    assert len(sorted((copy / "data" / "rtk" / "cache").glob("hot-modules.*.marshal"))) == 2
    for package in (copy, other):  # and each is served from its own, so neither rewrites it
        assert _probe(package, **data)[0::3] == ["BundleFinder", False]
