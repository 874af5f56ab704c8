"""The diff inside a failure's `E` lines (pytest -vv `Full diff:`, unittest `Lists differ:`),
made shorter without losing a changed line's first and last words.

- `? ` lines (difflib's caret hints under a changed line) and blank `E` lines go: noise;
- a run of RUN_MIN or more lines with the same `- ` / `+ ` marker keeps its first RUN_HEAD and
  last line around `E   ... 12 more + lines` (content: the block is marked elided);
- unchanged lines (`  ` marker) between changed ones go: they are equal on both sides.
"""
from __future__ import annotations

RUN_MIN, RUN_HEAD = 8, 3


def _marker(line: str) -> str:
    """`- `, `+ `, `? ` when the E line is a diff line, else ``."""
    body = line[1:].lstrip(" ")
    return body[:2] if body[:2] in ("- ", "+ ", "? ", "-", "+") and body[:1] in "-+?" else ""


def _indent(line: str) -> int:
    return len(line) - 1 - len(line[1:].lstrip(" "))


def _is_changed(line: str) -> bool:
    mark = _marker(line)
    return line[:1] == "E" and mark[:1] in ("-", "+") and bool(mark)


def _drop_unchanged(lines: list[str]) -> tuple[list[str], bool]:
    """E lines of a diff's unchanged elements next to changed ones, at the diff's own indent."""
    changed = [i for i, line in enumerate(lines) if _is_changed(line)]
    if len(changed) < 2:
        return lines, False
    indent = min(_indent(lines[i]) for i in changed)
    unchanged = [line[:1] == "E" and _indent(line) >= indent + 2 and not _marker(line) for line in lines]
    drop = [False] * len(lines)
    i = 0
    while i < len(lines):
        if not unchanged[i]:
            i += 1
            continue
        j = i
        while j < len(lines) and unchanged[j]:
            j += 1
        if (i > 0 and _is_changed(lines[i - 1])) or (j < len(lines) and _is_changed(lines[j])):
            drop[i:j] = [True] * (j - i)
        i = j
    keep = [line for line, gone in zip(lines, drop) if not gone]
    return keep, len(keep) < len(lines)


def compact(lines: list[str]) -> tuple[list[str], bool]:
    """Lines of a block (E lines among others) -> shorter lines, and whether content was cut."""
    lines = [line for line in lines if not (line[:1] == "E" and (len(line) == 1 or line[1] == " ")
                                            and (not line[1:].strip() or _marker(line).startswith("?")))]
    lines, dropped = _drop_unchanged(lines)
    out: list[str] = []
    run: list[str] = []
    run_marker = ""
    cut = False

    def close_run() -> None:
        nonlocal cut
        if len(run) >= RUN_MIN:
            indent = run[0][:len(run[0]) - len(run[0][1:].lstrip(" "))]
            out.extend(run[:RUN_HEAD])
            out.append(f"{indent}... {len(run) - RUN_HEAD - 1} more {run_marker.strip()} lines")
            out.append(run[-1])
            cut = True
        else:
            out.extend(run)
        run.clear()

    for line in lines:
        is_e = line[:1] == "E" and (len(line) == 1 or line[1] == " ")
        mark = _marker(line) if is_e else ""
        if mark and mark[:1] in "-+" and mark == run_marker:
            run.append(line)
            continue
        close_run()
        if mark and mark[:1] in "-+":
            run_marker = mark
            run.append(line)
        else:
            run_marker = ""
            out.append(line)
    close_run()
    return out, cut or dropped
