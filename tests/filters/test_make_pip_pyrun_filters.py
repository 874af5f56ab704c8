"""make, pip and pyrun on real captures: what each drops is counted, what an agent needs stays."""
from __future__ import annotations

import re

import pytest

from rtk.filters.base import FilterContext
from rtk.filters.make import create as make_filter
from rtk.filters.pip import create as pip_filter
from rtk.filters.pip.filter import elide_versions
from rtk.filters.pyrun import create as pyrun_filter
from rtk.filters.registry import filter_name_for
from tests.filters.line_replay import FIXTURES, raw_lines, replay


def test_routing() -> None:
    assert filter_name_for(["cmake", "--build", "build"]) == "make"
    assert filter_name_for(["ninja", "-C", "bn"]) == "make"
    assert filter_name_for(["uv", "pip", "install", "x"]) == "pip"
    assert filter_name_for(["uv", "sync"]) == "pip"
    assert filter_name_for(["python", "-m", "unittest", "-v"]) == "pyrun"
    assert filter_name_for(["python3", "tool.py"]) == "pyrun"
    assert filter_name_for(["python", "-m", "pytest"]) == "pytest"


def test_make_counts_command_lines_and_keeps_diagnostics() -> None:
    raw = raw_lines("make", "lua_keep_going")
    out = replay(make_filter(FilterContext(("make", "-k"))), raw, 2)
    commands = sum(line.startswith(("gcc ", "ar ", "ranlib ")) for line in raw)
    assert [line for line in raw if ": warning:" in line or ": error:" in line] == \
        [line for line in out if ": warning:" in line or ": error:" in line]
    assert "make: Target 'all' not remade because of errors." in out
    assert out[-1] == f"build: 1 errors, 3 warnings ({commands} command lines not shown)"


def test_ninja_failed_command_is_dropped_and_failed_line_kept() -> None:
    out = replay(make_filter(FilterContext(("ninja",))), raw_lines("make", "ninja_error"))
    assert "FAILED: CMakeFiles/zlib.dir/deflate.c.o" in out
    assert not any(line.startswith("/usr/bin/cc ") for line in out)
    assert "ninja: build stopped: subcommand failed." in out


def test_version_list_keeps_both_ends() -> None:
    line = raw_lines("pip", "no_matching_version_clean")[0]
    short, elided = elide_versions(line)
    assert elided and "(from versions: 0.2.0, 0.2.1, 0.2.2, ... " in short and short.endswith("2.34.0, 2.34.1, 2.34.2)")


def test_pip_install_keeps_the_installed_line_only() -> None:
    filt = pip_filter(FilterContext(("pip", "install", "httpx")))
    out = replay(filt, raw_lines("pip", "install_ok_deps"), 0)
    assert len(out) == 1 and out[0].startswith("Successfully installed anyio-4.16.0 ")


def test_uv_changes_on_one_line() -> None:
    out = replay(pip_filter(FilterContext(("uv", "sync"))), raw_lines("pip", "uv_sync"), 0)
    assert out[-1].startswith("installed (13): anyio==4.16.0, certifi==2026.10.19.post1, ")


def test_build_failure_keeps_compiler_errors_not_chatter() -> None:
    out = replay(pip_filter(FilterContext(("pip", "install", "psutil"))), raw_lines("pip", "build_failure_cext"))
    assert "      <command-line>: fatal error: nonexistent_header_rtk.h: No such file or directory" in out
    assert "  ERROR: Failed building wheel for psutil" in out
    assert not any("copying " in line for line in out)


def test_traceback_frames_one_line_each_library_counted() -> None:
    out = replay(pyrun_filter(FilterContext(("python", "fetch_status.py"))), raw_lines("pyrun", "script_requests_chained"))
    assert "  /tmp/w/h20/pyrunwork/fetch_status.py:8 in status: return requests.get(url, timeout=2).status_code" in out
    assert "  ... 4 library frames" in out
    assert sum(line.startswith("Traceback") for line in out) == 4
    assert "During handling of the above exception, another exception occurred:" in out
    assert not any(set(line.strip()) <= {"^", "~"} and line.strip() for line in out)


def test_unittest_drops_progress_and_keeps_results() -> None:
    raw = raw_lines("pyrun", "unittest_fail_v")
    out = replay(pyrun_filter(FilterContext(("unittest", "-v"))), raw)
    heads = [line for line in raw if line.startswith(("FAIL: ", "ERROR: "))]
    assert [line for line in out if line.startswith(("FAIL: ", "ERROR: "))] == heads
    assert not any(line.endswith(" ... ok") for line in out)
    assert out[-2:] == ["Ran 55 tests in 0.199s", "FAILED (failures=1, errors=4)"]


@pytest.mark.parametrize("case", sorted(p.name for p in (FIXTURES / "make").iterdir() if (p / "raw.txt").exists()))
def test_make_keeps_every_diagnostic_and_failure_line(case: str) -> None:
    raw = raw_lines("make", case)
    out = replay(make_filter(FilterContext(("make",))), raw)
    wanted = [line.rstrip() for line in raw if re.match(r"^\S+:\d+:\d+: (?:fatal )?(?:warning|error|note)", line)
              or re.match(r"^\S*make(?:\[\d+\])?: \*\*\*|^FAILED: ", line)]
    assert [line for line in out if line in set(wanted)] == wanted


def test_progress_counts_for_the_status_line() -> None:
    filt = make_filter(FilterContext(("make", "-k")))
    replay(filt, raw_lines("make", "lua_keep_going"), 2)
    assert filt.progress() == {"commands": 34, "warnings": 3, "errors": 1}
