"""The string-method readers of git's write-command lines agree with the regexes they replaced."""
from __future__ import annotations

import json
import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.git.write_lines import (
    change_groups,
    is_commit_head,
    is_progress,
    ref_groups,
    simple_groups,
    stat_groups,
    summary_counts,
)

PROGRESS_RE = re.compile(
    r"(?:remote: )?(?:Enumerating objects|Counting objects|Compressing objects|Writing objects|"
    r"Receiving objects|Resolving deltas|Unpacking objects|Total \d+ \(delta|Delta compression|"
    r"Updating files|Checking out files|Rebasing \(\d+/\d+\))|remote:\s*$")
COMMIT_RE = re.compile(r"\[(.+?) (?:\(root-commit\) )?([0-9a-f]{7,})\] (.*)$")
SUMMARY_RE = re.compile(r" (\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?$")
CHANGE_RE = re.compile(r" (create|delete) mode \d+ (.+)$| (rename|copy) (.+) \(\d+%\)$| mode change (.+)$")
STAT_RE = re.compile(r" (\S.*?)\s+\|\s+(\d+ ?[+-]*|Bin .*)$")
REF_RE = re.compile(r" ([ +*=-]) (\[[^\]]+\]|\S+)\s+(\S+)\s+->\s+(\S+)(?:\s+\((.+)\))?$")
SIMPLE = tuple((re.compile(a), b) for a, b in (
    (r"Updating ([0-9a-f]+\.\.[0-9a-f]+)", ""),
    (r"Already up.to.date\.?", "ok {sub}: already up to date"),
    (r"Merge made by the '(.+)' strategy\.", "ok {sub}: merge commit ({0} strategy)"),
    (r"Everything up-to-date", "ok {sub}: everything up-to-date"),
    (r"Switched to branch '(.+)'", "ok switched to {0}"),
    (r"Switched to a new branch '(.+)'", "ok switched to new branch {0}"),
    (r"Switched to and reset branch '(.+)'", "ok switched to reset branch {0}"),
    (r"Already on '(.+)'", "ok already on {0}"),
    (r"Note: (?:switching to|checking out) '(.+)'\.", ""),
    (r"HEAD is now at (.+)", "ok HEAD is now at {0}"),
    (r"Saved working directory and index state (.+)", "ok stash saved: {0}"),
    (r"Dropped (\S+) \([0-9a-f]+\)", "ok dropped {0}"),
    (r"Successfully rebased and updated (.+)\.", "ok rebased {0}"),
    (r"Current branch (.+) is up to date\.", "ok {sub}: {0} is up to date"),
    (r"(?:From|To) (.+)", ""),
))

STARTS = ["remote: ", "remote:", "Enumerating objects", "Total ", "Rebasing (", "Unpacking objects", "[", " ",
          " create mode ", " delete mode ", " rename ", " copy ", " mode change ", "Updating ", "Already up",
          "Already on '", "Merge made by the '", "Everything up-to-date", "Switched to branch '",
          "Switched to a new branch '", "Switched to and reset branch '", "Note: switching to '",
          "Note: checking out '", "HEAD is now at ", "Saved working directory and index state ", "Dropped ",
          "Successfully rebased and updated ", "Current branch ", "From ", "To ", " + ", " * ", " = ", "   ", ""]
PIECES = ["main", "a1b2c3d", "a1b2c3d4e5", "abc", "(root-commit) ", "] ", "]", " ", "  ", "\t", "\u00a0", "'",
          "'.", ".", "..", "to", " to ", " date", "up to date", "-", "(", ")", "(delta", " (delta 2)", "3/5)", "/",
          "1", "12", "٣", " file changed", " files changed", ", 3 insertions(+)", ", 1 insertion(+)",
          ", 2 deletions(-)", ", 1 deletion(-)", "100644 ", "src/a.py", " => ", " (90%)", "%)", "|", " | ", "++--",
          " +", "Bin 0 -> 12 bytes", "->", " -> ", "[new branch]", "origin/main", "(forced update)", " strategy.",
          "' strategy.", " is up to date.", "stash@{0}", " (0123abc)", "x", "\r"]
texts = st.tuples(st.sampled_from(STARTS), st.lists(st.sampled_from(PIECES) | st.text(max_size=2), max_size=8)
                  ).map(lambda t: (t[0] + "".join(t[1])).replace("\n", ""))  # one line: no newline in it

pick = st.sampled_from
ws = pick(["", " ", "  ", "\t", " \t", "\u00a0"])
commits = st.tuples(pick(["[", "", "[["]), pick(["main", "", "a b", "x] y", "feat/1"]), pick([" ", "", "  "]),
                    pick(["", "(root-commit) ", "(root-commit)"]), st.text(alphabet="0123456789abcdefg", max_size=10),
                    pick(["] ", "]", "] ] "]), pick(["Fix", "", "a] b1234567] c"])).map("".join)
