"""An `ls -l` line split into its fields with str methods, as LONG_PATTERN reads it.

`ls -la` is among the commands an agent runs most and takes a millisecond; importing `re` for the
pattern cost five. The reader works on the line's first whitespace-separated words and tries the
pattern's choices in the pattern's own order (prefix words, then 0-2 owner words, then the size's
forms, then the date's), so the first reading that leaves one whitespace before the name is the
regex's match. tests/filters/test_ls_long_line.py holds it equal to the pattern (hypothesis); a
line holding a newline (which the splitter never gives) takes the regex itself, and so does
every line past the first STR_LINES, where the regex's speed outweighs its import.
"""
from __future__ import annotations

from rtk.filters.base import LazyPattern

LONG_PATTERN = (
    r"^(?:\s*\d+\s+)?(?:\s*[\d.,]+[KMGTPEZY]?\s+)?"             # -i inode, -s blocks
    r"(?P<mode>[-dlcbpsDw?][-rwxsStTl?]{9})[.+@]?\s+\d+\s+"
    r"(?P<owners>(?:\S+\s+){0,2}?)"
    r"(?P<size>\d+,\s*\d+|[\d.,]+[KMGTPEZYkB]?i?)\s+"
    r"(?P<date>[A-Z][a-z]{2}\s+\d{1,2}\s+(?:\d{1,2}:\d{2}|\d{4})"
    r"|\d{1,2}\s+[A-Z][a-z]{2}\s+(?:\d{1,2}:\d{2}|\d{4})"
    r"|\d{4}-\d{2}-\d{2}(?:\s+\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s+[-+]\d{4})?)?"
    r"|\d{2}-\d{2}\s+\d{2}:\d{2})\s"
    r"(?P<name>.*)$"
)
_LONG = LazyPattern(LONG_PATTERN)
FIELDS = ("mode", "owners", "size", "date", "name")
WORDS = 12  # prefix 2 + mode + links + owners 2 + size 2 + date 3, and one to spare
# The import of `re` (~5 ms) pays for itself after ~300 lines, but a listing of one directory
# (`ls -la` of 500 files: tests/run/test_run_path_imports.py) is a short command that imports no
# slow module: the regex waits for a listing longer than nearly any directory (`ls -lR`).
STR_LINES = 1000
_str_lines_left = STR_LINES  # (one command a process: the count is the listing's)
MODE_KINDS = frozenset("-dlcbpsDw?")
MODE_BITS = frozenset("-rwxsStTl?")
SIZE_UNITS = frozenset("KMGTPEZYkB")
BLOCK_UNITS = frozenset("KMGTPEZY")
ASCII_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
ASCII_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")

Spans = list[tuple[int, int]]
Fields = tuple[str, str, str, str, str]  # mode, owners, size, date, name


def word_spans(text: str, limit: int) -> Spans:
    """(start, end) of the first `limit` runs of non-whitespace. `split` finds the words (its
    whitespace is `isspace`'s); each starts where it is first found after the last one ends,
    as only whitespace lies between them (~10x a character loop's speed)."""
    spans: Spans = []
    at, find = 0, text.find
    for word in text.split(None, limit)[:limit]:
        at = find(word, at)
        spans.append((at, at + len(word)))
        at += len(word)
    return spans


def digits(word: str, least: int = 1, most: int = 1 << 30) -> bool:
    """`word` is `\\d{least,most}` whole."""
    return least <= len(word) <= most and word.isdecimal()


def number_with(word: str, chars: str, units: frozenset[str], binary: bool) -> bool:
    """`[\\d<chars>]+<unit>?` (then `i?` when `binary`) whole: `4.0K`, `1,234`, `12Mi`."""
    if binary and word.endswith("i"):
        word = word[:-1]
    if word and word[-1] in units:
        word = word[:-1]
    return bool(word) and all(c.isdecimal() or c in chars for c in word)


def is_mode(word: str) -> bool:
    return len(word) in (10, 11) and word[0] in MODE_KINDS and all(c in MODE_BITS for c in word[1:10]) \
        and (len(word) == 10 or word[10] in ".+@")


def is_month(word: str) -> bool:
    return len(word) == 3 and word[0] in ASCII_UPPER and word[1] in ASCII_LOWER and word[2] in ASCII_LOWER


def is_clock_or_year(word: str) -> bool:
    """`\\d{1,2}:\\d{2}` or `\\d{4}`."""
    hours, colon, minutes = word.partition(":")
    return digits(hours, 1, 2) and digits(minutes, 2, 2) if colon else digits(word, 4, 4)


def is_iso_time(word: str) -> bool:
    """`\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?`."""
    parts = word.split(":")
    if len(parts) == 3:
        seconds, dot, fraction = parts[2].partition(".")
        parts[2] = seconds
        if dot and not digits(fraction):
            return False
    return len(parts) in (2, 3) and all(digits(part, 2, 2) for part in parts)


