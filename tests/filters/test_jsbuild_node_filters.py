"""JS builds (vite, rollup, tsup, unbuild, webpack, next) and `node script.js` on real captures."""
from __future__ import annotations

from rtk.filters.base import FilterContext
from rtk.filters.jsbuild import create as jsbuild
from rtk.filters.jsbuild.sizes import SizeTable
from rtk.filters.node import create as node
from tests.filters.line_replay import raw_lines, replay


def run(case: str) -> tuple[object, list[str]]:
    filt = jsbuild(FilterContext(("vite", "build")))
    return filt, replay(filt, raw_lines("jsbuild", case))


def test_vite_success_is_one_line_with_the_largest_outputs() -> None:
    filt, out = run("vite_react_many_chunks")
    assert out == [("✓ built in 498ms · output: 144 files, 571.59 kB total; largest: dist/assets/index-DvB52pJp.js "
                    "242.47 kB (gzip 74.52 kB), dist/assets/moment-DKZaqNSP.js 59.58 kB, "
                    "dist/assets/hero-CLDdwZDr.png 13.05 kB")]
    assert filt.elided


def test_errors_keep_their_code_frame_but_no_dependency_frames() -> None:
    filt, out = run("vite_vanilla_missing_import")
    assert "[UNRESOLVED_IMPORT] Could not resolve './utils/price' in src/main.ts" in out
    assert "   ╭─[ src/main.ts:1:29 ]" in out
    assert not any("node_modules" in line for line in out) and filt.failure_seen


def test_webpack_keeps_every_error_and_its_first_importer() -> None:
    _, out = run("webpack_express_errors")
    assert sum(line.startswith("ERROR in ") for line in out) == 37
    assert out[-1] == "webpack 5.113.0 compiled with 37 errors and 1 warning in 807 ms"
    _, out = run("next_build_type_error")
    assert out.index("✓ Compiled successfully in 2.4s") < out.index("Failed to type check.")
    assert not any(line.startswith(("cacheable modules", "  modules by path", "    at Hook.eval")) for line in out)


def test_rollup_warnings_in_full_and_unbuild_errors_once() -> None:
    _, out = run("rollup_dayjs_warnings")
    assert out[:4] == ["(!) Unresolved dependencies",
                       "https://rollupjs.org/troubleshooting/#warning-treating-module-as-external-dependency",
                       'lodash.merge (imported by "src/plugin/utc/index.js")',
                       'fast-deep-equal (imported by "src/plugin/utc/index.js")']
    _, out = run("unbuild_pathe_missing_module")
    assert sum("Could not resolve \"./_glob\"" in line for line in out) == 2  # two different messages


def test_size_units() -> None:
    table = SizeTable()
    assert table.feed("ESM dist/defu.mjs 2.07 KB") and table.feed("asset main.js 6.42 KiB [emitted] (name: main)")
    assert not table.feed("src/index.js → dist...")
    assert table.report()[0].startswith("output: 2 files")


def test_node_drops_internal_frames_keeps_user_ones() -> None:
    filt = node(FilterContext(("node", "examples/hello-world/index.js")))
    out = replay(filt, raw_lines("node", "express_listen_typeerror"))
    assert "TypeError: Cannot read properties of undefined (reading 'toString')" in out
    assert "    at Function.listen (/tmp/w/h19/proj/express/lib/application.js:600:47)" in out
    assert not any("node:internal" in line or line.startswith("Node.js v") for line in out)
    assert filt.failure_seen


def test_node_test_runner_tap_and_spec_keep_failures_and_counts() -> None:
    for case in ("commander_node_test_fail", "commander_node_test_spec_fail"):
        filt = node(FilterContext(("node", "--test")))
        out = replay(filt, raw_lines("node", case))
        assert out[-1] == "node --test: tests 48, pass 43, fail 5", case
        assert sum("when option defined with --word-" in line for line in out) == 5, case
        assert "  at /tmp/w/h19/proj/commander.js/tests/options.camelcase.test.js:12:12" in out, case
        assert not any("node:internal" in line or line.lstrip().startswith(("ok ", "✔", "# Subtest")) for line in out)
        assert filt.failure_seen
    out = replay(node(FilterContext(("node", "--test"))), raw_lines("node", "commander_node_test_pass"), 0)
    assert out == ["node --test: tests 42, pass 42, fail 0"]
