"""The diff inside a failure's `E` lines (pytest -vv `Full diff:`, unittest `Lists differ:`),
made shorter without losing a changed line's first and last words.

- `? ` lines (difflib's caret hints under a changed line) and blank `E` lines go: noise;
- a run of RUN_MIN or more lines with the same `- ` / `+ ` marker keeps its first RUN_HEAD and
  last line around `E   ... 12 more + lines` (content: the block is marked elided).
"""
from __future__ import annotations

RUN_MIN, RUN_HEAD = 8, 3


def _marker(line: str) -> str:
    """`- `, `+ `, `? ` when the E line is a diff line, else ``."""
    body = line[1:].lstrip(" ")
    return body[:2] if body[:2] in ("- ", "+ ", "? ", "-", "+") and body[:1] in "-+?" else ""


def compact(lines: list[str]) -> tuple[list[str], bool]:
    """Lines of a block (E lines among others) -> shorter lines, and whether content was cut."""
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
        if is_e and (not line[1:].strip() or mark.startswith("?")):
            continue
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
    return out, cut
