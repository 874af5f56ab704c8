"""`rtk go test|vet|build` for real on a generated module (CI: apt-get install golang-go)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import rtk_executable

pytestmark = pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed (apt-get install golang-go)")

CALC_GO = """package calc

import "fmt"

func Add(a, b int) int { return a - b }

func Label(n int) string { return fmt.Sprintf("%d items", n) }

func Crash(m map[string]int) { m["x"] = 1 }
"""
CALC_TEST_GO = """package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestLabel(t *testing.T) {
	t.Log("checking labels")
	if Label(2) != "2 items" {
		t.Fatal("bad label")
	}
}

func TestCrash(t *testing.T) { Crash(nil) }
"""
OK_GO = "package ok\n\nfunc One() int { return 1 }\n"
OK_TEST_GO = 'package ok\n\nimport "testing"\n\nfunc TestOne(t *testing.T) {\n\tif One() != 1 {\n\t\tt.Fatal("one")\n\t}\n}\n'


@pytest.fixture
def module(tmp_path: Path) -> Path:
    root = tmp_path / "e2emod"
    for rel, text in {"go.mod": "module example.com/e2emod\n\ngo 1.19\n", "calc/calc.go": CALC_GO,
                      "calc/calc_test.go": CALC_TEST_GO, "ok/ok.go": OK_GO, "ok/ok_test.go": OK_TEST_GO,
                      "empty/empty.go": "package empty\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GOFLAGS": "-count=1", "GOCACHE": str(root.parent / "gocache"), "GO111MODULE": "on"}
    return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, check=False, timeout=600)


@pytest.mark.parametrize("flags", [(), ("-v",)])
def test_go_test_keeps_failures_panic_and_counts(module: Path, flags: tuple[str, ...]) -> None:
    plain = run(module, "go", "test", *flags, "./...")
    through = run(module, *rtk_executable(), "go", "test", *flags, "./...")
    assert through.returncode == plain.returncode == 1
    out = through.stdout + through.stderr
    assert "--- FAIL: TestAdd" in out and "calc_test.go:7: Add(2, 3) = -1, want 5" in out
    assert "panic: assignment to entry in nil map" in out
    assert re.search(r"calc\.go:9\b", out) and re.search(r"calc_test\.go:18\b", out)
    assert "checking labels" not in out  # a passing test's log
    assert re.search(r"^FAIL\s+example\.com/e2emod/calc\b", out, re.MULTILINE)
    assert "go test: 3 packages: 1 ok, 1 FAIL, 1 without tests" in out
    assert "=== RUN" not in out and "--- PASS" not in out


def test_go_vet_keeps_every_finding_under_its_package(module: Path) -> None:
    (module / "ok" / "ok.go").write_text('package ok\n\nimport "fmt"\n\nfunc One() int { return 1 }\n\n'
                                         'func Bad() string { return fmt.Sprintf("%d", "x") }\n')
    plain = run(module, "go", "vet", "./...")
    through = run(module, *rtk_executable(), "go", "vet", "./...")
    assert through.returncode == plain.returncode != 0
    for line in plain.stderr.splitlines():
        if line.startswith(("#", "ok/", "calc/")):
            assert line in through.stderr + through.stdout


def test_go_build_error_verbatim(module: Path) -> None:
    (module / "calc" / "calc.go").write_text(CALC_GO + "\nfunc Broken() int { return \"s\" }\n")
    plain = run(module, "go", "build", "./...")
    through = run(module, *rtk_executable(), "go", "build", "./...")
    assert through.returncode == plain.returncode != 0
    assert plain.stderr.strip() and plain.stderr.strip() in through.stderr
