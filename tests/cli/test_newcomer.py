"""A newcomer's checklist, on the sdist and the wheel as PyPI would serve them: install into a
fresh virtualenv, every verb's --help, usage errors (exit 2, one line), the completion script,
`twine check`, and an uninstall that really removes the command.

The fresh venvs get rtk with --no-deps and see this environment's dependencies through a .pth
file, so the check needs no network beyond building the distributions (setuptools from PyPI in
build's isolated environment; skipped with the reason when that cannot be had)."""
from __future__ import annotations

import os
import site
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.xdist_group("newcomer")  # one worker builds the distributions once, for all
EXPECTED_VERBS = {"run", "proxy", "hook", "rewrite", "pipe", "filters", "recall", "config", "gain", "init",
                  "hook-audit", "discover"}
USAGE_ERRORS = (["--bogus"], ["-x"], ["hook"], ["run"], ["proxy"], ["gain", "--bogus"], ["run", "--filter", "nope", "--", "ls"],
                ["recall"], ["discover", "--since", "soon"], ["config", "--nope"], ["help", "gain", "extra"])


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    """Outside pytest's basetemp: another pytest run on the machine may prune that meanwhile."""
    with tempfile.TemporaryDirectory(prefix="rtk-newcomer-") as tmp:
        yield Path(tmp)


@pytest.fixture(scope="module")
def dists(workdir: Path) -> dict[str, Path]:
    out = workdir / "dist"
    proc = subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, check=False, timeout=600)
    if proc.returncode != 0:
        pytest.skip(f"cannot build the distributions here: {proc.stderr.strip().splitlines()[-1:]}")
    return {"wheel": next(out.glob("*.whl")), "sdist": next(out.glob("*.tar.gz"))}


def test_twine_check_passes(dists: dict[str, Path]) -> None:
    proc = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, dists.values())],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_distribution_is_named_to_be_published(dists: dict[str, Path]) -> None:
    assert dists["wheel"].name.startswith("rtk_python-1.")
    assert dists["sdist"].name.startswith("rtk_python-1.")


def test_the_sdist_carries_what_the_readme_links_to(dists: dict[str, Path]) -> None:
    import re
    import tarfile

    with tarfile.open(dists["sdist"]) as sdist:
        names = set(sdist.getnames())
    root = dists["sdist"].name.removesuffix(".tar.gz")
    links = set(re.findall(r"\]\(((?!https?:|#)[^)#]+)", (ROOT / "README.md").read_text()))
    assert "docs/gain-json.md" in links
    assert {link for link in links if f"{root}/{link}" not in names} == set()


def _fresh_venv(where: Path, dist: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(where / "bin" / "python"), "install",
                    "--no-deps", "-q", str(dist)], check=True, capture_output=True)
    # only now: seen before the install, this environment's own rtk-python would satisfy pip
    purelib = Path(sysconfig.get_path("purelib", vars={"base": str(where), "platbase": str(where)}))
    (purelib / "deps-of-the-test-env.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return where / "bin" / "rtk"


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_newcomer_checklist(kind: str, dists: dict[str, Path], workdir: Path) -> None:
    tmp_path = workdir / kind
    tmp_path.mkdir()
    rtk = _fresh_venv(tmp_path / "venv", dists[kind])
    env = {"PATH": f"{rtk.parent}{os.pathsep}/usr/bin:/bin", "HOME": str(tmp_path), "LC_ALL": "C.UTF-8"}

    def call(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(rtk), *args], capture_output=True, text=True, env={**env, **extra},
                              check=False, timeout=60, stdin=subprocess.DEVNULL)

    assert call("--version").stdout.strip().startswith("rtk 1.")
    assert call("-V").stdout == call("--version").stdout
    top = call("--help")
    assert top.returncode == 0 and "Exit codes" in top.stdout
    section = top.stdout.split("Commands:", 1)[1].strip("\n").split("\n\n", 1)[0]
    verbs = [line.split()[0] for line in section.splitlines() if line.startswith("  ") and line.split()]
    assert EXPECTED_VERBS <= set(verbs), EXPECTED_VERBS - set(verbs)
    for verb in verbs:
        helped = call(verb, "--help")
        assert helped.returncode == 0, (verb, helped.stderr)
        assert "Usage: rtk " in helped.stdout and "Exit codes" in helped.stdout, verb
        assert "Example" in helped.stdout, verb
    for args in USAGE_ERRORS:
        wrong = call(*args)
        assert wrong.returncode == 2, (args, wrong.returncode, wrong.stderr)
        assert wrong.stdout == "" and wrong.stderr.startswith("rtk: "), args
        assert len(wrong.stderr.splitlines()) == 1, (args, wrong.stderr)
    assert call("help").stdout == top.stdout and call("help", "gain").stdout == call("gain", "--help").stdout
    completion = call(_RTK_COMPLETE="bash_source")
    assert completion.returncode == 0 and "_rtk_completion" in completion.stdout
    assert call("echo", "hi").stdout == "hi\n"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(rtk.parent / "python"), "uninstall", "-y", "-q",
                    "rtk-python"], check=True, capture_output=True)
    assert not rtk.exists()
