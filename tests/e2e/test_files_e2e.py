"""`rtk ls|tree|find|grep|rg|wc|diff|cat|jq ...` for real: a generated tree, the real tools.

coreutils, findutils, grep and diffutils are everywhere; tree, rg and jq are skipped with a reason
when missing (CI: `apt-get install -y tree ripgrep jq`).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import rtk_executable


def env() -> dict[str, str]:
    """The test's own environment (its HOME and rtk dirs, set by the autouse fixture), in the C locale."""
    return {**os.environ, "LANG": "C", "LC_ALL": "C", "RTK_TRACK": "0"}


def rtk(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*rtk_executable(), *args], cwd=cwd, env=env(), capture_output=True, text=True,
                          timeout=60, check=False)


def raw(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, env=env(), capture_output=True, text=True, timeout=60, check=False)


def need(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (CI: apt-get install -y tree ripgrep jq)")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for pkg in ("core", "web", "cli"):
        (root / "src" / pkg).mkdir(parents=True)
        for i in range(12):
            body = "".join(f"def handler_{pkg}_{i}_{n}(request):\n    return TOKEN_{n}\n\n" for n in range(6))
            (root / "src" / pkg / f"mod{i}.py").write_text("import os\n\n" + body)
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text("".join(f"line {n} of the guide\n" for n in range(1, 3001)))
    return root


def test_ls_la_keeps_every_name(project: Path) -> None:
    result = rtk(project, "ls", "-la", "src/core")
    assert result.returncode == 0
    for i in range(12):
        assert f"mod{i}.py " in result.stdout
    assert "rw-r" not in result.stdout and "total" not in result.stdout


def expand(listing: str) -> list[str]:
    """Every path of a grouped listing (`src/core/ (12): mod0.py mod1.py ...`), back in full."""
    paths = []
    for line in listing.splitlines():
        head, sep, names = line.partition(": ")
        directory = head.rpartition(" (")[0]
        paths += [directory + name for name in names.split()] if sep and directory.endswith("/") else [line]
    return sorted(paths)


def test_find_groups_every_path_by_directory(project: Path) -> None:
    result = rtk(project, "find", "src", "-name", "*.py")
    assert result.returncode == 0
    assert expand(result.stdout) == sorted(raw(project, "find", "src", "-name", "*.py").stdout.splitlines())
    assert len(result.stdout) < len(raw(project, "find", "src", "-name", "*.py").stdout) * 2 // 3


def test_grep_groups_matches_by_file_and_keeps_every_location(project: Path) -> None:
    result = rtk(project, "grep", "-rn", "TOKEN_3", "src")
    assert result.returncode == 0
    for pkg in ("core", "web", "cli"):
        assert f"src/{pkg}/mod0.py:13:return TOKEN_3" in result.stdout  # one match: one line
    assert result.stdout.rstrip().endswith("36 matches in 36 files")
    flat = rtk(project, "grep", "-rn", "return", "src/core/mod0.py", "src/web/mod1.py").stdout.splitlines()
    assert flat[:2] == ["src/core/mod0.py:4:return TOKEN_0", "src/core/mod0.py:7:return TOKEN_1"]
    assert flat[-1] == "12 matches in 2 files"


def test_grep_grouped_layout_from_the_config(project: Path, tmp_path: Path) -> None:
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "config.toml").write_text("[limits]\ngrep_grouped = 1\n")
    result = subprocess.run([*rtk_executable(), "grep", "-rn", "return", "src/core/mod0.py", "src/web/mod1.py"],
                            cwd=project, env={**env(), "RTK_CONFIG_DIR": str(tmp_path / "cfg")}, capture_output=True,
                            text=True, timeout=60, check=False)
    grouped = result.stdout.splitlines()
    assert grouped[:3] == ["src/core/mod0.py", "4: return TOKEN_0", "7: return TOKEN_1"]
    assert "src/web/mod1.py" in grouped and grouped[-1] == "12 matches in 2 files"


def test_grep_without_a_match_keeps_the_exit_code(project: Path) -> None:
    result = rtk(project, "grep", "-rn", "zz_not_there", "src")
    assert (result.returncode, result.stdout) == (1, "")


def test_wc_keeps_paths_and_total(project: Path) -> None:
    result = rtk(project, "wc", "-l", "src/core/mod0.py", "src/web/mod0.py")
    assert result.stdout.splitlines() == ["20 src/core/mod0.py", "20 src/web/mod0.py", "40 total"]


def test_diff_u_summary_first_and_exit_1(project: Path) -> None:
    changed = project / "mod0.changed.py"
    changed.write_text((project / "src/core/mod0.py").read_text().replace("TOKEN_2", "TOKEN_TWO"))
    result = rtk(project, "diff", "-u", "src/core/mod0.py", changed.name)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "diff: 1 file changed, +1 -1"
    assert "-    return TOKEN_2" in lines and "+    return TOKEN_TWO" in lines


def test_cat_of_a_long_file_prints_head_tail_and_the_command(project: Path) -> None:
    result = rtk(project, "cat", "docs/guide.md")
    assert result.returncode == 0
    assert "1\tline 1 of the guide" in result.stdout and "3000\tline 3000 of the guide" in result.stdout
    assert "sed -n '201,2900p' docs/guide.md" in result.stdout
    assert raw(project, "sed", "-n", "201,2900p", "docs/guide.md").stdout.startswith("line 201 of the guide")


def test_head_of_a_short_range_is_byte_exact(project: Path) -> None:
    assert rtk(project, "head", "-n", "5", "docs/guide.md").stdout == raw(project, "head", "-n", "5", "docs/guide.md").stdout


def test_tree_keeps_the_counts_line(project: Path) -> None:
    need("tree")
    result = rtk(project, "tree", "src")
    assert result.stdout.splitlines()[-1] == "4 directories, 36 files"
    assert "├──" not in result.stdout and " core/" in result.stdout


def test_rg_keeps_every_file(project: Path) -> None:
    need("rg")
    result = rtk(project, "rg", "-n", "TOKEN_5", "src")
    for pkg in ("core", "web", "cli"):
        assert f"src/{pkg}/mod11.py" in result.stdout


def test_jq_outlines_a_big_document_and_passes_a_small_one(project: Path) -> None:
    need("jq")
    (project / "big.json").write_text(json.dumps({"versions": {f"1.{i}.0": {"n": i} for i in range(400)}}))
    (project / "small.json").write_text(json.dumps({"a": 1}))
    big = rtk(project, "jq", ".", "big.json")
    assert big.stdout.startswith("JSON outline (") and "versions: {400 keys}" in big.stdout
    assert "rtk recall" in big.stdout
    assert rtk(project, "jq", ".", "small.json").stdout == raw(project, "jq", ".", "small.json").stdout
