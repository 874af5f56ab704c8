"""The pyright filter on real captures: no repeated paths, explanations kept, counts verbatim."""
from __future__ import annotations

import re

from rtk.filters.base import FilterContext
from rtk.filters.pyright import create
from rtk.filters.registry import filter_name_for
from tests.filters.line_replay import raw_lines, replay


def run(case: str) -> list[str]:
    return replay(create(FilterContext(("pyright",))), raw_lines("pyright", case))


def test_both_checkers_are_routed() -> None:
    assert filter_name_for(["npx", "pyright", "src"]) == "pyright"
    assert filter_name_for(["basedpyright", "src"]) == "pyright"


def test_explanations_stay_under_their_diagnostic_with_plain_spaces() -> None:
    out = run("requests_plain")
    at = out.index('  L60:39 error: Type "type[SOCKSProxyManager]" is not assignable to declared type "(...) -> NoReturn"')
    assert out[at - 1] == "/tmp/w/h20/src/requests-2.32.3/src/requests/adapters.py"
    assert out[at + 3] == '        Type "SOCKSProxyManager" is not assignable to type "NoReturn" (reportAssignmentType)'
    assert not any("\u00a0" in line for line in out)


def test_every_diagnostic_is_counted_and_the_count_line_kept() -> None:
    raw = raw_lines("pyright", "basedpyright_requests")
    out = run("basedpyright_requests")
    diagnostics = sum(bool(re.search(r":\d+:\d+ - (?:error|warning): ", line)) for line in raw)
    locations = sum(len(re.findall(r"(?:^  | )L\d+:\d+(?= )", line)) for line in out if line.startswith("  L"))
    assert diagnostics == locations == 2684  # pyright's own count line says 2,688
    assert "137 errors, 2551 warnings, 0 notes" in out
    assert out[-1].startswith("pyright: 2,684 diagnostics (")


def test_clean_run_passes_through() -> None:
    assert run("rich_clean") == ["0 errors, 0 warnings, 0 informations"]
