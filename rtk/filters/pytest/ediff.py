"""The diff inside a failure's `E` lines (pytest -vv `Full diff:`, unittest `Lists differ:`),
made shorter without losing a changed line's first and last words.

- `? ` lines (difflib's caret hints under a changed line), blank `E` lines and pytest's hints to
  re-run with -v or -vv (`Use -v to get more diff`) go: noise;
- a `Full diff:` that pytest itself cut (-v) before any changed line goes, its note stays;
- unchanged lines (`  ` marker) between changed ones go: they are equal on both sides; a run of
  five or more leaves `E   ... 27 unchanged lines` where it was;
- unittest's diff after `First differing element 2:` (which shows both elements) drops the
  changed lines that only repeat those two elements, and pairs that remove and add the same
  element (moved, or only its trailing comma or bracket changed), and keeps the next WINDOW changed lines,
  counting the rest: the elements, the `Lists differ: [...] != [...]` line and the extra-items
  lines tell the difference, the full diff is in the recall store;
- a run of RUN_MIN or more lines with the same `- ` / `+ ` marker keeps its first RUN_HEAD and
  last line around `E   ... 12 more + lines` (content: the block is marked elided);
- past the cap of E lines per block, what is left is counted into one marker.
"""
from __future__ import annotations

import re

from rtk.filters.base import elision_marker

RUN_MIN, RUN_HEAD = 8, 3
UNCHANGED_MARKER_MIN = 5
WINDOW = 2
MOVED_MARKER_MIN = 3  # fewer lines of moved elements (one pair) go without a marker
HINT_RE = re.compile(r"^E\s+(?:Use -v to get (?:more|the full) diff|Omitting \d+ identical items, use -vv to show)$")
FIRST_DIFFERING_RE = re.compile(r"^E\s+First differing element \d+:$")
# `assert 'ab' == 'ac'` of two one-line strings: pytest then prints `- ac` and `+ ab`, the same values
STR_EQ_RE = re.compile(r"""\bassert ('[^'\\]*'|"[^"\\]*") == ('[^'\\]*'|"[^"\\]*")$""")
# unittest's assertEqual of two one-line strings: `AssertionError: 'ab' != 'ac'`, then `- ab` and `+ ac`
STR_NE_RE = re.compile(r"""^(?:E\s+)?AssertionError: ('[^'\\]*'|"[^"\\]*") != ('[^'\\]*'|"[^"\\]*")$""")


def _marker(line: str) -> str:
    """`- `, `+ `, `? ` when the E line is a diff line, else ``."""
    body = line[1:].lstrip(" ")
    return body[:2] if body[:2] in ("- ", "+ ", "? ", "-", "+") and body[:1] in "-+?" else ""


def _indent(line: str) -> int:
    return len(line) - 1 - len(line[1:].lstrip(" "))


def _is_e(line: str) -> bool:
    return line[:1] == "E" and (len(line) == 1 or line[1] == " ")


def _is_changed(line: str) -> bool:
    mark = _marker(line)
    return line[:1] == "E" and mark[:1] in ("-", "+") and bool(mark)


def _e_prefix(line: str) -> str:
    return line[:len(line) - len(line[1:].lstrip(" "))]


def _drop_unchanged(lines: list[str]) -> tuple[list[str], bool]:
    """E lines of a diff's unchanged elements next to changed ones, at the diff's own indent."""
    changed = [i for i, line in enumerate(lines) if _is_changed(line)]
    if not changed:
        return lines, False
    indent = min(_indent(lines[i]) for i in changed)
    unchanged = [line[:1] == "E" and _indent(line) >= indent + 2 and not _marker(line) for line in lines]
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not unchanged[i]:
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and unchanged[j]:
            j += 1
        near_change = (i > 0 and _is_changed(lines[i - 1])) or (j < len(lines) and _is_changed(lines[j]))
        if not near_change or (len(changed) < 2 and j - i < UNCHANGED_MARKER_MIN):
            out.extend(lines[i:j])
        elif j - i >= UNCHANGED_MARKER_MIN:
            out.append(f"{_e_prefix(lines[i])}... {j - i} unchanged lines")
        i = j
    return out, len(out) < len(lines) or out != lines


def _element_key(text: str) -> str:
    """A diff line's or a `First differing element` line's value, brackets and commas around it
    removed: `-  datetime(1997, 9, 2, 9, 0)]` and `datetime(1997, 9, 2, 9, 0)` give the same key."""
    return text.strip().lstrip("[").rstrip(",]").strip()


def _changed_key(line: str) -> str:
    return _element_key(line[1:].lstrip(" ")[1:])


def _on_both_sides(lines: list[str]) -> set[str]:
    """Elements a diff both removes and adds (`-  x,` and `+  x]`): in both lists, only moved or
    re-punctuated, so those lines tell nothing the first differing element does not."""
    removed = {_changed_key(line) for line in lines if _is_changed(line) and _marker(line)[:1] == "-"}
    added = {_changed_key(line) for line in lines if _is_changed(line) and _marker(line)[:1] == "+"}
    return removed & added


