"""The lexer against bash itself: for generated command lines, the words of every simple command
must be exactly the argv bash passes.

Every generated command name starts with `zq`, so bash finds no such command and calls
`command_not_found_handle` with the full argv, which we print NUL-separated to a file (so pipes
and `2>&1` don't swallow it). Pipeline stages and `&` jobs run concurrently, so argvs are compared as
sorted lists.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk.shell import parse as shell

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

# Each not-found command runs in its own forked child: one file per child, because bash flushes
# stdout at every newline inside an argument and concurrent stages would interleave.
HEADER = ('command_not_found_handle() { printf \'%s\\0\' "$#" "$@" >>"$RTK_ARGV_DIR/$BASHPID"; '
          'return 0; }\n')
BARE = "abcdefxyzABCXYZ0123456789-_./:,+%@^!#="
TEXT = st.text(st.sampled_from(list("abc xyz-_./\t\n;&|()<>$`\\\"'#*?[]{}~!=é日")), max_size=8)


def bash_argvs(command: str, workdir: Path) -> list[tuple[bytes, ...]]:
    out = workdir / "argv"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    env = {"PATH": "/nonexistent", "RTK_ARGV_DIR": str(out), "LC_ALL": "C.UTF-8", "HOME": str(workdir)}
    script = HEADER + command + " \nwait\n"
    proc = subprocess.run(["/bin/bash", "-c", script], cwd=workdir, env=env, capture_output=True,
                          timeout=20, check=False)
    assert b"syntax error" not in proc.stderr, proc.stderr
    argvs = []
    for record in out.iterdir():
        fields, i = record.read_bytes().split(b"\0"), 0
        while i < len(fields) - 1:
            count = int(fields[i])
            argvs.append(tuple(fields[i + 1:i + 1 + count]))
            i += 1 + count
    return sorted(argvs)


def lexer_argvs(command: str) -> list[tuple[bytes, ...]]:
    script = shell.parse(command)
    assert script.problems == [], script.problems
    argvs = []
    for cmd in script.commands():
        assert all(word.literal for word in cmd.words), [w.text for w in cmd.words]
        if cmd.argv:
            argvs.append(tuple(w.value.encode("utf-8", "surrogateescape") for w in cmd.argv))
    return sorted(argvs)


def _single(text: str) -> str:
    return "'" + text.replace("'", "") + "'"


def _double(text: str) -> str:
    out = []
    for ch in text:
        out.append("\\" + ch if ch in '"\\$`' else ch)
    return '"' + "".join(out) + '"'


ANSI_ESCAPES = st.sampled_from([r"\n", r"\t", r"\\", r"\'", r"\"", r"\x41", r"\x7e", r"\101", r"\e",
                                r"\a", r"\?", r"\cA", r"\u00e9", r"\u65e5", r"\q", r"\x", r"\7",
                                r"\x{41}", r"\x{4142}", r"\x{7e", r"\0", r"\x{}"])


@st.composite
def ansi_c(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(TEXT.map(lambda t: t.replace("\\", "").replace("'", "")),
                                    ANSI_ESCAPES), max_size=4))
    return "$'" + "".join(parts) + "'"


FRAGMENT = st.one_of(
    st.text(st.sampled_from(list(BARE)), min_size=1, max_size=6),
    TEXT.map(_single),
    TEXT.map(_double),
    st.sampled_from(list("abc xyz;&|()<>$`\\\"'#*?[]{}~é\n")).map(lambda c: "\\" + c),
    ansi_c(),
    st.sampled_from(['"\\q"', '"a\\\nb"', "a$\"\"", "$''", '"$"', "''", '""', "a\\\nb"]),
)


@st.composite
def word(draw: st.DrawFn, first: bool = False) -> str:
    parts = draw(st.lists(FRAGMENT, min_size=1, max_size=4))
    text = "".join(parts)
    if first:
        # No `=` right after the name (an assignment) and no `/` (bash would not search PATH).
        return "zq" + "".join(p for p in parts if not p[0].isalnum() and p[0] not in "_=" and "/" not in p)
    return text.lstrip("#") or "w"  # a word starting with # is a comment: tested on its own


BLANK = st.sampled_from([" ", "  ", "\t", " \\\n "])
REDIRECT = st.sampled_from(["2>&1", "2>/dev/null", "</dev/null", "2> /dev/null", "1>&1", "3>&3"])


@st.composite
def simple(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 2))):
        parts.append(draw(st.sampled_from(["A", "B_1", "x"])) + "=" + draw(word()).lstrip("~"))
    parts.append(draw(word(first=True)))
    parts += draw(st.lists(st.one_of(word(), REDIRECT), max_size=5))
    blanks = [draw(BLANK) for _ in parts]
    return "".join(p + b for p, b in zip(parts, blanks, strict=True)).rstrip(" \t\\\n")


SEPARATOR = st.sampled_from([" ; ", ";", " && ", "&&", " | ", "|", "|&", " & ", "\n", " ;\n", " &&\n  "])


@st.composite
def command_line(draw: st.DrawFn) -> str:
    pieces = [draw(simple())]
    for _ in range(draw(st.integers(0, 3))):
        pieces.append(draw(SEPARATOR))
        nxt = draw(simple())
        if draw(st.integers(0, 5)) == 0:
            nxt = f"( {nxt} )" if draw(st.booleans()) else "{ " + nxt + "; }"
        pieces.append(nxt)
    if draw(st.booleans()):
        pieces.append(draw(st.sampled_from([" # trailing comment $(x) 'q", "  #c"])))
    return "".join(pieces)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(command_line())
def test_lexer_words_equal_bash_argv(tmp_path: Path, command: str) -> None:
    assert lexer_argvs(command) == bash_argvs(command, tmp_path)


@pytest.mark.parametrize("command", [
    "zqa 'it''s' \"a \\\"b\\\" c\" $'x\\ty' d\\ e",
    "zqa \\\n  b#c #comment\nzqb",
    "zqa $'\\x41\\101\\cA\\u00e9' \"\\q\" '\\q'",
    "A=1 B='x y' zqa =b c=d",
    "zqa|zqb&&zqc;zqd&zqe",
    "( zqa ) && { zqb; }",
    "zqa 2>&1 | zqb 2>/dev/null </dev/null",
    "zqa '' \"\" $'' x''y",
    "zqa\\\nb",
    "zqa $'\\x{41}\\x{4142}\\x{7e' $'\\x{4'",
    "zqa \"$\" a$ '$(x)' \"\\$(y)\"",
])
def test_known_lines_equal_bash_argv(tmp_path: Path, command: str) -> None:
    assert lexer_argvs(command) == bash_argvs(command, tmp_path)


def test_oracle_sees_every_command(tmp_path: Path) -> None:
    assert bash_argvs("zqa 1 | zqb 2 & zqc 3", tmp_path) == [(b"zqa", b"1"), (b"zqb", b"2"), (b"zqc", b"3")]
    assert os.path.isdir(tmp_path / "argv")
