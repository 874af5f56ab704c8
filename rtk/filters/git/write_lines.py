"""The lines of git's write commands (commit, checkout, switch, stash...), recognised with string
methods where they are common, so that a local `git commit` or `git switch` does not import `re`.

Each function reads one line exactly as the regex in its docstring would (no newline in it; \\s is
str.isspace, \\d str.isdecimal, as in `re`); tests/filters/test_git_write_lines.py holds them equal
on generated lines. The rarer shapes of network commands (a push's ref line, a pull's diffstat)
keep their regex, compiled on first use behind a str test that every match passes.
"""
from __future__ import annotations

from rtk.filters.base import LazyPattern
from rtk.filters.scan import decimal_end

HEX = frozenset("0123456789abcdef")
PROGRESS_WORDS = ("Enumerating objects", "Counting objects", "Compressing objects", "Writing objects",
                  "Receiving objects", "Resolving deltas", "Unpacking objects", "Delta compression",
                  "Updating files", "Checking out files")
STAT = LazyPattern(r" (\S.*?)\s+\|\s+(\d+ ?[+-]*|Bin .*)$")
REF = LazyPattern(r" ([ +*=-]) (\[[^\]]+\]|\S+)\s+(\S+)\s+->\s+(\S+)(?:\s+\((.+)\))?$")
# (prefix, suffix) of `prefix(.+)suffix` lines, in the order they are tried, and their template.
_BETWEEN = (
    ("Merge made by the '", "' strategy.", "ok {sub}: merge commit ({0} strategy)"),
    ("Switched to branch '", "'", "ok switched to {0}"),
    ("Switched to a new branch '", "'", "ok switched to new branch {0}"),
    ("Switched to and reset branch '", "'", "ok switched to reset branch {0}"),
    ("Already on '", "'", "ok already on {0}"),
    ("Note: switching to '", "'.", ""),
    ("Note: checking out '", "'.", ""),
    ("HEAD is now at ", "", "ok HEAD is now at {0}"),
    ("Saved working directory and index state ", "", "ok stash saved: {0}"),
    ("Successfully rebased and updated ", ".", "ok rebased {0}"),
    ("Current branch ", " is up to date.", "ok {sub}: {0} is up to date"),
)


def is_progress(text: str) -> bool:
    """`(?:remote: )?(?:Enumerating objects|...|Total \\d+ \\(delta|...|Rebasing \\(\\d+/\\d+\\))|remote:\\s*$`."""
    rest = text.removeprefix("remote: ")
    if rest.startswith(PROGRESS_WORDS):
        return True
    if rest.startswith("Total "):
        count, _, tail = rest[6:].partition(" ")
        return _decimal(count) and tail.startswith("(delta")
    if rest.startswith("Rebasing ("):
        done, slash, tail = rest[10:].partition("/")
        total, close, _ = tail.partition(")")
        return bool(slash and close) and _decimal(done) and _decimal(total)
    return text.startswith("remote:") and (len(text) == 7 or text[7:].isspace())


def is_commit_head(text: str) -> bool:
    """`\\[(.+?) (?:\\(root-commit\\) )?([0-9a-f]{7,})\\] (.*)$` matches: `[main a1b2c3d] subject`."""
    if not text.startswith("["):
        return False
    end = text.find("] ")
    while end >= 0:
        start = end
        while start > 0 and text[start - 1] in HEX:
            start -= 1
        if end - start >= 7 and start >= 3 and text[start - 1] == " ":
            return True
        end = text.find("] ", end + 1)
    return False


def summary_counts(text: str) -> tuple[str, str | None, str | None] | None:
    """` (\\d+) files? changed(?:, (\\d+) insertions?\\(\\+\\))?(?:, (\\d+) deletions?\\(-\\))?$`: its groups."""
    if not text.startswith(" "):
        return None
    files, rest = _leading_decimal(text[1:])
    for word in (" file changed", " files changed"):
        if files and rest.startswith(word):
            rest = rest[len(word):]
            break
    else:
        return None
    added, rest = _counted(rest, (" insertion(+)", " insertions(+)"))
    removed, rest = _counted(rest, (" deletion(-)", " deletions(-)"))
    return (files, added, removed) if not rest else None


