"""Invariants of the rewrite for generated agent-like command lines.

A rewrite only ever inserts `rtk ` in front of a simple command; re-lexing the result gives the
same commands with `rtk` in front of some of them; rewriting again changes nothing.
"""
from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.agent.rewrite import decide
from rtk.shell import parse as shell

COMMANDS = ["git status", "git diff --stat", "git log --oneline -5", "cargo test", "cargo +nightly build",
            "pytest -x", "python3 -m pytest -q", "npx tsc --noEmit", "ls -la", "cd src", "echo 'a && b'",
            "make", "git rebase main", "rtk git status", "git commit -m \"x | y\"", "git log --grep=$'a\\tb'",
            "git -C sub log", "/usr/bin/git show", "sudo cargo test", "npm run tsc", "cat f.txt"]
PREFIXES = ["", "", "", "RUST_BACKTRACE=1 ", "env CI=1 ", "time ", "timeout 60 ", "nice -n 5 ", "command "]
SUFFIXES = ["", "", "", " 2>&1", " 2>/dev/null", " # note", " >/dev/null"]
STAGES = ["", "", "", " | head -5", " | tail -n 20", " | grep x", " | wc -l", " | cat"]
SEPARATORS = [" && ", "; ", " || ", "\n", " & ", "&&", ";"]


@st.composite
def segment(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(PREFIXES)) + draw(st.sampled_from(COMMANDS)) + draw(st.sampled_from(SUFFIXES))
    text += draw(st.sampled_from(STAGES))
    wrap = draw(st.integers(0, 7))
    if wrap == 0:
        return f"({text})"
    if wrap == 1:
        return "bash -c '" + text.replace("'", "") + "'"
    if wrap == 2:
        return 'sh -c "' + text.replace('"', "").replace("$", "") + '"'
    return text


@st.composite
def command_line(draw: st.DrawFn) -> str:
    parts = [draw(segment())]
    for _ in range(draw(st.integers(0, 3))):
        parts += [draw(st.sampled_from(SEPARATORS)), draw(segment())]
    return "".join(parts)


def insertions(original: str, rewritten: str) -> list[int] | None:
    """Offsets in `original` where `rtk ` was inserted, or None if that does not explain the result."""

    @cache
    def align(i: int, j: int) -> tuple[int, ...] | None:
        if i == len(original) and j == len(rewritten):
            return ()
        if rewritten.startswith("rtk ", j) and (rest := align(i, j + 4)) is not None:
            return (i, *rest)
        if i < len(original) and j < len(rewritten) and original[i] == rewritten[j]:
            return align(i + 1, j + 1)
        return None

    found = align(0, 0)
    return None if found is None else list(found)


def command_words(text: str) -> list[list[str]]:
    return [[w.value for w in cmd.words] for cmd in shell.parse(text).commands()]


def _without_rtk(before: list[str], after: list[str]) -> bool:
    if before == after:
        return True
    if len(after) == len(before) + 1:
        return any(after[k] == "rtk" and after[:k] + after[k + 1:] == before for k in range(len(after)))
    if len(after) == len(before):  # `bash -c SCRIPT`: only the script word changed
        diff = [k for k in range(len(before)) if before[k] != after[k]]
        return len(diff) == 1 and insertions(before[diff[0]], after[diff[0]]) is not None
    return False


@settings(max_examples=200, deadline=None)
@given(command_line())
def test_rewrite_only_inserts_rtk(command: str) -> None:
    decision = decide(command, None)
    if decision.code == 1:
        assert decision.command == ""
        return
    assert decision.code == 3
    offsets = insertions(command, decision.command)
    assert offsets is not None, decision.command
    before, after = command_words(command), command_words(decision.command)
    assert len(before) == len(after)
    assert all(_without_rtk(b, a) for b, a in zip(before, after, strict=True)), (before, after)
    again = decide(decision.command, None)
    assert (again.code, again.command) == (3, decision.command)


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from(list("ab gitcargo|&;()<>'\"\\$`#\n{}=-")), max_size=40))
def test_any_text_gives_a_contract_code(text: str) -> None:
    decision = decide(text, None)
    assert decision.code in (1, 3)
    if decision.code == 3:
        assert insertions(text, decision.command) is not None
    else:
        assert decision.command == ""