def _unittest_window(lines: list[str]) -> tuple[list[str], bool]:
    """After `First differing element N:` and its two element lines: the diff's changed lines
    that repeat them go, the next WINDOW stay, the rest are counted."""
    start = next((i for i, line in enumerate(lines) if FIRST_DIFFERING_RE.match(line)), -1)
    if start < 0 or start + 2 >= len(lines):
        return lines, False
    elements = {_element_key(lines[start + k][1:]) for k in (1, 2)}
    both = _on_both_sides(lines[start + 3:]) - elements
    out, kept, repeated, moved, beyond, last = lines[:start + 3], 0, 0, 0, 0, ""
    at = len(out)  # where the count goes: after the last changed line kept
    for line in lines[start + 3:]:
        if not _is_changed(line):
            if not (beyond and line.endswith(" unchanged lines") and _is_e(line)):
                out.append(line)
        elif (key := _changed_key(line)) in elements:
            repeated += 1
        elif key in both:
            moved += 1
        elif kept < WINDOW:
            kept += 1
            out.append(line)
            at = len(out)
        else:
            beyond += 1
            last = line
    if beyond:
        out.insert(at, last if beyond == 1 else f"{_e_prefix(lines[start])}{elision_marker(beyond, 'diff lines')}")
    if moved >= MOVED_MARKER_MIN:
        out.insert(at, f"{_e_prefix(lines[start])}{elision_marker(moved, 'diff lines', 'elements in both lists, moved')}")
    return (out, True) if repeated or moved or beyond > 1 else (lines, False)


def _drop_cut_full_diff(lines: list[str]) -> tuple[list[str], bool]:
    """-v: pytest cuts a long `Full diff:` to its first lines and says so; when those hold no
    changed line they say nothing (the lines above it tell the difference): only the note stays."""
    start = next((i for i, line in enumerate(lines) if _is_e(line) and line[1:].strip().startswith("Full diff:")), -1)
    if start < 0:
        return lines, False
    end = next((j for j in range(start + 1, len(lines))
                if not _is_e(lines[j]) or lines[j][1:].strip().startswith("...Full output truncated")), len(lines))
    if end == len(lines) or not _is_e(lines[end]) or any(_is_changed(line) for line in lines[start:end]):
        return lines, False
    return [*lines[:start], *lines[end:]], True


def compact(lines: list[str]) -> tuple[list[str], bool]:
    """Lines of a block (E lines among others) -> shorter lines, and whether content was cut."""
    lines = [line for line in lines if not (_is_e(line) and (not line[1:].strip() or _marker(line).startswith("?")
                                                              or HINT_RE.match(line)))]
    lines, cut_diff = _drop_cut_full_diff(lines)
    lines, dropped = _drop_unchanged(lines)
    lines, windowed = _unittest_window(lines)
    out: list[str] = []
    run: list[str] = []
    run_marker = ""
    cut = False

    def close_run() -> None:
        nonlocal cut
        if len(run) >= RUN_MIN:
            out.extend(run[:RUN_HEAD])
            out.append(f"{_e_prefix(run[0])}... {len(run) - RUN_HEAD - 1} more {run_marker.strip()} lines")
            out.append(run[-1])
            cut = True
        else:
            out.extend(run)
        run.clear()

    for line in lines:
        mark = _marker(line) if _is_e(line) else ""
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
    return out, cut or dropped or windowed or cut_diff


def drop_restated(lines: list[str]) -> tuple[list[str], bool]:
    """The `- right` / `+ left` pair under `assert 'left' == 'right'` (unittest: `- left` / `+ right`
    under `'left' != 'right'`), in any traceback style
    (E lines, --tb=native's bare lines, --tb=line's indented ones): the values are in the line
    above, character for character."""
    out: list[str] = []
    i, cut = 0, False
    while i < len(lines):
        out.append(lines[i])
        if (m := STR_EQ_RE.search(lines[i])) is not None:
            left, right = m.group(1), m.group(2)
        elif (m := STR_NE_RE.match(lines[i])) is not None:
            left, right = m.group(2), m.group(1)  # unittest: `- first`, `+ second`
        if m is not None and _restates(lines[i + 1:i + 3], left, right):
            i, cut = i + 3, True
            continue
        i += 1
    return out, cut


def _restates(pair: list[str], left: str, right: str) -> bool:
    if len(pair) != 2:
        return False
    minus, plus = (text[1:].strip() if _is_e(text) else text.strip() for text in pair)
    return minus[:2] == "- " and plus[:2] == "+ " and repr(minus[2:]) == right and repr(plus[2:]) == left


def cap_e_lines(lines: list[str], cap: int, held_back: int) -> tuple[list[str], int]:
    """Keep the first `cap` E lines; the later ones, and `held_back` more that never reached the
    block, are counted into one marker where the first of them was. -> (lines, lines counted)."""
    out: list[str] = []
    seen, dropped, marker_at = 0, 0, -1
    for line in lines:
        if _is_e(line):
            seen += 1
            if seen > cap:
                if marker_at < 0:
                    marker_at = len(out)
                dropped += 1
                continue
        out.append(line)
    if dropped + held_back:
        if marker_at < 0:
            marker_at = max((i + 1 for i, line in enumerate(out) if _is_e(line)), default=len(out))
        out.insert(marker_at, elision_marker(dropped + held_back, "E lines"))
    return out, dropped + held_back
