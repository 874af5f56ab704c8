"""The ruff filter on real captures: every output format reduces to one line per finding."""
from __future__ import annotations

import re

import pytest

from rtk.filters.base import FilterContext
from rtk.filters.registry import filter_name_for
from rtk.filters.ruff import create
from rtk.filters.ruff.check import CheckFilter
from rtk.filters.ruff.format import FormatFilter
from tests.filters.line_replay import raw_lines, replay


def run(case: str, argv: tuple[str, ...]) -> tuple[object, list[str]]:
    filt = create(FilterContext(argv))
    return filt, replay(filt, raw_lines("ruff", case))


def test_check_and_format_pick_their_filter() -> None:
    assert isinstance(create(FilterContext(("ruff", "check", "."))), CheckFilter)
    assert isinstance(create(FilterContext(("ruff", "format", "--check"))), FormatFilter)
    assert filter_name_for(["uv", "run", "ruff", "check", "src"]) == "ruff"
    assert filter_name_for(["python", "-m", "ruff", "format", "--diff"]) == "ruff"


def test_full_format_keeps_the_marked_line_and_help_not_the_frame() -> None:
    filt, out = run("check_default", ("ruff", "check", "src"))
    at = out.index("src/requests/__init__.py:86:9: B028 No explicit `stacklevel` keyword argument found")
    assert at == 0 and "src/requests/__init__.py (51)" not in out  # no file heading: the path is on the line
    assert out[at + 1:at + 3] == ["    | warnings.warn(", "    help: Set `stacklevel=2`"]
    assert not any("^^^" in line or line.startswith(("   -", "89 +")) for line in out)
    assert filt.elided and filt.failure_seen


def test_a_repeated_message_in_one_file_says_same() -> None:
    _, out = run("check_default", ("ruff", "check", "src"))
    assert "src/requests/__init__.py:104:9: B028 (same)" in out
    assert "src/requests/__init__.py:113:5: B028 (same)" in out


def test_fix_summary_is_verbatim_and_rules_are_counted() -> None:
    _, out = run("check_fix", ("ruff", "check", "--fix", "src"))
    assert "Found 71 errors (38 fixed, 33 remaining)." in out
    assert out[-1].startswith("ruff: 33 findings in ")


def test_concise_and_grouped_give_the_same_findings() -> None:
    _, concise = run("check_concise", ("ruff", "check", "--output-format", "concise", "src"))
    assert ("src/requests/__init__.py:151:25: F401 `.utils` imported but unused; consider removing, adding to "
            "`__all__`, or using a redundant alias") in concise
    _, grouped = run("check_grouped", ("ruff", "check", "--output-format", "grouped", "src"))
    assert grouped[0] == "src/flask/app.py:270:91: RUF102 [*] Invalid rule code in `# noqa`: B950"


def test_long_file_names_its_path_on_every_finding() -> None:
    raw = raw_lines("ruff", "check_all_full")
    _, out = run("check_all_full", ("ruff", "check", "httpx"))
    raw_places = [line.split("--> ")[1] for line in raw if line.lstrip().startswith("--> httpx/_urls.py:")]
    places = [line.split(": ")[0] for line in out if re.match(r"^httpx/_urls\.py:\d+:\d+: \S", line)]
    assert len(raw_places) > 40 and places == raw_places
    assert not any("(continued)" in line for line in out)


def test_format_check_lists_every_file_and_keeps_the_count() -> None:
    raw = raw_lines("ruff", "format_check_big")
    _, out = run("format_check_big", ("ruff", "format", "--check", "rich"))
    unformatted = sum(line == "unformatted: File would be reformatted" for line in raw)
    assert out[0] == "would reformat:"
    assert sum(line.startswith("  rich/") for line in out) == unformatted == 62
    assert out[-1] == "62 files would be reformatted, 16 files already formatted"


