"""The mypy filter on real captures: wrapped messages joined, notes under their error."""
from __future__ import annotations

import re

import pytest

from rtk.filters.base import FilterContext
from rtk.filters.mypy import create
from rtk.filters.registry import filter_name_for
from tests.filters.line_replay import raw_lines, replay


def run(case: str) -> tuple[object, list[str]]:
    filt = create(FilterContext(("mypy",)))
    return filt, replay(filt, raw_lines("mypy", case))


def test_launchers_reach_mypy() -> None:
    assert filter_name_for(["python3", "-m", "mypy", "src"]) == "mypy"
    assert filter_name_for(["dmypy", "run", "--", "src"]) == "mypy"


def test_pretty_messages_are_joined_and_source_lines_dropped() -> None:
    filt, out = run("requests_strict_pretty")
    assert "  L81 [attr-defined] Module \"urllib.request\" has no attribute \"proxy_bypass_environment\"" in out
    assert not any(line.strip().startswith("^") for line in out)
    assert filt.elided


def test_pretty_and_plain_give_the_same_report() -> None:
    _, pretty = run("requests_strict_pretty")
    _, plain = run("requests_strict")
    assert pretty == plain


def test_code_alone_on_the_wrapped_line_is_found() -> None:
    _, out = run("flask_pretty_project")
    assert any(line.endswith('[arg-type] Argument 1 to "asdict" has incompatible type '
                             '"DataclassInstance | type[DataclassInstance]"; expected "DataclassInstance"')
               for line in out)


def test_notes_follow_their_error_and_repeated_notes_print_once() -> None:
    _, out = run("six_clean")
    at = out.index("  L555 [misc] All conditional function variants must have identical signatures")
    assert out[at + 1:at + 5] == ["    note: Original:", "    note:     def callable(object, /) -> TypeIs[Callable[..., object]]",
                                  "    note: Redefinition:", "    note:     def callable(obj: Any) -> Any"]
    _, flask = run("flask_pretty_project")
    see = [line for line in flask if "running_mypy.html#missing-imports" in line]
    assert len(see) == 1


def test_same_message_shares_one_line_with_every_location() -> None:
    _, out = run("requests_strict")
    assert "  L40 L46 L51 L54 L57 L60 L67 L79 L86 L90 L93 L98 [no-untyped-def] Function is missing a type annotation" in out


def test_summary_is_verbatim_and_counts_match() -> None:
    raw = raw_lines("mypy", "pygments_strict")
    _, out = run("pygments_strict")
    errors = sum(": error: " in line for line in raw)
    assert "Found 666 errors in 26 files (checked 62 source files)" in out
    assert out[-1].startswith(f"mypy: {errors} errors in 26 files (")


def test_success_and_usage_errors_pass_through() -> None:
    filt, out = run("rich_clean")
    assert out == ["Success: no issues found in 4 source files"] and not filt.failure_seen
    _, usage = run("bad_option")
    assert usage[-1] == "mypy: error: unrecognized arguments: --stict"


@pytest.mark.parametrize("case", ["requests_plain", "requests_strict", "requests_strict_pretty", "pygments_strict",
                                  "attrs_pretty_strict_cfg", "flask_pretty_project", "click_clean", "six_clean",
                                  "pygments_strict_thousands", "mypy110_strict_pretty"])
def test_every_error_is_listed(case: str) -> None:
    raw = raw_lines("mypy", case)
    found = next(m for line in raw if (m := re.match(r"^Found (\d+) errors? in (\d+) files?", line)))
    _, out = run(case)
    locations = sum(len(re.findall(r"(?:^  | )L\d+(?::\d+)?(?= )", line)) for line in out
                    if line.startswith("  L") and " note: " not in line)
    assert locations == int(found[1])
    assert out[-1].startswith(f"mypy: {int(found[1]):,} error")
