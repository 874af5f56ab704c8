"""Past Claude Code's 30,000-char window a reader's output becomes a map (rtk.filters.readmap,
issue 40): at most twice the tokens of the host's own preview, never fewer facts than it, every
outline entry naming the place of its part; under the window, and for runners, nothing changes."""
from __future__ import annotations

import re
from functools import cache

import pytest

from rtk.filters.budget import CLAUDE_CODE_FAILING_LIMIT, CLAUDE_CODE_LIMIT
from rtk.filters.readmap import map_for
from rtk.run.replay import pick_filter
from rtk.track.tokens import count_text
from rtk.track.worker import PREVIEW_NOTICE
from tests.filters.fixture_cases import Case, all_cases, fact_kept, replay

MAPS = [c for c in all_cases() if c.path.name.endswith("_map_claude")]
ENTRY = re.compile(r"^ {4,}([\d,]+): (.*)$")
TITLE = "a map (the host would show its first 2 KB)]"


# the other captured readers past the window (grep, git log, more diffs and listings), under Claude
OTHERS = [c for c in all_cases() if c.host is None and len(c.raw) > CLAUDE_CODE_LIMIT
          and c.path.parent.name in ("grep", "git", "find", "diff", "content", "json")]


@cache
def under_claude(case: Case) -> str:
    """What rtk prints of this case under Claude Code (deterministic: replayed once per session)."""
    return replay(case.command, case.raw, case.exit_code, host="claude")


def preview(case: Case) -> str:
    """What Claude Code alone shows of this output: its notice and the first 2,000 chars."""
    raw = case.raw.decode("utf-8", "replace")
    return PREVIEW_NOTICE.format(size=f"{len(case.raw) // 1024}KB", path="/tmp/claude/tool-results/x.txt") + raw[:2000]


def test_every_kind_of_reader_has_a_map_fixture() -> None:
    kinds = {case.path.parent.name + ":" + case.command.split()[0] for case in MAPS}
    assert {"content:cat", "git:git", "find:find", "json:jq"} <= kinds
    commands = " ".join(case.command for case in MAPS)
    assert ".json" in commands and ".log" in commands and "git diff" in commands and "log -p" in commands


@pytest.mark.parametrize("case", MAPS + OTHERS, ids=[c.id for c in MAPS + OTHERS])
def test_a_map_within_twice_the_preview_and_no_fewer_facts(case: Case) -> None:
    printed = under_claude(case)
    assert len(case.raw) > CLAUDE_CODE_LIMIT
    if TITLE not in printed.splitlines()[0]:
        assert case in OTHERS and count_text(printed) < 2 * count_text(preview(case))  # smaller still
        return
    assert count_text(printed) <= 2 * count_text(preview(case)), (count_text(printed), count_text(preview(case)))
    assert sum(fact_kept(f, printed) for f in case.facts) >= sum(fact_kept(f, preview(case)) for f in case.facts)
    assert "rtk recall " in printed.splitlines()[-1]


@pytest.mark.parametrize("case", MAPS + OTHERS, ids=[c.id for c in MAPS + OTHERS])
def test_every_outline_entry_names_its_place(case: Case) -> None:
    printed = under_claude(case)
    if TITLE not in printed.splitlines()[0]:
        assert case in OTHERS  # rtk's own form was the smaller
        return
    raw = case.raw.decode("utf-8", "replace").split("\n")
    name, argv = pick_filter(None, case.command)
    read_map = map_for(argv, name)
    assert read_map is not None
    entries = [m.groups() for m in map(ENTRY.match, printed.splitlines()) if m]
    assert len(entries) >= 5 or case in OTHERS
    for number, text in entries:  # file line numbers for `sed -n 'A,Bp'` and `tail -n +K`
        line = raw[int(number.replace(",", "")) - read_map.start]
        assert _names(text, line), (number, text, line)


def _names(entry: str, line: str) -> bool:
    """The raw line an entry points at is the one it names (a definition, a key, a file, a hunk,
    a commit, the first path under a directory, an error line)."""
    if entry.startswith("@@ +"):
        start, _, context = entry[4:].partition(" ")
        return line.startswith("@@ ") and f" +{start}" in line and line.rstrip().endswith(context)
    if entry.startswith("commit "):
        return line.startswith(entry.split()[0] + " " + entry.split()[1])
    name = re.sub(r" \([+\-x\d, ]+\)$", "", entry)
    return name in line or line.endswith(name.split(" b/")[-1]) or f"b/{name}" in line


@pytest.mark.parametrize("case", MAPS, ids=[c.id for c in MAPS])
def test_without_the_host_the_same_output_is_not_a_map(case: Case) -> None:
    assert TITLE not in replay(case.command, case.raw, case.exit_code)


SMALL = [c for c in all_cases() if len(c.raw) <= CLAUDE_CODE_FAILING_LIMIT and c.host is None]


@pytest.mark.parametrize("case", SMALL[::7], ids=[c.id for c in SMALL[::7]])
def test_under_the_window_nothing_changes(case: Case) -> None:
    assert replay(case.command, case.raw, case.exit_code, host="claude") == \
        replay(case.command, case.raw, case.exit_code)


READERS_WITHIN = [c for c in all_cases() if c.host is None and c.exit_code == 0
                  and CLAUDE_CODE_FAILING_LIMIT < len(c.raw) <= CLAUDE_CODE_LIMIT
                  and c.path.parent.name in ("content", "git", "find", "json", "diff", "ls", "tree", "grep")]


@pytest.mark.parametrize("case", READERS_WITHIN, ids=[c.id for c in READERS_WITHIN])
def test_a_reader_within_the_window_is_unchanged(case: Case) -> None:
    assert replay(case.command, case.raw, case.exit_code, host="claude") == \
        replay(case.command, case.raw, case.exit_code)


def test_runners_keep_their_whole_window() -> None:
    big = [c for c in all_cases() if c.path.parent.name in ("pytest", "cargo", "tsc", "eslint", "jest")
           and c.exit_code == 0 and len(c.raw) > CLAUDE_CODE_LIMIT]
    assert big
    for case in big:
        assert TITLE not in replay(case.command, case.raw, case.exit_code, host="claude")


@pytest.mark.parametrize(("argv", "name", "reads"), [
    (["cat", "a.py"], "content", True), (["git", "diff"], "git", True), (["git", "show", "HEAD"], "git", True),
    (["git", "log", "-p"], "git", True), (["git", "status"], "git", False), (["jq", "."], "json", True),
    (["find", "."], "find", True), (["pytest", "-q"], "pytest", False), (["cargo", "build"], "cargo", False),
])
def test_only_readers_get_a_map(argv: list[str], name: str, reads: bool) -> None:
    assert (map_for(argv, name) is not None) == reads
