"""`rtk cargo test` for real: a generated crate with a warning and a failing test, real cargo."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import rtk_executable


def cargo_unusable() -> str | None:
    """Why cargo cannot build here, or None. rustup's `cargo` proxy exists even when no toolchain
    is installed or chosen (a HOME without `rustup default`): it then fails on every call."""
    if shutil.which("cargo") is None:
        return "cargo is not installed"
    try:
        probe = subprocess.run(["cargo", "--version"], capture_output=True, text=True, check=False, timeout=120,
                               env={**os.environ, "RUST_BACKTRACE": "0"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"cargo --version failed: {exc}"
    if probe.returncode != 0:
        first = (probe.stderr.strip().splitlines() or [f"exit {probe.returncode}"])[0]
        return f"cargo cannot run here (no default Rust toolchain?): {first}"
    return None


WHY_NOT = cargo_unusable()
pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")

LIB_RS = """\
pub fn add(a: i32, b: i32) -> i32 {
    let unused_total = a;
    a - b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 3), 5);
    }

    #[test]
    fn zero() {
        assert_eq!(add(0, 0), 0);
    }
}
"""


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    root = tmp_path / "e2e_crate"
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text('[package]\nname = "e2e_crate"\nversion = "0.1.0"\nedition = "2021"\n')
    (root / "src" / "lib.rs").write_text(LIB_RS)
    return root


def run_in(crate: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARGO_TARGET_DIR": str(crate.parent / "target"), "CARGO_TERM_COLOR": "never"}
    env.pop("RUST_BACKTRACE", None)
    return subprocess.run(args, check=False, cwd=crate, env=env, capture_output=True, text=True, timeout=300)


def test_rtk_cargo_test_reports_the_failure_the_warning_and_one_summary(crate: Path) -> None:
    result = run_in(crate, *rtk_executable(), "cargo", "test")
    assert result.returncode == 101  # cargo's own exit code
    out, err = result.stdout, result.stderr
    assert "---- tests::adds stdout ----" in out
    assert "panicked at src/lib.rs:12:9:" in out
    assert "  left: -1" in out and " right: 5" in out
    assert "failures: tests::adds" in out
    assert "cargo test: 1 passed, 1 failed, 0 ignored (1 suite" in out
    assert "warning: unused variable: `unused_total`" in err
    assert "src/lib.rs:2:9" in err  # under `cargo test` a warning is one line with its place
    assert "error: test failed, to rerun pass `--lib`" in err
    for noise in ("Compiling e2e_crate", "running 2 tests", "test tests::zero ... ok", "test result:"):
        assert noise not in out + err


def test_rtk_cargo_build_success_is_one_line(crate: Path) -> None:
    result = run_in(crate, *rtk_executable(), "cargo", "build")
    assert result.returncode == 0
    # The warning's source line was dropped (the `-->` location points at it): only the recall hint.
    assert re.fullmatch(r"\[full output: rtk recall [0-9a-f]+\]\n", result.stdout)
    lines = result.stderr.splitlines()
    assert lines[-1].startswith("cargo build: ok (1 crate, 1 warning, ")
    assert "warning: unused variable: `unused_total`" in lines


BROKEN_RS = """\
pub fn total(items: &[u64]) -> u32 {
    let first = items.first();
    items.iter().sum::<u64>()
}
"""


def test_rtk_cargo_build_error_is_one_line_per_label(crate: Path) -> None:
    (crate / "src" / "lib.rs").write_text(BROKEN_RS)
    result = run_in(crate, *rtk_executable(), "cargo", "build")
    assert result.returncode == 101
    err = result.stderr
    assert "error[E0308]: mismatched types" in err
    assert "--> src/lib.rs:3:5" in err
    assert "\n  ^ expected `u32`, found `u64`\n" in err  # the primary label, placed by `-->`
    assert "\n  1:32 - expected `u32` because of return type\n" in err
    assert "\n  3 | items.iter().sum::<u64>().try_into().unwrap()\n" in err  # the suggested fix
    assert "pub fn total" not in err and "let first" not in err  # source lines went
    assert "error: could not compile `e2e_crate`" in err
