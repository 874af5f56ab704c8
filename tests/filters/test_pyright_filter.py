"""The pyright filter on real captures: grouped by file, every place kept, explanations kept, counts verbatim."""
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


def expand(out: list[str]) -> list[str]:
    """Every `path:line:col` of the grouped output: the file's line, then `  L60:39, L95:7 kind: ...`."""
    places: list[str] = []
    path = ""
    for line in out:
        if not line.startswith(" ") and not re.match(r"^\d+ errors?, |^pyright: ", line):
            path = line.removesuffix(" (continued)")
        elif m := re.match(r"^  ((?:L\d+:\d+(?:, )?)+) (?:error|warning|information): \S", line):
            places += [f"{path}:{place[1:]}" for place in m[1].split(", ")]
    return places


def test_explanations_stay_under_their_diagnostic_with_plain_spaces() -> None:
    out = run("requests_plain")
    at = out.index('  L60:39 error: Type "type[SOCKSProxyManager]" is not assignable to declared type "(...) -> NoReturn"')
    assert out[:at].count("/tmp/w/h20/src/requests-2.32.3/src/requests/adapters.py") == 1  # named once
    assert out[at + 3] == '        Type "SOCKSProxyManager" is not assignable to type "NoReturn" (reportAssignmentType)'
    assert not any("\u00a0" in line for line in out)
    assert not any(line.startswith("  /tmp/") and re.search(r":\d+:\d+ - ", line) for line in out)


def test_every_diagnostic_is_counted_and_the_count_line_kept() -> None:
    raw = raw_lines("pyright", "basedpyright_requests")
    out = run("basedpyright_requests")
    raw_places = [m[1] for line in raw if (m := re.search(r"(\S+:\d+:\d+) - (?:error|warning): ", line))]
    places = expand(out)
    assert len(raw_places) == len(places) == 2684  # pyright's own count line says 2,688
    assert sorted(places) == sorted(raw_places)
    assert "137 errors, 2551 warnings, 0 notes" in out
    assert out[-1].startswith("pyright: 2,684 diagnostics (")


def test_a_long_group_names_its_file_again() -> None:
    out = run("basedpyright_requests")
    last_named = 0
    for i, line in enumerate(out):
        if not line.startswith(" "):
            last_named = i
        assert i - last_named <= 40


def test_few_diagnostics_keep_pyrights_own_count_line_only() -> None:
    out = run("click_src_errors")
    assert out[-1] == "5 errors, 6 warnings, 0 informations"
    assert out.count("/tmp/i40b/click/src/click/_compat.py") == 1


def test_clean_run_passes_through() -> None:
    assert run("rich_clean") == ["0 errors, 0 warnings, 0 informations"]
