"""The string-method readers of git log and hunk header lines agree with the regexes they replaced."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.git.log_lines import (
    MONTHS,
    author_name,
    commit_line,
    date_value,
    hunk_marker,
    is_trailer,
    new_start,
    short_date,
)

COMMIT_RE = re.compile(r"commit ([0-9a-f]{7,64})(\s.*)?$")
AUTHOR_RE = re.compile(r"Author:\s+(.*?)(?:\s+<[^>]*>)?$")
DATE_RE = re.compile(r"Date:\s+(.*)$")
DEFAULT_DATE_RE = re.compile(r"\w{3} (\w{3}) (\d{1,2}) \d\d:\d\d:\d\d (\d{4})(?: [+-]\d{4})?$")
ISO_DATE_RE = re.compile(r"(\d{4}-\d\d-\d\d)[ T]\d\d:\d\d")
TRAILER_RE = re.compile(
    r"\s*(?:BREAKING[ -]CHANGE\b|(?:Fix(?:e[sd])?|Close[sd]?|Resolve[sd]?)\b:?\s*\S*#\d+|Reverts?\b)",
    re.IGNORECASE)
HUNK_RE = re.compile(r"(@@+) -\d+")
NEW_START_RE = re.compile(r" \+(\d+)")

PIECES = ["commit ", "a1b2c3d", "0123456789abcdef0123456789abcdef01234567", "f" * 30, "A", " (HEAD -> main)",
          "Author:", "Date:", "   ", " ", "\t", "\u00a0", "\u2003", "Ada Lovelace", " <ada@example.com>", "<", ">",
          "Thu", "Aug", "Jan", "20", "5", "09:12:10", ":", "2026", "-0700", "+0100", "-", "T", "٣", "2026-08-20",
          "Fixes", "fix", "Closed", "resolves", "RESOLVED", "Revert", "reverts", "BREAKING", "CHANGE", "change",
          "breaking-change", "#", "#12", "gh-3#4", "x", "_", "1", "\u0130", "\u0131", "\u017f", "\u212a", "clo\u017fes",
          "@@", "@@@", " -1,3", " +12,4", " +", "+7", "@@ -0,0 +1 @@", "\r"]
lines = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=9).map("".join).map(
    lambda t: t.replace("\n", ""))  # one line of output: the splitter never leaves a newline in it

HEXES = st.text(alphabet="0123456789abcdefA", min_size=5, max_size=70)
commits = st.tuples(HEXES, lines).map(lambda t: f"commit {t[0]}{t[1]}")
headers = st.tuples(st.sampled_from(["Author:", "Date:"]), st.sampled_from(["", " ", "   ", "\t", "\u00a0"]),
                    st.lists(st.sampled_from(["Ada", " ", "Lovelace", "<", ">", "a@b", "<a@b>", " <x@y>", "\t", "x"])
                             | st.text(max_size=2), max_size=8).map("".join)).map("".join)
DATE_PARTS = (["Thu", "Mon", "Th", "٣٣٣", "x_y"], ["Aug", "Jan", "Dec", "aug", "Foo"], ["20", "5", "٣", "123", "x"],
              ["09:12:10", "9:12:10", "09:12:1٣", "09-12-10"], ["2026", "٢٠٢٦", "999", "20266"],
              ["-0700", "+0100", "0700", "+07000", "+٠٠٠٠"])
dates = st.tuples(*(st.sampled_from(options) for options in DATE_PARTS), st.integers(4, 6),
                  st.sampled_from([" ", " ", " ", "  ", "\t"])).map(lambda t: t[7].join(t[:t[6]]))
iso_dates = st.tuples(st.sampled_from(["2026-08-20", "2026-8-20", "٢٠٢٦-08-20", "2026/08/20"]),
                      st.sampled_from([" ", "T", "t", ""]), st.sampled_from(["09:12", "09:1", "٠٩:12", "09:12:10 +0200"]),
                      ).map("".join)


def reference_short_date(text: str) -> str:
    if (m := DEFAULT_DATE_RE.match(text)) is not None and m[1] in MONTHS:
        return f"{m[3]}-{MONTHS[m[1]]:02d}-{int(m[2]):02d}"
    if (m := ISO_DATE_RE.match(text)) is not None:
        return m[1]
    return text


@settings(max_examples=6000)
@given((lines | commits | headers | dates | iso_dates | st.tuples(st.sampled_from(["Date:   ", "Date: "]), dates).map("".join))
       .map(lambda t: t.replace("\n", "")))
def test_header_readers_are_the_regexes(text: str) -> None:
    m = COMMIT_RE.match(text)
    assert commit_line(text) == ((m[1], m[2] or "") if m else None)
    m = AUTHOR_RE.match(text)
    assert author_name(text) == (m[1] if m else None)
    m = DATE_RE.match(text)
    assert date_value(text) == (m[1] if m else None)
    assert short_date(text) == reference_short_date(text)
    if m is not None:
        assert short_date(m[1]) == reference_short_date(m[1])


@settings(max_examples=3000)
@given(dates | iso_dates)
def test_short_date_is_the_regexes(text: str) -> None:
    assert short_date(text) == reference_short_date(text)


trailers = st.tuples(st.sampled_from(["", " ", "    ", "\t"]), st.sampled_from(
    ["Fixes", "fix", "FIXED", "closes", "Close", "resolved", "Revert", "reverts", "Reverted", "BREAKING", "breaking",
     "Fixe", "clo\u017fes", "F\u0130x", "\u212aeep"]), st.sampled_from(["", ":", " ", ": ", "_", "x", " CHANGE", "-change",
                                                                      " CHANGEs"]),
    st.sampled_from(["", " ", "#", "#12", "gh#3", "a/b#٣", "# 4", " #5 x", "x #6"])).map("".join)


@settings(max_examples=6000)
@given(lines | trailers)
def test_trailer_and_hunk_readers_are_the_regexes(text: str) -> None:
    assert is_trailer(text) == bool(TRAILER_RE.match(text))
    m = HUNK_RE.match(text)
    assert hunk_marker(text) == (m[1] if m else None)
    m = NEW_START_RE.search(text)
    assert new_start(text) == (m[1] if m else None)


def test_real_lines() -> None:
    assert commit_line("commit 1f6589e0a4c0b1d2 (HEAD -> main, tag: v1)") == ("1f6589e0a4c0b1d2", " (HEAD -> main, tag: v1)")
    assert author_name("Author: dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>") == "dependabot[bot]"
    assert short_date("Mon Aug 3 11:52:44 2026 -0600") == "2026-08-03"
    assert short_date("2026-08-03T11:52:44+02:00") == "2026-08-03"
    assert short_date("3 days ago") == "3 days ago"
    assert is_trailer("    Fixes: #1234") and is_trailer("BREAKING CHANGE: x") and is_trailer("Reverts abc")
    assert not is_trailer("    Fixed the parser") and not is_trailer("    Closes the door")
    assert hunk_marker("@@@ -1,2 -1,2 +1,3 @@@ def f():") == "@@@"
    assert new_start("@@ -10,7 +12,8 @@ x") == "12"


PROBE = """
import sys
before = set(sys.modules)  # json imports re: it comes after the count
from rtk.filters.base import FilterContext, Stream
from rtk.filters.git import create
for argv, raw in {cases!r}:
    filt = create(FilterContext(tuple(argv), True, {{}}))
    for line in open(raw, encoding="utf-8").read().splitlines():
        list(filt.feed(line, Stream.STDOUT))
    list(filt.finish(0))
loaded = sorted(set(sys.modules) - before)
import json
print(json.dumps(loaded))
"""


def test_the_log_and_patch_filters_import_no_regex_engine() -> None:
    """`rtk git log`, `git log -p` and `git diff` read their lines without `re` (issue 22)."""
    fixtures = Path(__file__).parents[2] / "fixtures" / "git"
    cases = [(["git", "log", "-n", "30"], str(fixtures / "log_n30_express" / "raw.txt")),
             (["git", "log", "-p", "-20"], str(fixtures / "requests_log_p_20" / "raw.txt")),
             (["git", "diff", "v3.5.0", "v3.5.4"], str(fixtures / "diff_lockfile_core" / "raw.txt"))]
    proc = subprocess.run([sys.executable, "-c", PROBE.format(cases=cases)], capture_output=True, text=True,
                          check=True)
    loaded = set(json.loads(proc.stdout))
    assert not loaded & {"re", "enum", "collections", "typing"}, sorted(loaded)
