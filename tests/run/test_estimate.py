"""The re-free token estimate counts exactly the regex's pieces, so printing decisions never move."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.run.estimate import PIECE_PATTERN, SHORT_TEXT, pieces

PIECE_RE = re.compile(PIECE_PATTERN)
SAMPLES = [" ", "  ", "\t", "a", "Z", "é", "ß", "_", "1", "12345", "٣", "²", "½", ".", "!!", "->", "\x1b",
           "\r", "\x1c", "\u00a0", "\u2028", "中", "🙂", "a_b", " (", "x:1:2"]
texts = st.lists(st.sampled_from(SAMPLES) | st.text(max_size=4), max_size=30).map("".join)


@settings(max_examples=5000)
@given(texts)
def test_pieces_equal_the_regex(text: str) -> None:
    assert pieces(text) == len(PIECE_RE.findall(text))


def test_long_texts_take_the_regex_and_agree() -> None:
    text = "src/rtk/run/pipeline.py:123: error: 12345 things  went_wrong\t(again) é中 " * 500
    assert len(text) > SHORT_TEXT
    assert pieces(text) == len(PIECE_RE.findall(text))


def test_a_real_line() -> None:
    line = "tests/test_x.py::test_a FAILED [ 20%]"
    assert pieces(line) == len(PIECE_RE.findall(line)) == 14
