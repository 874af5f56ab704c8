"""npm/pnpm/yarn/bun: script resolution from package.json, chains, banners, installs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtk.filters.base import FilterContext
from rtk.filters.npm import create
from rtk.filters.npm.filter import plan
from rtk.filters.npm.route import filters_for, output_starts, tool_filter
from rtk.filters.npm.scripts import script_command
from rtk.filters.registry import filter_name_for
from tests.filters.line_replay import raw_lines, replay


def write_package(folder: Path, scripts: dict[str, str], **extra: object) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text(json.dumps({"name": folder.name, "scripts": scripts, **extra}))


@pytest.mark.parametrize(("command", "expected"), [
    ("vitest run --coverage", ["vitest"]),
    ("cross-env TZ=UTC NODE_ENV=test jest --ci", ["jest"]),
    ("tsc -b && vite build", ["tsc", "jsbuild"]),
    ("eslint . && prettier -c src test", ["eslint", "prettier"]),
    ("node --experimental-vm-modules node_modules/jest/bin/jest.js", ["jest"]),
    ("node scripts/build.js", ["node"]),
    ("npx --yes mocha test/", ["mocha"]),
    ("pnpm exec biome check .", ["biome"]),
    ("next dev", ["generic"]),
    ("next build", ["jsbuild"]),
    ("pnpm lint && vitest run", ["npm", "vitest"]),
    ("run-s lint test", ["generic"]),
])
def test_a_script_command_names_its_tools_filters(command: str, expected: list[str]) -> None:
    assert filters_for(command) == expected


def test_the_nearest_package_json_up_from_the_directory_is_read(tmp_path: Path) -> None:
    write_package(tmp_path, {"test": "vitest run", "build": "tsc -b && vite build"})
    deeper = tmp_path / "src" / "deep"
    deeper.mkdir(parents=True)
    assert script_command(["npm", "test"], str(deeper)) == "vitest run"
    assert script_command(["pnpm", "build"], str(deeper)) == "tsc -b && vite build"
    assert script_command(["npm", "run", "missing"], str(deeper)) is None
    assert script_command(["bun", "test"], str(deeper)) is None  # bun's own test runner


def test_nested_scripts_are_expanded(tmp_path: Path) -> None:
    write_package(tmp_path, {"test": "pnpm lint && vitest run --coverage", "lint": "eslint . && prettier -c src"})
    assert script_command(["npm", "test"], str(tmp_path)) == "eslint . && prettier -c src && vitest run --coverage"
    planned, install = plan(["npm", "test"], str(tmp_path))
    assert [name for name, _ in planned] == ["eslint", "prettier", "vitest"] and not install
    assert planned[2][1] == ("vitest", "run", "--coverage")


def test_workspaces_by_name_or_folder_and_prefix(tmp_path: Path) -> None:
    write_package(tmp_path, {"test": "echo root"}, workspaces=["packages/*"])
    write_package(tmp_path / "packages" / "core", {"test": "jest"})
    (tmp_path / "packages" / "core" / "package.json").write_text(json.dumps({"name": "@acme/core",
                                                                              "scripts": {"test": "jest"}}))
    assert script_command(["npm", "test", "-w", "@acme/core"], str(tmp_path)) == "jest"
    assert script_command(["npm", "--workspace=packages/core", "test"], str(tmp_path)) == "jest"
    assert script_command(["yarn", "workspace", "@acme/core", "test"], str(tmp_path)) == "jest"
    assert script_command(["npm", "--prefix", "packages/core", "test"], str(tmp_path)) == "jest"


def test_pnpm_workspace_yaml_globs(tmp_path: Path) -> None:
    write_package(tmp_path, {})
    (tmp_path / "pnpm-workspace.yaml").write_text("packages:\n  - 'apps/*'\nonlyBuiltDependencies: []\n")
    write_package(tmp_path / "apps" / "web", {"build": "next build"})
    assert script_command(["pnpm", "--filter", "web", "build"], str(tmp_path)) == "next build"


def test_broken_package_json_gives_no_script(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text("{ not json")
    assert script_command(["npm", "test"], str(tmp_path)) is None


def test_install_verbs_and_registry_routing() -> None:
    assert plan(["npm", "ci"], "/nonexistent") == ([], True)
    assert plan(["yarn"], "/nonexistent") == ([], True)
    assert plan(["pnpm", "vitest", "run"], "/nonexistent") == ([("vitest", ("vitest", "run"))], False)
    assert filter_name_for(["npm", "test"]) == "npm"
    assert filter_name_for(["npm", "run", "typecheck"]) == "tsc"  # tsc's own shape wins
    assert filter_name_for(["npm", "publish"]) == "generic"


def test_package_json_decides_before_any_banner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_package(tmp_path, {"test": "vitest run"})
    monkeypatch.chdir(tmp_path)
    lines = [line for line in raw_lines("vitest", "pathe_fail")]
    out = replay(create(FilterContext(("npm", "test"))), lines)
    assert out[-1].startswith("vitest: Test Files 1 failed | 1 passed (2) · Tests 8 failed | 379 passed (387)")


def test_banners_route_a_chain_without_package_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    filt = create(FilterContext(("npm", "test")))
    out = replay(filt, raw_lines("npm", "pathe_test_chain_fail"))
    assert not any(line.startswith(("> pathe@", "$ eslint", "Progress:")) for line in out)
    assert "prettier: All matched files use Prettier code style!" in out
    assert "  ╰─▶ Ignored build scripts: esbuild@0.24.2, esbuild@0.25.8" in out
    assert sum(line.startswith("FAIL test/index.spec.ts > ") for line in out) == 8
    assert filt.failure_seen


def test_yarn_and_bun_footers_are_dropped() -> None:
    for case, argv in (("yarn_test_jest_fail", ("yarn", "test")), ("bun_run_test_jest_fail", ("bun", "run", "test"))):
        out = replay(create(FilterContext(argv)), raw_lines("npm", case))
        assert not any(line.startswith(("error Command failed", "error: script", "$ jest", "info Visit")) for line in out)
        assert out[-1].startswith("jest: Tests 8 failed, 22 passed, 30 total")


def test_output_starts_recognise_the_next_tool() -> None:
    assert output_starts(" RUN  v4.1.12 /tmp/x") == "vitest"
    assert output_starts("FAIL test/a.test.js") == "jest"
    assert output_starts("Checking formatting...") == "prettier"
    assert output_starts("src/App.tsx(1,7): error TS2322: Type") == "tsc"
    assert output_starts("vite v8.4.0 building client environment for production...") == "jsbuild"
    assert output_starts("all good") is None
    assert tool_filter("NODE_OPTIONS=--max-old-space-size=4096 webpack --mode production") == "jsbuild"


def test_install_output_keeps_errors_and_summarises() -> None:
    out = replay(create(FilterContext(("npm", "ci"))), raw_lines("npm", "ci_no_lockfile"))
    assert out[0] == "npm error code EUSAGE" and not any("--install-strategy" in line for line in out)
    out = replay(create(FilterContext(("yarn", "add", "x"))), raw_lines("npm", "yarn_add_pass"))
    assert out == ["success Saved 85 new dependencies.", "info Direct dependencies", "├─ express@4.21.2",
                   "└─ request@2.88.2", "Done in 2.38s.", "(85 dependencies in yarn's full list not shown)"]
    out = replay(create(FilterContext(("pnpm", "add", "react"))), raw_lines("npm", "pnpm_add_pass"))
    assert "+ express 4.21.2" in out and not any("Progress" in line or "store" in line for line in out)


def test_deprecations_grouped_by_package_and_install_scripts_on_one_line() -> None:
    lines = ["npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported",
             "npm warn deprecated glob@8.1.0: Glob versions prior to v9 are no longer supported",
             "npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory.",
             "warning request > uuid@3.4.0: Please upgrade  to version 7 or higher (deprecated)",
             "", "added 60 packages, and audited 61 packages in 4s", "",
             "7 vulnerabilities (2 moderate, 5 high)",
             "npm warn install-scripts 1 package has install scripts not yet covered by allowScripts:",
             "npm warn install-scripts   core-js@2.6.12 (postinstall: node -e x)",
             "npm warn install-scripts Run `npm install-scripts ls` to review."]
    out = replay(create(FilterContext(("npm", "install"))), lines, exit_code=0)
    assert out == ["added 60 packages, and audited 61 packages in 4s", "7 vulnerabilities (2 moderate, 5 high)",
                   "deprecated: glob@7.2.3, 8.1.0: Glob versions prior to v9 are no longer supported",
                   "deprecated: inflight@1.0.6: This module is not supported, and leaks memory.",
                   "deprecated: uuid@3.4.0: Please upgrade  to version 7 or higher (deprecated)",
                   "install scripts not run: core-js@2.6.12 (run `npm install-scripts ls`)"]


def test_the_scripts_own_words_reach_the_tools_filter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_package(tmp_path, {"lint:fix": "eslint --fix ."})
    monkeypatch.chdir(tmp_path)
    out = replay(create(FilterContext(("npm", "run", "lint:fix"))), raw_lines("eslint", "pathe_fix"))
    assert out[-1] == "eslint: 4 problems (1 error, 3 warnings) in 2 files remaining after --fix"


def test_a_workspaces_run_heads_each_package_and_keeps_each_summary() -> None:
    out = replay(create(FilterContext(("npm", "test", "--workspaces"))), raw_lines("npm", "mono_test_workspaces"))
    assert [line for line in out if line.startswith(("[", "jest:"))] == [
        "[@mono/async@1.0.0]", "jest: Tests 8 passed, 8 total · Suites 1 passed, 1 total · 1.209 s",
        "[@mono/getting-started@1.0.0]", "jest: Tests 1 failed, 1 total · Suites 1 failed, 1 total · 0.979 s",
        "[@mono/module-mock@1.0.0]", "jest: Tests 4 passed, 4 total · Suites 3 passed, 3 total · 1.236 s"]
    assert not any(line.startswith("npm error") for line in out)


def test_a_pnpm_recursive_run_is_demultiplexed_per_package() -> None:
    filt = create(FilterContext(("pnpm", "-r", "test")))
    out = replay(filt, raw_lines("npm", "pnpm_recursive_test"))
    assert "[packages/getting-started]" in out and "FAIL getting-started ./sum.test.js > adds 1 + 2 to equal 3" in out
    assert "jest: Tests 8 passed, 8 total · Suites 1 passed, 1 total · 1.903 s" in out
    assert not any(line.startswith("packages/") for line in out) and filt.failure_seen


def test_pnpm_and_yarn_install_lines_of_other_versions() -> None:
    lines = [" WARN  deprecated request@2.88.2: request has been deprecated, see https://github.com/request/request/issues/3142",
             " WARN  2 deprecated subdependencies found: har-validator@5.1.5, uuid@3.4.0",
             "Already up to date", "npm notice New major version of npm available! 10.8.2 -> 11.0.0",
             "warning \" > react-dom@18.3.1\" has incorrect peer dependency \"react@^18.3.1\".",
             "Done in 0.8s"]
    out = replay(create(FilterContext(("pnpm", "install"))), lines, exit_code=0)
    assert out == [" WARN  2 deprecated subdependencies found: har-validator@5.1.5, uuid@3.4.0", "Already up to date",
                   "warning \" > react-dom@18.3.1\" has incorrect peer dependency \"react@^18.3.1\".", "Done in 0.8s",
                   "deprecated: request@2.88.2: request has been deprecated, see https://github.com/request/request/issues/3142"]


def test_eresolve_warnings_become_one_line_each_and_errors_are_explained() -> None:
    filt = create(FilterContext(("npm", "install", "--force")))
    out = replay(filt, raw_lines("npm", "install_force_peer_override"), exit_code=0)
    assert out == ["npm warn using --force Recommended protections disabled.",
                   ('peer conflict (overridden): @testing-library/react@16.1.0 wants react@"^18.0.0 || ^19.0.0", '
                    "found react@17.0.2"),
                   'peer conflict (overridden): react-dom@18.3.1 wants react@"^18.3.1", found react@17.0.2',
                   "added 21 packages in 2s"]
    assert filt.elided
    out = replay(create(FilterContext(("npm", "install"))), raw_lines("npm", "install_eresolve"))
    at = out.index('peer conflict: react-dom@18.3.1 wants react@"^18.3.1", found react@17.0.2')
    assert out[at - 1].startswith("npm error Fix the upstream dependency conflict")
    assert out[at + 1] == "npm error For a full report see:"