summaries = st.tuples(pick([" ", "", "  "]), pick(["1", "12", "", "٣", "x"]), pick([" file changed", " files changed",
                                                                                 " files  changed"]),
                      pick(["", ", 3 insertions(+)", ", 1 insertion(+)", ", x insertions(+)", ", 2 insertions(-)"]),
                      pick(["", ", 2 deletions(-)", ", 1 deletion(-)", ", 1 deletion(+)"]), pick(["", " ", "x"])
                      ).map("".join)
stats = st.tuples(pick([" ", "", "  "]), pick(["src/a.py", "a b", "x|y", ".../z.ts", ""]), ws, pick(["|", "", "||"]), ws,
                  pick(["12 ++--", "0", "3+", "12  ++", "Bin 0 -> 12 bytes", "Bin", "x", "12 +-x"])).map("".join)
refs = st.tuples(pick([" ", ""]), pick([" ", "+", "*", "=", "-", "!"]), pick([" ", ""]),
                 pick(["[new branch]", "a1b2..c3d4", "[x y]", "[]", "abc"]), ws, pick(["main", "HEAD", "", "a b"]), ws,
                 pick(["->", "-> ", "=>"]), ws, pick(["origin/main", "", "x"]), pick(["", "  (forced update)", " ()", " (x"])
                 ).map("".join)
texts = texts | (commits | summaries | stats | refs).map(lambda t: t.replace("\n", ""))


def reference_simple(text: str) -> tuple[str, tuple[str, ...]] | None:
    for regex, template in SIMPLE:
        if (m := regex.fullmatch(text)) is not None:
            return template, m.groups()
    return None


@settings(max_examples=6000)
@given(texts)
def test_write_line_readers_are_the_regexes(text: str) -> None:
    assert is_progress(text) == bool(PROGRESS_RE.match(text))
    assert is_commit_head(text) == bool(COMMIT_RE.match(text))
    m = SUMMARY_RE.match(text)
    assert summary_counts(text) == (m.groups() if m else None)
    m = CHANGE_RE.match(text)
    assert change_groups(text) == (m.groups() if m else None)
    m = STAT_RE.match(text)
    assert stat_groups(text) == (m.groups() if m else None)
    m = REF_RE.match(text)
    assert ref_groups(text) == (m.groups() if m else None)
    assert simple_groups(text) == reference_simple(text)


def test_real_lines() -> None:
    assert is_commit_head("[main (root-commit) 1a2b3c4] Initial import") and is_commit_head("[feature/x 9f8e7d6c] Fix")
    assert summary_counts(" 3 files changed, 20 insertions(+), 4 deletions(-)") == ("3", "20", "4")
    assert change_groups(" create mode 100644 src/new.py") == ("create", "src/new.py", None, None, None)
    assert is_progress("remote: Total 3 (delta 1), reused 0 (delta 0), pack-reused 0") and is_progress("Rebasing (2/6)")
    assert simple_groups("Switched to a new branch 'feature'") == ("ok switched to new branch {0}", ("feature",))


PROBE = """
import sys
before = set(sys.modules)  # json imports re: it comes after the count
from rtk.filters.base import FilterContext, Stream
from rtk.filters.git import create
for argv, lines in {cases!r}:
    filt = create(FilterContext(tuple(argv), True, {{}}))
    for line in lines:
        list(filt.feed(line, Stream.STDOUT))
    list(filt.finish(0))
loaded = sorted(set(sys.modules) - before)
import json
print(json.dumps(loaded))
"""


def test_a_local_commit_or_switch_imports_no_regex_engine() -> None:
    cases = [(["git", "commit", "-m", "x"], ["[main 1a2b3c4] Add the parser", " 2 files changed, 30 insertions(+)",
                                              " create mode 100644 src/parser.py", " rename a.py => b.py (90%)"]),
             (["git", "switch", "-c", "f"], ["Switched to a new branch 'f'", "Your branch is up to date with 'origin/main'."]),
             (["git", "checkout", "main"], ["Already on 'main'"])]
    proc = subprocess.run([sys.executable, "-c", PROBE.format(cases=cases)], capture_output=True, text=True,
                          check=True)
    loaded = set(json.loads(proc.stdout))
    assert not loaded & {"re", "enum", "collections", "typing"}, sorted(loaded)


@settings(max_examples=2000)
@given(summaries | commits)
def test_summary_and_commit_lines_are_the_regexes(text: str) -> None:
    m = SUMMARY_RE.match(text)
    assert summary_counts(text) == (m.groups() if m else None)
    assert is_commit_head(text) == bool(COMMIT_RE.match(text))
