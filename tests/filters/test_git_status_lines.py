"""The string-method readers of git status lines agree with the regexes they replaced."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.git.status_lines import branch_part, file_entry, is_hint

BRANCH_RES = (
    (re.compile(r"On branch (.+)"), "branch {0}"),
    (re.compile(r"HEAD detached (at|from) (.+)"), "HEAD detached {0} {1}"),
    (re.compile(r"Not currently on any branch\."), "HEAD detached"),
    (re.compile(r"No commits yet"), "no commits yet"),
    (re.compile(r"Your branch is up to date with '(.+)'\."), "up to date with {0}"),
    (re.compile(r"Your branch is ahead of '(.+)' by (\d+) commits?\."), "ahead of {0} by {1}"),
    (re.compile(r"Your branch is behind '(.+)' by (\d+) commits?, and can be fast-forwarded\."),
     "behind {0} by {1}, can fast-forward"),
    (re.compile(r"Your branch and '(.+)' have diverged,"), "diverged from {0}"),
    (re.compile(r"and have (\d+) and (\d+) different commits each, respectively\."),
     "{0} ahead, {1} behind (have {0} and {1} different commits each)"),
    (re.compile(r"Your branch is based on '(.+)', but the upstream is gone\."), "upstream {0} is gone"),
)
HINT_RE = re.compile(r"\s+\(.*\)$")
FILE_RE = re.compile(r"\t([a-z ]+):\s+(.*)$")

PIECES = ["On branch ", "HEAD detached ", "at ", "from ", "Not currently on any branch.", "No commits yet",
          "Your branch is up to date with '", "'.", "Your branch is ahead of '", "Your branch is behind '",
          "' by ", " commit.", " commits.", " commit, and can be fast-forwarded.",
          " commits, and can be fast-forwarded.", "Your branch and '", "' have diverged,", "and have ",
          " and ", " different commits each, respectively.", "Your branch is based on '",
          "', but the upstream is gone.", "'", " ", "  (", ")", "(", "\t", ":", "   ", "modified",
          "new file", "both modified", "x", "main", "origin/main", "0", "12", "٣", "\r", "\u00a0", "A"]
# one line of output: the splitter never leaves a newline in it
lines = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=8).map("".join).map(lambda t: t.replace("\n", ""))


def reference_branch(text: str) -> str | None:
    for regex, template in BRANCH_RES:
        if (m := regex.fullmatch(text)) is not None:
            return template.format(*m.groups())
    return None


@settings(max_examples=3000)
@given(lines)
def test_branch_part_is_the_regex_table(text: str) -> None:
    assert branch_part(text) == reference_branch(text)


@settings(max_examples=3000)
@given(lines)
def test_hint_and_file_lines_are_the_regexes(text: str) -> None:
    assert is_hint(text) == bool(HINT_RE.fullmatch(text) and text.startswith("  ("))
    m = FILE_RE.match(text)
    assert file_entry(text) == ((m[1], m[2]) if m else None)


def test_real_lines() -> None:
    assert branch_part("Your branch is ahead of 'origin/main' by 3 commits.") == "ahead of origin/main by 3"
    assert branch_part("and have 2 and 5 different commits each, respectively.") == \
        "2 ahead, 5 behind (have 2 and 5 different commits each)"
    assert file_entry("\tboth modified:   src/a b.py") == ("both modified", "src/a b.py")
    assert is_hint('  (use "git add <file>..." to update what will be committed)')
