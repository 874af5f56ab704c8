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
    assert ('src/flask/json/provider.py:116: error: Argument 1 to "asdict" has incompatible type '
            '"DataclassInstance | type[DataclassInstance]"; expected "DataclassInstance"  [arg-type]') in out


def test_notes_follow_their_error_and_repeated_notes_print_once() -> None:
    _, out = run("six_clean")
    at = out.index("six.py:555: error: All conditional function variants must have identical signatures  [misc]")
    assert out[at + 1:at + 5] == ["six.py:555: note: Original:",
                                  "six.py:555: note:     def callable(object, /) -> TypeIs[Callable[..., object]]",
                                  "six.py:555: note: Redefinition:", "six.py:555: note:     def callable(obj: Any) -> Any"]
    _, flask = run("flask_pretty_project")
    see = [line for line in flask if "running_mypy.html#missing-imports" in line]
    assert len(see) == 1


def test_same_message_keeps_every_location_on_its_own_line() -> None:
    _, out = run("requests_strict")
    message = "Function is missing a type annotation  [no-untyped-def]"
    first = out.index(f"src/requests/structures.py:40: error: {message}")
    at = [first]
    for n in (46, 51, 54, 57, 60, 67, 79, 86, 90, 93, 98):  # each later place on its own line, in order
        where = f"src/requests/structures.py:{n}: error: "
        at.append(next(i for i, line in enumerate(out)
                       if line in (where + message, where + "(same as line 40)")))
    assert at == sorted(at)


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
    error = re.compile(r"^(\S.*?:\d+(?::\d+)?): error: \S")
    raw_places = sorted(m[1] for line in raw if (m := error.match(line)))
    places = sorted(m[1] for line in out if (m := error.match(line)))
    assert len(places) == int(found[1])
    assert places == raw_places
    assert out[-1].startswith(f"mypy: {int(found[1]):,} error")
