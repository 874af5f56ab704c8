"""git log's header and body lines, and a patch's hunk headers, recognised with string methods.

`rtk git log -n 20` ends in a few milliseconds: importing `re` (and the `enum` it imports) and
compiling the patterns took longer than git itself. Each function reads one line exactly as the
regex in its docstring would on one line of output (no newline in it; \\s is str.isspace, \\w
str.isalnum or `_`, \\d str.isdecimal, as in `re`); tests/filters/test_git_log_lines.py holds them
equal on generated lines.
"""
from __future__ import annotations

from rtk.filters.scan import decimal_end

HEX = frozenset("0123456789abcdef")
MONTHS = {m: i for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                      "Nov", "Dec"], 1)}
# re.IGNORECASE matches these to `i` and `s` though their str.lower() is not that letter.
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})
_ISSUE_WORDS = frozenset(("fix", "fixes", "fixed", "close", "closes", "closed", "resolve", "resolves", "resolved"))
_REVERT_WORDS = frozenset(("revert", "reverts"))


def commit_line(text: str) -> tuple[str, str] | None:
    """`commit ([0-9a-f]{7,64})(\\s.*)?$` -> (sha, the rest or "")."""
    if not text.startswith("commit "):
        return None
    rest = text[7:]
    end = 0
    while end < len(rest) and rest[end] in HEX:
        end += 1
    if not 7 <= end <= 64 or (end < len(rest) and not rest[end].isspace()):
        return None
    return rest[:end], rest[end:]


def author_name(text: str) -> str | None:
    """`Author:\\s+(.*?)(?:\\s+<[^>]*>)?$`: the name without its e-mail address."""
    value = _after_label(text, "Author:")
    if value is None:
        return None
    if not value.endswith(">"):
        return value
    # the e-mail address: the first `<` after the last inner `>` that has a space before it
    at = value.find("<", value.rfind(">", 0, len(value) - 1) + 1)
    while at >= 0:
        if at > 0 and value[at - 1].isspace():
            return value[:at].rstrip()
        at = value.find("<", at + 1)
    return value


def date_value(text: str) -> str | None:
    """`Date:\\s+(.*)$`."""
    return _after_label(text, "Date:")


def _after_label(text: str, label: str) -> str | None:
    size = len(label)
    if not text.startswith(label) or len(text) <= size or not text[size].isspace():
        return None
    return text[size:].lstrip()


def short_date(text: str) -> str:
    """git's default date (`Thu Aug 20 09:12:10 2026 -0700`) or an ISO one as YYYY-MM-DD; else as is."""
    return _default_date(text) or _iso_date(text) or text


def _default_date(text: str) -> str | None:
    """`\\w{3} (\\w{3}) (\\d{1,2}) \\d\\d:\\d\\d:\\d\\d (\\d{4})(?: [+-]\\d{4})?$` with a month's name."""
    parts = text.split(" ")
    if len(parts) not in (5, 6):
        return None
    day, month, mday, clock, year = parts[:5]
    zone = parts[5] if len(parts) == 6 else "+0000"
    if not (len(day) == 3 and all(c.isalnum() or c == "_" for c in day) and month in MONTHS):
        return None
    if not (1 <= len(mday) <= 2 and mday.isdecimal() and len(year) == 4 and year.isdecimal()):
        return None
    if not (_digits_with(clock, ":", (2, 5)) and len(zone) == 5 and zone[0] in "+-" and zone[1:].isdecimal()):
        return None
    return f"{year}-{MONTHS[month]:02d}-{int(mday):02d}"


def _iso_date(text: str) -> str | None:
    """`(\\d{4}-\\d\\d-\\d\\d)[ T]\\d\\d:\\d\\d` at the start."""
    if len(text) < 16 or text[10] not in " T" or not _digits_with(text[:10], "-", (4, 7)):
        return None
    return text[:10] if _digits_with(text[11:16], ":", (2,)) else None


def _digits_with(text: str, sep: str, at: tuple[int, ...]) -> bool:
    """`text` is decimal digits with `sep` exactly at the positions `at` (`09:12:10`: ":" at 2, 5)."""
    if len(text) != at[-1] + 3 or any(text[i] != sep for i in at):
        return False
    return all(c.isdecimal() for i, c in enumerate(text) if i not in at)


def is_trailer(text: str) -> bool:
    """`\\s*(?:BREAKING[ -]CHANGE\\b|(?:Fix(?:e[sd])?|Close[sd]?|Resolve[sd]?)\\b:?\\s*\\S*#\\d+|Reverts?\\b)`
    (re.IGNORECASE, at the start): a body line worth keeping (`Fixes #12`, `BREAKING CHANGE: ...`)."""
    body = text.lstrip()
    word, rest = _word(body)
    folded = word.translate(_FOLD).lower()
    if folded in _REVERT_WORDS:
        return True
    if folded == "breaking" and rest[:1] in (" ", "-"):
        return _word(rest[1:])[0].translate(_FOLD).lower() == "change"
    if folded not in _ISSUE_WORDS:
        return False
    rest = rest.removeprefix(":")
    run = rest.lstrip()
    end = next((i for i, c in enumerate(run) if c.isspace()), len(run))
    return any(run[i] == "#" and run[i + 1].isdecimal() for i in range(end - 1))


def _word(text: str) -> tuple[str, str]:
    """The leading run of \\w characters, and what follows it."""
    end = next((i for i, c in enumerate(text) if not (c.isalnum() or c == "_")), len(text))
    return text[:end], text[end:]


def hunk_marker(text: str) -> str | None:
    """`(@@+) -\\d+` at the start: the `@@` run of a hunk header (`@@@` in a combined diff)."""
    end = 0
    while end < len(text) and text[end] == "@":
        end += 1
    if end < 2 or text[end:end + 2] != " -" or not text[end + 2:end + 3].isdecimal():
        return None
    return text[:end]


def new_start(text: str) -> str | None:
    """` \\+(\\d+)` searched: where the hunk starts in the new file."""
    at = text.find(" +")
    while at >= 0:
        end = decimal_end(text, at + 2)
        if end > at + 2:
            return text[at + 2:end]
        at = text.find(" +", at + 1)
    return None
