"""The JavaScript tools for real: the installed rtk runs vitest, jest, mocha, eslint, prettier,
rollup, node and `npm test` on a small generated project.

The tools come from `node_modules/.bin` under $RTK_TEST_JS_ROOT or the repository root (CI:
`npm install --prefix . --no-save vitest@4 jest@30 mocha@11 eslint@9 prettier@3 rollup@4`;
node_modules is gitignored). The project links that node_modules so test files can import
`vitest`. A tool that is missing skips its test with the reason; no network is used.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, rtk_executable

JS_ROOT = Path(os.environ.get("RTK_TEST_JS_ROOT", ROOT))
BIN = JS_ROOT / "node_modules" / ".bin"
INSTALL_HINT = "npm install --prefix . --no-save vitest@4 jest@30 mocha@11 eslint@9 prettier@3 rollup@4"
pytestmark = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="node/npm are not installed")

SUM_JS = "export function sum(a, b) {\n  return a + b\n}\n\nexport function half(n) {\n  return n / 3\n}\n"
CASES = "\n".join(f"  test('adds {i}', () => {{ expect(sum({i}, 1)).toBe({i + 1}) }})" for i in range(30))
VITEST_TEST = ("import { describe, test, expect } from 'vitest'\nimport { sum, half } from './sum.js'\n\n"
               f"describe('sum', () => {{\n{CASES}\n  test('halves', () => {{ expect(half(8)).toBe(4) }})\n}})\n")
JEST_TEST = VITEST_TEST.replace("import { describe, test, expect } from 'vitest'\n", "").replace(
    "import { sum, half } from './sum.js'", "const { sum, half } = require('./sum.cjs')")
MOCHA_TEST = ("const assert = require('node:assert')\nconst { sum, half } = require('./sum.cjs')\n\n"
              "describe('sum', () => {\n" + "\n".join(f"  it('adds {i}', () => assert.strictEqual(sum({i}, 1), {i + 1}))"
                                                    for i in range(30))
              + "\n  it('halves', () => assert.strictEqual(half(8), 4))\n})\n")
LINTED_JS = "const path = require('node:path')\nlet answer = 42\nmodule.exports = function run() {\n  return answer\n}\n"
ESLINT_CONFIG = ("module.exports = [{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' },\n"
                 "  rules: { 'no-unused-vars': 'error', 'prefer-const': 'error', 'no-var': 'warn' } }]\n")


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{name} is not installed under {JS_ROOT} (CI: {INSTALL_HINT})")
    return str(path)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "e2e_js"
    root.mkdir()
    (root / "node_modules").symlink_to(JS_ROOT / "node_modules")
    (root / "sum.js").write_text(SUM_JS)
    (root / "sum.cjs").write_text(SUM_JS.replace("export function", "function")
                                  + "module.exports = { sum, half }\n")
    return root


def run(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "CI": "true", "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run([*rtk_executable(), *argv], check=False, cwd=project, capture_output=True, text=True,
                          timeout=300, env=env)


def raw(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "CI": "true", "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(list(argv), check=False, cwd=project, capture_output=True, text=True, timeout=300, env=env)


def test_vitest_failure_keeps_id_message_location_and_summary(project: Path) -> None:
    (project / "sum.test.js").write_text(VITEST_TEST)
    vitest = tool("vitest")
    result = run(project, vitest, "run")
    assert result.returncode == raw(project, vitest, "run").returncode == 1
    out = result.stdout + result.stderr  # vitest reports failures on stderr, the summary on stdout
    assert "FAIL sum.test.js > sum > halves" in out
    assert "AssertionError: expected 2.6666666666666665 to be 4" in out and "sum.test.js:" in out
    assert result.stdout.rstrip().splitlines()[-1].startswith(
        "vitest: Test Files 1 failed (1) · Tests 1 failed | 30 passed (31)")
    assert "✓" not in out and "RUN" not in out


def test_npm_test_is_served_by_the_scripts_tool(project: Path) -> None:
    (project / "sum.test.js").write_text(VITEST_TEST)
    tool("vitest")
    (project / "package.json").write_text('{"name": "e2e", "version": "1.0.0", "type": "module",'
                                          ' "scripts": {"test": "vitest run"}}\n')
    result = run(project, "npm", "test")
    assert result.returncode == 1
    out = result.stdout + result.stderr
    assert "> e2e@1.0.0 test" not in out and "npm error" not in out
    assert "FAIL sum.test.js > sum > halves" in out and "vitest: Test Files 1 failed (1)" in out


def test_jest_failure_and_summary(project: Path) -> None:
    (project / "sum.test.js").write_text(JEST_TEST)
    (project / "package.json").write_text('{"name": "e2e", "version": "1.0.0"}\n')
    jest = tool("jest")
    result = run(project, jest, "--ci")
    assert result.returncode == 1
    out = result.stdout + result.stderr
    assert "sum.test.js > sum › halves" in out and "Expected: 4" in out and "Received: 2.6666666666666665" in out
    assert "jest: Tests 1 failed, 30 passed, 31 total" in out and "✓" not in out


def test_mocha_failure_and_summary(project: Path) -> None:
    (project / "sum.spec.cjs").write_text(MOCHA_TEST)
    mocha = tool("mocha")
    result = run(project, mocha, "sum.spec.cjs")
    assert result.returncode == 1
    out = result.stdout
    assert "1) sum > halves:" in out and "AssertionError" in out and "sum.spec.cjs:" in out
    assert out.rstrip().splitlines()[-1].startswith("mocha: 30 passing") and "✔" not in out


def test_eslint_problems_with_positions_and_totals(project: Path) -> None:
    eslint = tool("eslint")
    (project / "eslint.config.cjs").write_text(ESLINT_CONFIG)
    lib = project / "lib"
    lib.mkdir()
    for name in ("a.js", "b.js", "c.js"):
        (lib / name).write_text(LINTED_JS)
    result = run(project, eslint, "lib")
    assert result.returncode == raw(project, eslint, "lib").returncode == 1
    out = result.stdout
    assert "lib/a.js" in out and "L1:7 error no-unused-vars: 'path' is assigned a value but never used" in out
    assert "L2:5 error prefer-const" in out and "eslint: 6 problems (6 errors, 0 warnings) in 3 files" in out


def test_prettier_check_lists_files(project: Path) -> None:
    prettier = tool("prettier")
    for i in range(12):
        (project / f"ugly{i}.js").write_text("const  x = {a:1,\n b:2}\n")
    result = run(project, prettier, "--check", ".")
    assert result.returncode == 1
    out = result.stdout + result.stderr
    assert "ugly0.js" in out and "sum.cjs" in out and "[warn]" not in out
    assert "prettier: 14 files need formatting" in out


def test_rollup_build_one_line(project: Path) -> None:
    rollup = tool("rollup")
    result = run(project, rollup, "sum.js", "--file", "dist/sum.js", "--format", "es")
    assert result.returncode == 0
    assert "created dist/sum.js" in result.stdout + result.stderr


def test_node_script_failure_drops_internal_frames(project: Path) -> None:
    (project / "crash.cjs").write_text("const { half } = require('./sum.cjs')\nhalf(2).toFixed(undefined.x)\n")
    result = run(project, "node", "crash.cjs")
    assert result.returncode == 1
    err = result.stdout + result.stderr
    assert "TypeError: Cannot read properties of undefined (reading 'x')" in err and "crash.cjs:2" in err
    assert "node:internal" not in err and "Node.js v" not in err
