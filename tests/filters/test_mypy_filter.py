"""The mypy filter on real captures: grouped by file, every line kept, wrapped messages joined,
notes under their error."""
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


def places(out: list[str]) -> list[str]:
    """`path:line[:col]` of every error printed: `path:40: error: ...`, then `  also at L46, L51`."""
    path, found = "", []
    for line in out:
        if m := re.match(r"^(\S.*?):(\d+(?::\d+)?): error: ", line):
            path = m[1]
            found.append(f"{path}:{m[2]}")
        elif line.startswith("  also at "):
            found += [f"{path}:{where[1:]}" for where in re.findall(r"L\d+(?::\d+)?", line)]
    return found


def test_launchers_reach_mypy() -> None:
    assert filter_name_for(["python3", "-m", "mypy", "src"]) == "mypy"
    assert filter_name_for(["dmypy", "run", "--", "src"]) == "mypy"


def test_pretty_messages_are_joined_and_source_lines_dropped() -> None:
    filt, out = run("requests_strict_pretty")
    assert ('src/requests/compat.py:81: error: Module "urllib.request" has no attribute '
            '"proxy_bypass_environment"  [attr-defined]') in out
    assert not any(line.strip().startswith("^") for line in out)
    assert filt.elided


def test_pretty_and_plain_give_the_same_report() -> None:
    _, pretty = run("requests_strict_pretty")
    _, plain = run("requests_strict")
    assert pretty == plain


def test_code_alone_on_the_wrapped_line_is_found() -> None:
    _, out = run("flask_pretty_project")
    assert any(line.endswith(':116: error: Argument 1 to "asdict" has incompatible type '
                             '"DataclassInstance | type[DataclassInstance]"; expected "DataclassInstance"  [arg-type]')
               for line in out)


def test_notes_follow_their_error_and_repeated_notes_print_once() -> None:
    _, out = run("six_clean")
    at = next(i for i, line in enumerate(out)
              if line.endswith(":555: error: All conditional function variants must have identical signatures  [misc]"))
    assert out[at + 1:at + 5] == ["    note: Original:", "    note:     def callable(object, /) -> TypeIs[Callable[..., object]]",
                                  "    note: Redefinition:", "    note:     def callable(obj: Any) -> Any"]
    _, flask = run("flask_pretty_project")
    see = [line for line in flask if "running_mypy.html#missing-imports" in line]
    assert len(see) == 1


def test_same_message_in_a_file_is_one_line_with_every_place() -> None:
    """Issue 33: --strict's one message on forty functions, once, with every place (the first in
    mypy's own `path:line:` form, which a reader greps for)."""
    _, out = run("requests_strict")
    at = out.index("src/requests/structures.py:40: error: Function is missing a type annotation  [no-untyped-def]")
    assert out[at + 1] == "  also at L46, L51, L54, L57, L60, L67, L79, L86, L90, L93, L98"


def test_error_context_follows_each_place() -> None:
    _, out = run("tabulate_strict_context")
    at = next(i for i, line in enumerate(out) if ':6: error: ' in line and line.endswith('(In function "assert_equal")'))
    assert out[at + 1].startswith('  also at L12 (In function "assert_in"),')


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
                                  "pygments_strict_thousands", "mypy110_strict_pretty", "httpx_strict",
                                  "itsdangerous_strict_tests", "tabulate_strict_columns"])
def test_every_error_is_listed(case: str) -> None:
    raw = raw_lines("mypy", case)
    found = next(m for line in raw if (m := re.match(r"^Found (\d+) errors? in (\d+) files?", line)))
    _, out = run(case)
    error = re.compile(r"^(\S.*?:\d+(?::\d+)?): error: \S")
    raw_places = sorted(m[1] for line in raw if (m := error.match(line)))
    printed = sorted(places(out))
    assert len(printed) == int(found[1])
    assert printed == raw_places
    assert out[-1].startswith(f"mypy: {int(found[1]):,} error")
