"""The str-method reader of `ls -l` lines agrees with the regex it replaced, on every layout ls
prints (-i, -s, -g/-o/-G, -h, device numbers, the time styles) and on near-misses of each."""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rtk.filters.ls import long_line
from rtk.filters.ls.long_line import FIELDS, LONG_PATTERN, long_fields, str_fields, word_spans

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ls"
PREFIX = ["", "123", "4.0K", "12", "1,5", "٣", "x1"]
MODES = ["-rw-r--r--", "drwxr-xr-x", "lrwxrwxrwx", "crw-rw----", "-rwsr-xr-x.", "-rw-r--r--@", "drwxrwxrwt+", "-rw-r--r--.@",
         "-rw-r--r-", "?---------", "Drw-------", "-rw-r--r--x", "zrw-r--r--"]
LINKS = ["1", "12", "٣", "a"]
OWNERS = ["root", "1000", "dev", "Jan", "12", "staff", "a b", "5", "2024-01-31"]
SIZES = ["6131", "0", "4.0K", "12Mi", "8,", "8,1", "1,234", "5i", "12B", "K", ",", "9.9G"]
DATES = ["Jan  1  1970", "Dec 24 12:30", "1 Jan 2020", "24 Dec 9:05", "2024-01-31", "2024-01-31 12:00",
         "2024-01-31 12:00:59.123456789 +0100", "2024-01-31 12:00:59 -0500", "01-31 12:00", "Jan 1",
         "2024-1-31", "jan 1 1970", "Jan 123 1970", "12:00", "+0100", "Jan 1 12345", "Dec 24 9:5", "1 Jan 1:30"]
NAMES = ["a.py", "my file.txt", " lead", "link -> target", "Jan 1 1970", "2024-01-31", "12:00", "8, 1", ""]
SPACES = [" ", "  ", "\t", "\u00a0", " \t "]


@st.composite
def long_lines(draw: st.DrawFn) -> str:
    parts = [draw(st.sampled_from(PREFIX)), draw(st.sampled_from(PREFIX)), draw(st.sampled_from(MODES)),
             draw(st.sampled_from(LINKS)), *draw(st.lists(st.sampled_from(OWNERS), max_size=3)),
             draw(st.sampled_from(SIZES)), draw(st.sampled_from(DATES)), draw(st.sampled_from(NAMES))]
    if draw(st.booleans()):
        del parts[draw(st.integers(0, len(parts) - 1))]
    text = "".join(part + draw(st.sampled_from(SPACES)) for part in parts if part)
    return draw(st.sampled_from(["", " ", "  "])) + (text if draw(st.booleans()) else text.rstrip())


def reference(text: str) -> tuple[str, ...] | None:
    found = re.match(LONG_PATTERN, text)
    return tuple(found[field] for field in FIELDS) if found else None


@settings(max_examples=6000, deadline=None)
@given(long_lines())
@example("-rw-r--r-- 1 5 2024-01-31 7 2024-01-31 x")  # no owner and two owners both read: fewest first
@example("crw-rw---- 1 root disk 8,  1 Jan  1  1970 sda1")
def test_the_reader_equals_the_regex_on_ls_layouts(text: str) -> None:
    assert str_fields(text) == reference(text)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="-rwxdl 0123456789:.,KJan\t\n", max_size=60))
def test_the_reader_equals_the_regex_on_noise(text: str) -> None:
    # (a line holding a newline, which the splitter never gives, is the regex's)
    assert (long_fields(text) if "\n" in text else str_fields(text)) == reference(text)


def test_the_reader_equals_the_regex_on_every_captured_line() -> None:
    lines = [line for raw in FIXTURES.glob("*/raw.txt") for line in raw.read_text(errors="replace").splitlines()]
    assert len(lines) > 200
    matched = [line for line in lines if reference(line)]
    assert len(matched) > 100
    for line in lines:
        assert str_fields(line) == reference(line), line


def test_a_long_listing_is_read_by_the_regex_after_the_str_reader(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    lines = [line for raw in sorted(FIXTURES.glob("*/raw.txt")) for line in raw.read_text(errors="replace").splitlines()]
    monkeypatch.setattr(long_line, "_str_lines_left", 5)
    calls = []
    monkeypatch.setattr(long_line, "str_fields", lambda text: calls.append(text) or str_fields(text))
    assert [long_fields(line) for line in lines] == [reference(line) for line in lines]
    assert calls == lines[:5] and long_line._str_lines_left == 0


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab1:-  \t\u00a0\u2003\x1c\x0b\n"), max_size=40), st.integers(0, 14))
def test_word_spans_are_the_first_runs_of_non_whitespace(text: str, limit: int) -> None:
    assert word_spans(text, limit) == [m.span() for m in re.finditer(r"\S+", text)][:limit]