def test_format_diff_prints_every_hunk_it_was_asked_for() -> None:
    """`--diff` asks to read the changes (issue 33): every hunk line prints, only the `+++` twin
    of each `---` line and the blank lines between files go."""
    raw = raw_lines("ruff", "format_diff_httpx_docs")
    filt, out = run("format_diff_httpx_docs", ("ruff", "format", "--diff", "."))
    body = [line for line in raw if line[:1] in "+-@ " and line and not line.startswith("+++ ")]
    assert [line for line in out if line in set(body)] == body
    assert out[-1] == "17 files would be reformatted, 72 files already formatted"
    assert not filt.elided


def test_format_diff_of_a_whole_code_base_folds_past_its_budget_with_counts() -> None:
    filt, out = run("format_diff_httpx_ll100_large", ("ruff", "format", "--diff", "--line-length", "100", "."))
    shown = [line[4:] for line in out if line.startswith("--- ")]
    folded = [line.split(" (+")[0].strip() for line in out[out.index("diffs not shown:") + 1:-1]]
    assert len(shown) + len(folded) == 53 and shown and folded
    assert all(re.fullmatch(r"  \S+ \(\+\d+ -\d+\)", line) for line in out[out.index("diffs not shown:") + 1:-1])
    assert filt.elided


def test_format_diff_without_recall_prints_everything() -> None:
    raw = raw_lines("ruff", "format_diff_httpx_ll100_large")
    filt = create(FilterContext(("ruff", "format", "--diff", "."), recall_enabled=False))
    out = replay(filt, raw)
    assert sum(line.startswith("--- ") for line in out) == 53 and not filt.elided


def test_format_syntax_error_keeps_its_location() -> None:
    _, out = run("format_syntax_error", ("ruff", "format", "--check", "src"))
    assert "src/requests/help.py:135:12: invalid-syntax: Expected a parameter or the end of the parameter list" in out


def test_concise_findings_with_one_message_share_a_line() -> None:
    _, out = run("check_concise", ("ruff", "check", "--output-format", "concise", "src"))
    places = " ".join(f"src/requests/__init__.py:{n}:1" for n in (143, 148, 149, 151, 152, 164, 165, 177, 178, 179))
    assert f"{places}: E402 Module level import not at top of file" in out
    assert "ruff: 184 findings in 13 files (F401 x59, E501 x40, B904 x27, E402 x17, B028 x9, " in out[-1]


@pytest.mark.parametrize("case", ["check_default", "check_concise", "check_grouped", "check_all_full",
                                  "check_fix", "check_fix_concise", "check_syntax_error"])
def test_every_finding_is_counted(case: str) -> None:
    raw = raw_lines("ruff", case)
    raw_places: list[str] = []
    heading = ""
    for line in raw:  # concise `path:l:c: CODE`, full `--> path:l:c`, grouped `path:` then `  l:c CODE`
        if m := re.match(r"^(\S+:\d+:\d+): \S", line) or re.match(r"^\s*--> (\S+:\d+:\d+)$", line):
            raw_places.append(m[1])
        elif m := re.match(r"^\s+(\d+:\d+)\s+\S+ ", line):
            raw_places.append(f"{heading}:{m[1]}")
        elif m := re.match(r"^(\S+\.\w+):$", line):
            heading = m[1]
    findings = len(raw_places)
    _, out = run(case, ("ruff", "check"))
    places = [place for line in out if (m := re.match(r"^(\S+:\d+:\d+(?: \S+:\d+:\d+)*): \S", line))
              for place in m[1].split()]
    assert findings and sorted(places) == sorted(raw_places)
    assert out[-1].startswith(f"ruff: {findings:,} finding")


def test_show_fixes_lists_every_fixed_file() -> None:
    raw = raw_lines("ruff", "ruff04_check_fix")
    _, out = run("ruff04_check_fix", ("ruff", "check", "--fix", "--show-fixes", "src"))
    fixed = [line for line in raw if line.startswith("- ") and line.endswith(":")]
    assert fixed and [line for line in out if line in fixed] == fixed
    assert "Found 41 errors (12 fixed, 29 remaining)." in out


def test_check_diff_prints_the_fixes_it_would_make() -> None:
    filt, out = run("check_diff", ("ruff", "check", "--diff", "src"))
    assert out[:2] == ["--- src/requests/__init__.py", "@@ -98,9 +98,7 @@"]
    assert out[-1] == "Would fix 36 errors." and not filt.elided
