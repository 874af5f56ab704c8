"""Which file and range a read shows: `cat F`, `head [-n N] F`, `tail [-n N] F`, `sed -n 'A,Bp' F`
through Bash, and Claude's Read tool (path, offset, limit). The same file and range read again
unchanged is a re-read; one file per command only (`cat a b` is a plain command)."""
from __future__ import annotations

import os

COUNT_OPTIONS = ("-n", "--lines")


def bash_read(argv: list[str], cwd: str) -> tuple[str, str] | None:
    """(absolute path, range) for a read of one file, else None."""
    if not argv:
        return None
    program = os.path.basename(argv[0])
    if program == "cat":
        words = [w for w in argv[1:] if w != "--"]
        return _one(words, cwd, "whole") if all(not w.startswith("-") or w == "-n" for w in words) else None
    if program in ("head", "tail"):
        return _counted(program, argv[1:], cwd)
    if program == "sed" and len(argv) == 4 and argv[1] == "-n" and _is_print_range(argv[2]):
        return _one([argv[3]], cwd, f"sed -n {argv[2]}")
    return None


def _counted(program: str, args: list[str], cwd: str) -> tuple[str, str] | None:
    count, files, i = "10", [], 0
    while i < len(args):
        word = args[i]
        if word in COUNT_OPTIONS and i + 1 < len(args):
            count, i = args[i + 1], i + 2
            continue
        if word.startswith("-n") and len(word) > 2:
            count = word[2:]
        elif word.startswith("-") and word[1:].isdigit():
            count = word[1:]
        elif word.startswith("-"):
            return None  # -f, -c, -q...: not a plain range
        else:
            files.append(word)
        i += 1
    return _one(files, cwd, f"{program} {count}")


def _one(files: list[str], cwd: str, span: str) -> tuple[str, str] | None:
    files = [f for f in files if f != "-n"]
    if len(files) != 1 or files[0] == "-":
        return None
    path = os.path.realpath(os.path.join(cwd, files[0]))
    return (path, span) if os.path.isfile(path) else None


def _is_print_range(script: str) -> bool:
    body = script.rstrip("p")
    return script.endswith("p") and all(part.isdigit() or part == "$" for part in body.split(",")) and bool(body)


def tool_read(payload: dict[str, object]) -> tuple[str, str, str, dict[str, object]] | None:
    """Claude's Read result: (absolute path, range, content, the `file` object), else None."""
    response = payload.get("tool_response")
    if not isinstance(response, dict) or response.get("type") != "text":
        return None
    file = response.get("file")
    if not isinstance(file, dict):
        return None
    path, content = file.get("filePath"), file.get("content")
    if not isinstance(path, str) or not isinstance(content, str) or not path:
        return None
    start, lines, total = file.get("startLine"), file.get("numLines"), file.get("totalLines")
    span = f"lines {start}-{_last(start, lines)} of {total}" if isinstance(start, int) else "whole"
    return os.path.realpath(path), span, content, file


def _last(start: object, lines: object) -> object:
    return start + lines - 1 if isinstance(start, int) and isinstance(lines, int) else "?"