def is_iso_date(word: str) -> bool:
    parts = word.split("-")
    return len(parts) == 3 and digits(parts[0], 4, 4) and digits(parts[1], 2, 2) and digits(parts[2], 2, 2)


def date_ends(words: list[str], spans: Spans, at: int) -> list[int]:
    """Where each reading of a date starting at word `at` ends, in the pattern's order."""
    ahead = words[at:at + 3]
    ends = []
    if len(ahead) >= 3 and is_month(ahead[0]) and digits(ahead[1], 1, 2) and is_clock_or_year(ahead[2]):
        ends.append(spans[at + 2][1])
    if len(ahead) >= 3 and digits(ahead[0], 1, 2) and is_month(ahead[1]) and is_clock_or_year(ahead[2]):
        ends.append(spans[at + 2][1])
    if ahead and is_iso_date(ahead[0]):
        if len(ahead) >= 2 and is_iso_time(ahead[1]):
            if len(ahead) >= 3 and len(ahead[2]) == 5 and ahead[2][0] in "-+" and ahead[2][1:].isdecimal():
                ends.append(spans[at + 2][1])
            ends.append(spans[at + 1][1])
        ends.append(spans[at][1])
    if len(ahead) >= 2 and is_iso_short(ahead[0]) and is_clock(ahead[1]):
        ends.append(spans[at + 1][1])
    return ends


def is_iso_short(word: str) -> bool:
    """`\\d{2}-\\d{2}` (the `+%m-%d %H:%M` time style)."""
    month, dash, day = word.partition("-")
    return bool(dash) and digits(month, 2, 2) and digits(day, 2, 2)


def is_clock(word: str) -> bool:
    hours, colon, minutes = word.partition(":")
    return bool(colon) and digits(hours, 2, 2) and digits(minutes, 2, 2)


def size_readings(words: list[str], spans: Spans, at: int) -> list[tuple[int, int]]:
    """(end of the size, the word after it) for each way the size can read from word `at`."""
    word = words[at] if at < len(words) else ""
    readings = []
    major, comma, minor = word.partition(",")
    if comma and digits(major) and (digits(minor) or (not minor and digits(_word(words, at + 1)))):
        last = at if minor else at + 1
        readings.append((spans[last][1], last + 1))
    if word and number_with(word, ".,", SIZE_UNITS, binary=True):
        readings.append((spans[at][1], at + 1))
    return readings


def _word(words: list[str], at: int) -> str:
    return words[at] if at < len(words) else ""


def prefix_fits(text: str, words: list[str], spans: Spans, mode_at: int) -> bool:
    """The words before the mode are what `-i` (inode) and `-s` (blocks) print."""
    if mode_at == 0:
        return spans[0][0] == 0
    if mode_at == 1:
        return number_with(words[0], ".,", BLOCK_UNITS, binary=False)
    return digits(words[0]) and number_with(words[1], ".,", BLOCK_UNITS, binary=False)


def long_fields(text: str) -> Fields | None:
    """(mode, owners, size, date, name) as LONG_PATTERN's groups, or None when it does not match.

    The str reader while a listing is short (no `re` import); past STR_LINES lines the compiled
    pattern itself, ~5x faster a line (~4 us against ~20 here): a long listing (`ls -lR`) pays
    the import once and then ~16 us less on every line."""
    global _str_lines_left
    if _str_lines_left and "\n" not in text:
        _str_lines_left -= 1
        return str_fields(text)
    found = _LONG.get().match(text)
    return found.group(*FIELDS) if found else None  # type: ignore[return-value]


def str_fields(text: str) -> Fields | None:
    """long_fields with str methods only, for a line without a newline (the splitter never
    gives one)."""
    spans = word_spans(text, WORDS)
    words = [text[start:end] for start, end in spans]
    for mode_at in (2, 1, 0):  # the optional inode and blocks words are tried present first
        if mode_at + 2 < len(words) and is_mode(words[mode_at]) and digits(words[mode_at + 1]) \
                and prefix_fits(text, words, spans, mode_at):
            fields = _after_links(text, words, spans, mode_at)
            if fields is not None:
                return fields
    return None


def _after_links(text: str, words: list[str], spans: Spans, mode_at: int) -> Fields | None:
    owners_at = mode_at + 2
    for owners in (0, 1, 2):  # `{0,2}?`: the fewest owner words first
        size_at = owners_at + owners
        if size_at >= len(words):
            return None
        for size_end, date_at in size_readings(words, spans, size_at):
            for date_end in date_ends(words, spans, date_at):
                if date_end < len(text):  # one whitespace, then the name
                    owner_text = text[spans[owners_at][0]:spans[size_at][0]] if owners else ""
                    return (words[mode_at][:10], owner_text, text[spans[size_at][0]:size_end],
                            text[spans[date_at][0]:date_end], text[date_end + 1:])
    return None
