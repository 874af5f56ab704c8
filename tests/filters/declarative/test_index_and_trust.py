"""The hook path's index (cached, rebuilt on change) and the project trust store."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from rtk.filters import declarative
from rtk.filters.declarative import trust

USER_FILTER = 'schema_version = 1\n[filters.mytool]\nmatch = ["mytool *"]\nstrip_lines_matching = ["^noise"]\n'


@pytest.fixture
def user_dir(hermetic_rtk: Path) -> Path:
    folder = hermetic_rtk / "config" / "rtk"
    folder.mkdir(parents=True)
    return folder


def names() -> set[str]:
    return {s.name for s in declarative.dynamic_serves()}


def test_a_user_filter_is_served_and_the_index_is_reused_while_nothing_changes(user_dir: Path) -> None:
    (user_dir / "filters.toml").write_text(USER_FILTER)
    assert "mytool" in names()
    cache = Path(declarative.part_path("user"))
    built = cache.stat().st_mtime_ns
    declarative._parts.clear()
    assert "mytool" in names() and cache.stat().st_mtime_ns == built


def test_a_changed_file_rebuilds_the_index(user_dir: Path) -> None:
    (user_dir / "filters.toml").write_text(USER_FILTER)
    assert "mytool" in names()
    (user_dir / "filters").mkdir()
    (user_dir / "filters" / "other.toml").write_text('[filters.other]\nmatch = ["other *"]\n')
    assert {"mytool", "other"} <= names()
    (user_dir / "filters.toml").write_text(USER_FILTER.replace("mytool", "renamed"))
    assert "renamed" in names() and "mytool" not in names()


def test_rtk_config_dir_overrides_the_user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    custom = tmp_path / "custom"
    custom.mkdir()
    (custom / "filters.toml").write_text(USER_FILTER)
    monkeypatch.setenv("RTK_CONFIG_DIR", str(custom))
    assert "mytool" in names()


def test_the_index_files_are_marshal_data_the_hook_reads_without_json(user_dir: Path) -> None:
    (user_dir / "filters.toml").write_text(USER_FILTER)
    part = declarative.load_part("user")
    assert part["entries"][0]["matchers"] == [("w", ("mytool",), (), True, True)]  # type: ignore[index]
    assert declarative.read_part(declarative.part_path("user"))["key"] == part["key"]  # type: ignore[index]


def test_a_corrupt_index_is_rebuilt(user_dir: Path) -> None:
    (user_dir / "filters.toml").write_text(USER_FILTER)
    assert "mytool" in names()
    Path(declarative.part_path("user")).write_bytes(b"\x00garbage")
    declarative._parts.clear()
    assert "mytool" in names()


def test_project_filters_apply_only_while_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "repo"
    (project / ".rtk").mkdir(parents=True)
    (project / "sub").mkdir()
    file = project / ".rtk" / "filters.toml"
    file.write_text(USER_FILTER.replace("mytool", "projtool"))
    monkeypatch.chdir(project / "sub")
    assert declarative.project_root() == str(project)
    assert "projtool" not in names()
    assert trust.status(str(file), file.read_bytes()) == trust.UNTRUSTED
    trust.trust([str(file)])
    assert "projtool" in names()
    file.write_text(file.read_text() + "# edited\n")
    assert trust.status(str(file), file.read_bytes()) == trust.CHANGED
    assert "projtool" not in names()
    trust.trust([str(file)])
    assert "projtool" in names()
    assert trust.untrust(str(project)) == [str(file)]
    assert "projtool" not in names()


def test_the_trust_store_is_private(hermetic_rtk: Path, tmp_path: Path) -> None:
    file = tmp_path / "f.toml"
    file.write_text("x")
    trust.trust([str(file)])
    assert os.stat(trust.store_path()).st_mode & 0o077 == 0
    assert trust.store_path() == declarative.trust_store_path()


def test_the_builtin_index_loads_in_a_process_that_imports_no_parser(user_dir: Path) -> None:
    import subprocess

    (user_dir / "filters.toml").write_text(USER_FILTER)
    code = ("import sys; before = set(sys.modules); from rtk.filters import declarative as d;"
            "n = {s.name for s in d.dynamic_serves()};"
            "print('mytool' in n, 'shellcheck' in n, sorted({'re', 'tomllib', 'json'} & (set(sys.modules) - before)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True)
    assert out.stdout.split("\n")[0] == "True True []"


def test_an_unwritable_data_dir_puts_the_index_in_a_private_temp_dir(user_dir: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")  # a data dir under a file cannot be created, even by root
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker / "data"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (user_dir / "filters.toml").write_text(USER_FILTER)
    assert "mytool" in names()
    spare = Path(declarative.part_paths("user")[1])
    assert spare.exists() and spare.is_relative_to(tmp_path / "tmp")


def test_a_filter_that_raises_leaves_the_output_raw(user_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rtk.filters.declarative import engine
    from tests.filters.fixture_cases import replay

    (user_dir / "filters.toml").write_text(USER_FILTER)

    def broken(line: str, stream: object) -> None:
        raise RuntimeError("boom")

    raw = "".join(f"noise {i}\nkept {i}\n" for i in range(50)).encode()
    assert "noise 3" not in replay("mytool --x", raw, 0)
    monkeypatch.setattr(engine, "line_feed", lambda pipeline, pass_stderr: broken)  # the filter's `feed`
    monkeypatch.setattr(engine, "FAST_AFTER", 0)  # from the first line
    printed = replay("mytool --x", raw, 0)
    assert all(f"noise {i}" in printed and f"kept {i}" in printed for i in range(50))
