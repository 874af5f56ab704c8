"""Diff lines that only say again what a line above them said, character for character.

- unittest's `AssertionError: Lists differ: [1, 2] != [1, 3]` (also `Tuples differ:`, dicts,
  any `A != B`): a `- [1, 2]` / `+ [1, 3]` pair further down holds the same two values;
- unittest's `First differing element 0:` of a one-element list: the element is the list's
  content, in the `Lists differ:` line already;
- pytest's `At index 0 diff: 'a' != 'b'` (and `assert x == y` of one-line values) over a
  `Full diff:` whose only change is `- 'b',` / `+ 'a',`: the diff adds nothing, header and all.
- pytest's `Differing items:` of a one-item dict and `At index 0 diff:` of a one-element list
  under an `assert` showing both values whole.
The lines above stay, so no value is lost; the block is still marked elided by its caller.
"""
from __future__ import annotations

import re

NE_RE = re.compile(r"^E\s+(?:AssertionError: )?(?:\w+ differ: )?(.+ != .+)$")
AT_INDEX_RE = re.compile(r"^E\s+At index \d+ diff: (.+ != .+)$")
FULL_DIFF_RE = re.compile(r"^E\s+Full diff:")
SEP = " != "


def _is_e(line: str) -> bool:
    return line[:1] == "E" and (len(line) == 1 or line[1] == " ")


def _body(line: str) -> str:
    return line[1:].strip() if _is_e(line) else line.strip()


def _splits(text: str) -> list[tuple[str, str]]:
    """Every way `A != B` splits at one ` != ` (a value may hold ` != ` itself)."""
    out, at = [], text.find(SEP)
    while at >= 0:
        out.append((text[:at], text[at + len(SEP):]))
        at = text.find(SEP, at + 1)
    return out


def _pair_at(lines: list[str], start: int, minus: str, plus: str) -> int:
    """Index of an adjacent `- minus` / `+ plus` pair of E lines after `start`, or -1."""
    for i in range(start + 1, len(lines) - 1):
        if not (_is_e(lines[i]) and _is_e(lines[i + 1])):
            continue
        if _body(lines[i]) == f"- {minus}" and _body(lines[i + 1]) == f"+ {plus}":
            return i
    return -1


def drop_unittest_pairs(lines: list[str]) -> tuple[list[str], bool]:
    """`A != B` then, further down, `- A` / `+ B`: the pair goes."""
    drop: set[int] = set()
    for i, line in enumerate(lines):
        if line[:1] != "E" or SEP not in line or (m := NE_RE.match(line)) is None:
            continue
        for left, right in _splits(m.group(1)):
            at = _pair_at(lines, i, left, right)
            if at >= 0 and at not in drop:
                drop.update((at, at + 1))
                break
    if not drop:
        return lines, False
    return [line for i, line in enumerate(lines) if i not in drop], True


def _element(text: str) -> str:
    return text.strip().rstrip(",")


def drop_restating_full_diff(lines: list[str]) -> tuple[list[str], bool]:
    """`At index 0 diff: 'a' != 'b'`, then a `Full diff:` changing only `'b'` into `'a'`."""
    for i, line in enumerate(lines):
        if line[:1] != "E" or (m := AT_INDEX_RE.match(line)) is None:
            continue
        start = next((j for j in range(i + 1, len(lines)) if FULL_DIFF_RE.match(lines[j])), -1)
        if start < 0:
            return lines, False
        end = start + 1
        while end < len(lines) and _is_e(lines[end]) and not FULL_DIFF_RE.match(lines[end]):
            end += 1
        changed = [_body(text) for text in lines[start + 1:end] if _body(text)[:2] in ("- ", "+ ")]
        if len(changed) != 2 or changed[0][:1] != "-" or changed[1][:1] != "+":
            return lines, False
        minus, plus = _element(changed[0][2:]), _element(changed[1][2:])
        if any((left, right) == (plus, minus) for left, right in _splits(m.group(1))):
            return [*lines[:start], *lines[end:]], True
        return lines, False
    return lines, False


def drop_restated_only_element(lines: list[str]) -> tuple[list[str], bool]:
    """`Lists differ: [x] != [y]` then `First differing element 0:`, `x`, `y`: a one-element
    list's element is the list's content, shown above."""
    for i, line in enumerate(lines[:-3]):
        if line[:1] != "E" or (m := NE_RE.match(line)) is None or "differ: " not in line:
            continue
        if _body(lines[i + 1]) != "First differing element 0:":
            return lines, False
        first, second = _body(lines[i + 2]), _body(lines[i + 3])
        shapes = ((f"[{first}]", f"[{second}]"), (f"({first},)", f"({second},)"))
        if any(split in shapes for split in _splits(m.group(1))):
            return [*lines[:i + 1], *lines[i + 4:]], True
        return lines, False
    return lines, False


ASSERT_EQ_RE = re.compile(r"^E\s+(?:AssertionError: )?assert (.+ == .+)$")


def _eq_splits(text: str) -> list[tuple[str, str]]:
    return _splits(text.replace(" == ", SEP)) if SEP not in text else []


def drop_restated_one_item(lines: list[str]) -> tuple[list[str], bool]:
    """`assert {k: 1} == {k: 2}` then `Differing items:` and `{k: 1} != {k: 2}`, or
    `assert [a] == [b]` then `At index 0 diff: a != b`: the one item is the whole value, shown
    above."""
    for i, line in enumerate(lines):
        if line[:1] != "E" or (m := ASSERT_EQ_RE.match(line)) is None:
            continue
        sides = _eq_splits(m.group(1))
        nxt = _body(lines[i + 1]) if i + 1 < len(lines) and _is_e(lines[i + 1]) else ""
        if nxt == "Differing items:" and i + 2 < len(lines) and _is_e(lines[i + 2]):
            if any(f"{left} != {right}" == _body(lines[i + 2]) for left, right in sides):
                return [*lines[:i + 1], *lines[i + 3:]], True
        elif nxt.startswith("At index 0 diff: ") and any(
                f"At index 0 diff: {left[1:-1]} != {right[1:-1]}" == nxt for left, right in sides
                if left[:1] + left[-1:] == "[]" and right[:1] + right[-1:] == "[]"):
            return [*lines[:i + 1], *lines[i + 2:]], True
        return lines, False
    return lines, False


def drop_restated_values(lines: list[str]) -> tuple[list[str], bool]:
    lines, pairs = drop_unittest_pairs(lines)
    lines, full = drop_restating_full_diff(lines)
    lines, only = drop_restated_only_element(lines)
    lines, item = drop_restated_one_item(lines)
    return lines, pairs or full or only or item