def _counted(text: str, words: tuple[str, ...]) -> tuple[str | None, str]:
    """`, 12 insertions(+)` at the start of `text`: the count and what follows, else (None, text)."""
    if not text.startswith(", "):
        return None, text
    count, rest = _leading_decimal(text[2:])
    for word in words:
        if count and rest.startswith(word):
            return count, rest[len(word):]
    return None, text


def change_groups(text: str) -> tuple[str | None, ...] | None:
    """` (create|delete) mode \\d+ (.+)$| (rename|copy) (.+) \\(\\d+%\\)$| mode change (.+)$`: its five groups."""
    for verb in ("create", "delete"):
        if text.startswith(f" {verb} mode "):
            mode, rest = _leading_decimal(text[len(verb) + 7:])
            if mode and rest[:1] == " " and len(rest) > 1:
                return verb, rest[1:], None, None, None
            return None
    for verb in ("rename", "copy"):
        if text.startswith(f" {verb} ") and text.endswith("%)"):
            what, sep, share = text[len(verb) + 2:-2].rpartition(" (")
            if sep and what and _decimal(share):
                return None, None, verb, what, None
            return None
    if text.startswith(" mode change ") and len(text) > 13:
        return None, None, None, None, text[13:]
    return None


def stat_groups(text: str) -> tuple[str, str] | None:
    r"""` (\S.*?)\s+\|\s+(\d+ ?[+-]*|Bin .*)$`: a diffstat line's name and count."""
    if not text.startswith(" ") or "|" not in text or (m := STAT.get().match(text)) is None:
        return None
    return m[1], m[2]


def ref_groups(text: str) -> tuple[str, ...] | None:
    r"""` ([ +*=-]) (\[[^\]]+\]|\S+)\s+(\S+)\s+->\s+(\S+)(?:\s+\((.+)\))?$`: a fetch/push ref line."""
    if text[:1] != " " or text[1:2] not in (" ", "+", "*", "=", "-") or text[2:3] != " " or "->" not in text:
        return None
    return None if (m := REF.get().match(text)) is None else m.groups()


def simple_groups(text: str) -> tuple[str, tuple[str, ...]] | None:
    """The first of write.py's one-line shapes that `text` is whole (`Switched to branch 'x'`):
    its template and groups, as the regex table `SIMPLE` in tests/filters/test_git_write_lines.py."""
    if text.startswith("Updating "):
        old, dots, new = text[9:].partition("..")
        if dots and _hex(old) and _hex(new):
            return "", (text[9:],)
    if text.startswith("Already up") and len(text) in (18, 19) and text[11:13] == "to" and text[14:18] == "date" \
            and text[18:] in ("", ".") and "\n" not in (text[10], text[13]):  # `Already up.to.date\.?`
        return "ok {sub}: already up to date", ()
    if text == "Everything up-to-date":
        return "ok {sub}: everything up-to-date", ()
    for prefix, suffix, template in _BETWEEN:
        if len(text) > len(prefix) + len(suffix) and text.startswith(prefix) and text.endswith(suffix):
            return template, (text[len(prefix):len(text) - len(suffix)],)
    if text.startswith("Dropped "):
        name, space, stash = text[8:].partition(" ")
        if space and name and not any(c.isspace() for c in name) and stash.startswith("(") and stash.endswith(")") \
                and _hex(stash[1:-1]):
            return "ok dropped {0}", (name,)
    for prefix in ("From ", "To "):
        if text.startswith(prefix) and len(text) > len(prefix):
            return "", (text[len(prefix):],)
    return None


def _leading_decimal(text: str) -> tuple[str, str]:
    end = decimal_end(text, 0)
    return text[:end], text[end:]


def _decimal(text: str) -> bool:
    return bool(text) and text.isdecimal()


def _hex(text: str) -> bool:
    return bool(text) and HEX.issuperset(text)
