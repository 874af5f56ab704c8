"""The str-method line readers of grep, wc, tree and diff agree with the regexes they replaced
(those filters do without `re` so a short `grep`/`wc`/`tree`/`diff` run never imports it)."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.diff.model import HUNK_PATTERN, hunk_counts
from rtk.filters.find.middle import MiddleElider
from rtk.filters.grep.lines import (
    CONTEXT_PATTERN,
    ERROR_PATTERN,
    MATCH_PATTERN,
    NUM_PATTERN,
    PATH_PATTERN,
    is_error,
    parse,
    split_number,
    split_numbered,
)
from rtk.filters.tree.filter import is_counts
from rtk.filters.wc.counts import COUNTS_PATTERN, split_counts

DIGITS = ["0", "7", "12", "305", "٣", "١٢", "²"]  # Arabic-Indic digits are `\d`, a superscript is not
SPACES = [" ", "  ", "\t", "\u00a0", "\u2003", "\r", "\x0b", "\n"]
PIECES = [*DIGITS, *SPACES, ":", "-", ",", "+", "@@", "@@ -", " +", " @@", "src/a.py", "a-1-b", "x:2:y",
          "grep: ", "egrep: ", "rg: ", "Binary file ", " matches", ": binary file matches", "a", "é",
          " director", "y", "ies", ", ", " file", "s", "directory", "files"]
lines = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=10).map("".join)


def groups(pattern: str, text: str, names: tuple[str, ...]) -> tuple[str, ...] | None:
    found = re.match(pattern, text)
    return tuple(found[name] for name in names) if found else None


@settings(max_examples=3000, deadline=None)
@given(lines)
def test_grep_readers_equal_their_regexes(text: str) -> None:
    assert split_numbered(text, ":") == groups(MATCH_PATTERN, text, ("path", "num", "text"))
    assert split_numbered(text, "-") == groups(CONTEXT_PATTERN, text, ("path", "num", "text"))
    assert split_number(text) == groups(NUM_PATTERN, text, ("num", "sep", "text"))
    assert is_error(text) == (re.match(ERROR_PATTERN, text) is not None)
    path_only = parse(text, "", paths=True, numbers=False)
    assert (None if path_only is None else (path_only.path, path_only.text)) == \
        groups(PATH_PATTERN, text, ("path", "text"))


@settings(max_examples=3000, deadline=None)
@given(lines)
def test_wc_reader_equals_its_regex(text: str) -> None:
    found = re.match(COUNTS_PATTERN, text)
    assert split_counts(text) == ((found[1], found[2]) if found else None)


@settings(max_examples=3000, deadline=None)
@given(lines)
def test_tree_counts_equal_the_regex(text: str) -> None:
    assert is_counts(text) == (re.match(r"^\d+ director(?:y|ies)(?:, \d+ files?)?$", text) is not None)


@settings(max_examples=3000, deadline=None)
@given(lines)
def test_hunk_header_reader_equals_its_regex(text: str) -> None:
    found = re.match(HUNK_PATTERN, text)
    assert hunk_counts(text) == ((found[1], found[2]) if found else None)


def test_readers_on_real_layouts() -> None:
    assert split_numbered("src/a-1-b.py:12:  x = 1", ":") == ("src/a-1-b.py", "12", "  x = 1")
    assert split_numbered("a:b:3:c", ":") == ("a:b", "3", "c")
    assert split_counts("  12  40 310 src/a.py") == ("12  40 310", "src/a.py")
    assert split_counts("3 12abc") == ("3", "12abc")
    assert is_counts("3 directories, 12 files") and is_counts("1 directory") and not is_counts("3 director")
    assert hunk_counts("@@ -1,5 +1 @@ def f():") == ("5", None)
    assert is_error("Binary file dist/app.bin matches") and is_error("dist/app.bin: binary file matches")


def test_the_current_file_is_read_first_when_its_name_holds_a_location() -> None:
    """`a-1-b.txt-12-text`: the regex alone reads path `a`; the file grep is in says otherwise."""
    hit = parse("a-1-b.txt-12-text", "a-1-b.txt", paths=True, numbers=True, context=True)
    assert hit is not None and (hit.path, hit.num, hit.is_match, hit.text) == ("a-1-b.txt", "12", False, "text")


@given(st.lists(st.sampled_from(["a/", "b/", "c/", "", "d/e/", "f/", "g/", "h/", "i/", "j/"]), max_size=80),
       st.integers(2, 20))
def test_the_elider_names_hidden_groups_as_counter_most_common_did(seen: list[str], size: int) -> None:
    from collections import Counter

    from rtk.filters.base import elision_marker

    elider = MiddleElider(size, size // 2)
    hidden: Counter[str] = Counter()
    for n, group in enumerate(seen):
        elider.add(f"{group}{n}", group)
        if n >= elider.head_size + elider.tail_size:
            hidden[seen[n - elider.tail_size]] += 1
    parts = [f"{group or '.'}: {count:,}" for group, count in hidden.most_common(8)]
    if len(hidden) > 8:
        parts.append(f"{len(hidden) - 8:,} more dirs")
    assert elider.marker("paths") == elision_marker(sum(hidden.values()), "paths", ", ".join(parts))
