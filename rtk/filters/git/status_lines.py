"""git status's English lines, recognised with string methods.

`rtk git status` is the command an agent runs most, and it ends in a few milliseconds: importing
`re` would cost more than git itself. Each function reads one line shape exactly as the regex in
its docstring would on one line of output (no newline in it; tests/filters/test_git_status_lines.py holds them equal on generated lines).
"""
from __future__ import annotations

FILE_LABEL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz ")

# (prefix, suffix, template): `Your branch is up to date with '(.+)'\.` and its kin, one quoted name.
_QUOTED = (
    ("Your branch is up to date with '", "'.", "up to date with {0}"),
    ("Your branch and '", "' have diverged,", "diverged from {0}"),
    ("Your branch is based on '", "', but the upstream is gone.", "upstream {0} is gone"),
)
# (prefix, suffixes, template): `Your branch is ahead of '(.+)' by (\d+) commits?\.` and behind.
_COUNTED = (
    ("Your branch is ahead of '", (" commit.", " commits."), "ahead of {0} by {1}"),
    ("Your branch is behind '", (" commit, and can be fast-forwarded.", " commits, and can be fast-forwarded."),
     "behind {0} by {1}, can fast-forward"),
)
_EXACT = {"Not currently on any branch.": "HEAD detached", "No commits yet": "no commits yet"}
_DIVERGED_COUNTS = ("and have ", " different commits each, respectively.")


def branch_part(text: str) -> str | None:
    """The branch line's compact form (`branch main`, `ahead of origin/main by 2`), or None."""
    if text in _EXACT:
        return _EXACT[text]
    if text.startswith("On branch ") and len(text) > len("On branch "):
        return f"branch {text[len('On branch '):]}"
    for way in ("at", "from"):
        prefix = f"HEAD detached {way} "
        if text.startswith(prefix) and len(text) > len(prefix):
            return f"HEAD detached {way} {text[len(prefix):]}"
    for prefix, suffix, template in _QUOTED:
        if (name := _between(text, prefix, suffix)) is not None:
            return template.format(name)
    for prefix, suffixes, template in _COUNTED:
        for suffix in suffixes:
            if (middle := _between(text, prefix, suffix)) is not None:
                name, sep, count = middle.rpartition("' by ")
                if sep and name and count.isdecimal():
                    return template.format(name, count)
    if (middle := _between(text, *_DIVERGED_COUNTS)) is not None:
        ahead, sep, behind = middle.partition(" and ")
        if sep and ahead.isdecimal() and behind.isdecimal():
            return f"{ahead} ahead, {behind} behind (have {ahead} and {behind} different commits each)"
    return None


def is_hint(text: str) -> bool:
    """`  (use "git add <file>..." to update what will be committed)`: `\\s+\\(.*\\)` from `  (`."""
    return text.startswith("  (") and text.endswith(")") and len(text) >= 4


def file_entry(text: str) -> tuple[str, str] | None:
    """`\\tmodified:   src/a.py` -> ("modified", "src/a.py"): `\\t([a-z ]+):\\s+(.*)`."""
    if not text.startswith("\t"):
        return None
    label, colon, rest = text[1:].partition(":")
    if not colon or not label or not FILE_LABEL_CHARS.issuperset(label) or not rest[:1].isspace():
        return None
    return label, rest.lstrip()


def _between(text: str, prefix: str, suffix: str) -> str | None:
    """What `prefix(.+)suffix` captures in the whole of `text`, or None."""
    if len(text) > len(prefix) + len(suffix) and text.startswith(prefix) and text.endswith(suffix):
        return text[len(prefix):len(text) - len(suffix)]
    return None
