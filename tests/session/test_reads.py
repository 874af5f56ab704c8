"""Re-reads: Claude's Read tool (PostToolUse, the tool's own result object with `file.content`
replaced) and cat/head/tail/sed -n through Bash. A first read is never replaced; a changed file
prints whole."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rtk.session.reads import bash_read
from tests.session.helpers import hook, payload, shown

SOURCE = "".join(f"def function_{i}(value):\n    return value * {i}\n\n" for i in range(60))


def read_payload(path: Path, session: str = "s1", agent: str | None = None) -> dict[str, Any]:
    content = path.read_text()
    lines = content.count("\n")
    return payload("PostToolUse", session, agent, tool_name="Read", tool_input={"file_path": str(path)},
                   tool_response={"type": "text", "file": {"filePath": str(path), "content": content,
                                                           "numLines": lines, "startLine": 1, "totalLines": lines}})


def test_the_read_tool_first_read_is_never_replaced_a_second_unchanged_one_is(tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text(SOURCE)
    assert hook(read_payload(path)) is None
    answer = hook(read_payload(path))
    assert answer is not None
    out = answer["hookSpecificOutput"]
    assert out["hookEventName"] == "PostToolUse"
    updated = out["updatedToolOutput"]
    assert updated["type"] == "text" and set(updated["file"]) == {"filePath", "content", "numLines", "startLine",
                                                                  "totalLines"}
    line = updated["file"]["content"]
    assert line.startswith(f"[rtk: read again just now: {path} (lines 1-") and "unchanged since call 1" in line
    assert "\n" not in line


def test_a_changed_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text(SOURCE)
    hook(read_payload(path))
    path.write_text(SOURCE.replace("value * 7\n", "value * 70\n"))
    assert hook(read_payload(path)) is None
    assert hook(read_payload(path)) is not None  # and that version is now the one shown


def test_reads_of_other_contexts_do_not_count(tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text(SOURCE)
    hook(read_payload(path, agent="a1"))
    assert hook(read_payload(path)) is None
    assert hook(read_payload(path, session="s2")) is None


def test_cat_twice_through_bash_then_after_an_edit(tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text(SOURCE)
    first = shown(tmp_path, "cat module.py")
    assert "function_59" in first
    again = shown(tmp_path, "cat module.py")
    assert again.startswith(f"[rtk: read again just now: {path} (whole) is unchanged since call 1")
    path.write_text(SOURCE.replace("value * 7\n", "value * 70\n"))
    changed = shown(tmp_path, "cat module.py")
    # whole again; the post path never answers with more than the host's own output, so the line
    # saying it changed is left out there when the filter printed the file as it is
    assert "value * 70" in changed and "function_59" in changed and "read again" not in changed
    assert shown(tmp_path, "cat module.py").startswith(f"[rtk: read again just now: {path} (whole) is unchanged "
                                                       "since call 3")


@pytest.mark.parametrize(("argv", "span"), [
    (["cat", "f.py"], "whole"),
    (["cat", "-n", "f.py"], "whole"),
    (["head", "-n", "40", "f.py"], "head 40"),
    (["head", "-40", "f.py"], "head 40"),
    (["head", "f.py"], "head 10"),
    (["tail", "-n5", "f.py"], "tail 5"),
    (["sed", "-n", "10,20p", "f.py"], "sed -n 10,20p"),
    (["cat", "f.py", "g.py"], None),
    (["tail", "-f", "f.py"], None),
    (["sed", "-n", "s/a/b/p", "f.py"], None),
    (["cat", "missing.py"], None),
])
def test_which_bash_commands_are_reads(tmp_path: Path, argv: list[str], span: str | None) -> None:
    for name in ("f.py", "g.py"):
        (tmp_path / name).write_text("x\n")
    found = bash_read(argv, str(tmp_path))
    assert (found[1] if found else None) == span
    if found:
        assert found[0] == str(tmp_path / "f.py")
