"""The go filter on real captures: failures kept whole, passing output and package noise counted."""
from __future__ import annotations

import re

import pytest

from rtk.filters.base import FilterContext
from rtk.filters.go import create
from rtk.filters.go.lines import stdlib_function
from tests.filters.line_replay import FIXTURES, raw_lines, replay


def run(case: str, argv: tuple[str, ...] = ("go", "test", "./...")) -> tuple[object, list[str]]:
    filt = create(FilterContext(argv))
    return filt, replay(filt, raw_lines("go", case))


def test_passing_verbose_run_is_its_ok_lines_and_one_count_line() -> None:
    filt, out = run("test_v_pass", ("go", "test", "-v", "./cmp/..."))
    raw = raw_lines("go", "test_v_pass")
    passed = sum(line.lstrip().startswith("--- PASS") for line in raw)
    oks = [line for line in raw if line.startswith("ok  ")]  # issue 33: which package passed, in how long
    assert out == [*oks, f"go test: 10 packages: 5 ok, 0 FAIL, 5 without tests (tests: {passed} passed)"]
    assert not filt.failure_seen


def test_verbose_failure_keeps_the_failing_subtest_output_only() -> None:
    _, out = run("test_v_fail", ("go", "test", "-v", "./..."))
    at = out.index("    --- FAIL: TestDiff/Project2/Inequal (0.00s)")
    assert out[at + 1] == "    compare_test.go:176: Diff:"
    assert not any(line.lstrip().startswith(("--- PASS", "=== RUN", "=== CONT")) for line in out)
    assert "FAIL\tgithub.com/google/go-cmp/cmp/internal/value\t0.011s" in out


def test_package_lines_are_counted_exactly() -> None:
    raw = raw_lines("go", "test_fail_many")
    _, out = run("test_fail_many")
    ok = sum(line.startswith("ok  ") for line in raw)
    none = sum(line.startswith("?   ") for line in raw)
    assert out[-1].startswith(f"go test: {ok + none + 2} packages: {ok} ok, 2 FAIL, {none} without tests")


def test_panic_keeps_user_frames_and_counts_the_rest() -> None:
    _, out = run("test_testify_fail_panic")
    at = out.index("panic: assignment to entry in nil map [recovered]")
    trace = out[at:at + 12]
    assert "\t/tmp/w/h20/gopath/src/github.com/stretchr/testify/mock/mock.go:996" in trace  # its pc offset gone
    assert "\t... 5 standard library and dependency frames" in trace
    assert not any(line.startswith("testing.tRunner") for line in trace)


def test_standard_library_functions() -> None:
    assert stdlib_function("testing.tRunner(0xc000097d40, 0x637998)")
    assert stdlib_function("runtime/debug.Stack()")
    assert stdlib_function("panic({0x5dbee0, 0x66d810})")
    assert not stdlib_function("github.com/stretchr/testify/mock.Arguments.Int({0xc0000ca780}, 0x0)")
    assert not stdlib_function("main.main()")


GO_PLACE = r"\S+\.go:\d+(?::\d+)?"


def grouped_places(out: list[str]) -> list[str]:
    """The `file:line:col` places listed under a `file: message (N times)` line."""
    return [place for line in out if re.fullmatch(rf"  {GO_PLACE}(?: {GO_PLACE})*", line) for place in line.split()]


def test_vet_findings_repeated_in_one_file_share_lines() -> None:
    raw = raw_lines("go", "vet_natural_many")
    _, out = run("vet_natural_many", ("go", "vet", "./..."))
    assert out[0] == "# github.com/alecthomas/chroma/v2/lexers"
    assert out[1] == "lexers/caddyfile.go: github.com/alecthomas/chroma/v2.Rule composite literal uses unkeyed fields (76 times)"
    assert out[2].startswith("  lexers/caddyfile.go:12:4 lexers/caddyfile.go:14:4 lexers/caddyfile.go:16:4 ")
    places = grouped_places(out)
    assert sum(place.startswith("lexers/caddyfile.go:") for place in places) == 76
    verbatim = [m[1] for line in out if (m := re.match(rf"^({GO_PLACE}): ", line))]
    raw_places = [m[1] for line in raw if (m := re.match(rf"^(?:vet: )?({GO_PLACE}): ", line))]
    assert len(raw_places) == sum(".go:" in line for line in raw)
    assert sorted(places + verbatim) == sorted(raw_places)


def test_build_errors_stay_verbatim() -> None:
    raw = raw_lines("go", "test_build_error")
    _, out = run("test_build_error")
    assert [line for line in raw if line.startswith(("#", "./"))] == [line for line in out if line.startswith(("#", "./"))]


CASES = sorted(p.name for p in (FIXTURES / "go").iterdir() if (p / "raw.txt").exists())


@pytest.mark.parametrize("case", CASES)
def test_every_failure_and_diagnostic_survives(case: str) -> None:
    raw = raw_lines("go", case)
    argv = tuple((FIXTURES / "go" / case / "command").read_text().split())
    _, out = run(case, argv)
    fails = [line.strip() for line in raw if line.lstrip().startswith("--- FAIL: ")]
    assert [line.strip() for line in out if line.lstrip().startswith("--- FAIL: ")] == fails
    assert [line for line in raw if re.match(r"^FAIL\s+\S", line)] == [line for line in out if re.match(r"^FAIL\s+\S", line)]
    diagnostics = [m[1] for line in raw if (m := re.match(r"^(?:vet: )?(\S+\.go:\d+:\d+): ", line))]
    listed = [m[1] for line in out if (m := re.match(r"^(?:vet: )?(\S+\.go:\d+:\d+): ", line))]
    assert sorted(listed + grouped_places(out)) == sorted(diagnostics)


def test_testify_panic_stack_loses_its_standard_library_frames() -> None:
    _, out = run("test_testify_fail_panic")
    at = next(i for i, line in enumerate(out) if "Panic stack:\tgoroutine 23 [running]:" in line)
    block = out[at:at + 24]
    assert not any("runtime/debug.Stack()" in line or "testing.tRunner(" in line for line in block)
    assert any(line.endswith("/testify/mock/mock.go:996") for line in block)
    assert any(line.endswith("... 4 standard library and dependency frames") for line in block)


def test_progress_counts_packages_and_tests() -> None:
    filt, _ = run("test_gopath_many_packages")
    assert filt.progress() == {"ok": 69, "FAIL": 7, "failed": 6}


def test_race_report_keeps_the_users_frames_and_counts_the_rest() -> None:
    """Issue 33: -race's standard-library frames and `created at` stacks folded to a count."""
    _, out = run("race_pflag_parse", ("go", "test", "-race", "./..."))
    assert out.count("WARNING: DATA RACE") == 4 and "==================" not in out
    assert "      /tmp/f33a/pflag/zz_race_test.go:9" in out  # the goroutine's creation, in the test
    assert not any("testing.tRunner" in line or "_testmain.go" in line for line in out)
    assert "      ... 6 standard library frames" in out  # the testing package's own goroutine
