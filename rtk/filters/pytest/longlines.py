"""A diff line hundreds of characters long (`- 10,000,000,...` of a big number, a -vv repr),
cut to where it differs from its partner line.

A `- ` line and the `+ ` line next to it are compared: what both start with is shown up to a
little before the first difference, then a window past it, then the line's last characters,
each gap counted (`...[312 chars]...`). A long line with no partner keeps its two ends. Lines in
any traceback style count: `E   - x` lines and the indented `  - x` of --tb=line and native.
"""
from __future__ import annotations

LONG = 200     # characters of a diff line's content before it is cut
HEAD = 40      # kept from the start
BEFORE = 30    # kept before the first difference
AFTER = 70     # kept from the first difference on
TAIL = 30      # kept from the end


def _split(line: str) -> tuple[str, str, str] | None:
    """(prefix up to the marker, `-` or `+`, content) of a diff line, else None."""
    body = line[1:] if line[:1] == "E" else line
    stripped = body.lstrip(" ")
    if stripped[:2] not in ("- ", "+ "):
        return None
    prefix = line[:len(line) - len(stripped)]
    return prefix, stripped[0], stripped[2:]


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _cut(content: str, differs_at: int) -> str:
    """The kept windows of `content`, merged where they overlap, gaps counted."""
    windows = [(0, HEAD), (max(differs_at - BEFORE, 0), differs_at + AFTER), (len(content) - TAIL, len(content))]
    merged: list[list[int]] = []
    for start, end in sorted((max(s, 0), min(e, len(content))) for s, e in windows):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, at = [], 0
    for start, end in merged:
        if start > at:
            out.append(f" ...[{start - at:,} chars]... ")
        out.append(content[start:end])
        at = end
    return "".join(out)


def cut_long_diff_lines(lines: list[str]) -> tuple[list[str], bool]:
    parts = [_split(line) if len(line) > LONG else None for line in lines]
    if not any(parts):
        return lines, False
    out = list(lines)
    for i, part in enumerate(parts):
        if part is None or len(part[2]) <= LONG:
            continue
        prefix, mark, content = part
        partner = next((_split(lines[j]) for j in (i - 1, i + 1) if 0 <= j < len(lines)
                        and (p := _split(lines[j])) is not None and p[1] != mark), None)
        differs_at = _common_prefix(content, partner[2]) if partner else 0
        out[i] = f"{prefix}{mark} {_cut(content, differs_at)}"
    return out, out != lines
