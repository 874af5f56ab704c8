"""The splitter must give the same lines whatever the chunking: trio hands us arbitrary chunks."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.run.splitter import LineSplitter

SAMPLE = (b"plain line\n"
          b"windows line\r\n"
          b"progress 10%\rprogress 50%\rprogress 100%\n"
          b"bad utf8 \xff\xfe here\n"
          b"caf\xc3\xa9 split multibyte\n"
          b"\n"
          b"no final newline")


def split_in_chunks(data: bytes, size: int) -> list[str]:
    splitter = LineSplitter()
    lines: list[str] = []
    for start in range(0, len(data), size):
        lines += splitter.feed(data[start:start + size])
    return lines + splitter.flush()


def test_lines_as_a_reader_sees_them() -> None:
    assert split_in_chunks(SAMPLE, len(SAMPLE)) == [
        "plain line", "windows line", "progress 100%", "bad utf8 \ufffd\ufffd here",
        "café split multibyte", "", "no final newline"]


@pytest.mark.parametrize("size", range(1, len(SAMPLE) + 1))
def test_every_chunk_size_gives_the_same_lines(size: int) -> None:
    assert split_in_chunks(SAMPLE, size) == split_in_chunks(SAMPLE, len(SAMPLE))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.integers(min_value=1, max_value=40))
def test_chunking_never_changes_lines(data: bytes, size: int) -> None:
    assert split_in_chunks(data, size) == split_in_chunks(data, max(len(data), 1))


def test_overlong_line_is_cut_not_held_in_memory() -> None:
    splitter = LineSplitter(max_line_bytes=1024)
    lines = splitter.feed(b"x" * 5000)
    assert lines and all(len(line) <= 1024 for line in lines)
    assert "".join(lines + splitter.flush()) == "x" * 5000


def test_trailing_carriage_return_keeps_the_last_state() -> None:
    assert split_in_chunks(b"a\rb\r", 1) == split_in_chunks(b"a\rb\r", 4)


def split_capped(data: bytes, size: int, cap: int) -> list[str]:
    splitter = LineSplitter(max_line_bytes=cap)
    lines: list[str] = []
    for start in range(0, len(data), size):
        lines += splitter.feed(data[start:start + size])
    return lines + splitter.flush()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"b", b"\n", b"\xc3\xa9", b"\xff"]), max_size=200),
       st.integers(min_value=1, max_value=40), st.sampled_from([8, 16, 33]))
def test_lines_over_the_cap_are_cut_where_the_line_says_not_where_chunks_end(
        parts: list[bytes], size: int, cap: int) -> None:
    """A minified JSON document arriving in one read or in many gives the same pieces."""
    data = b"".join(parts)
    assert split_capped(data, size, cap) == split_capped(data, max(len(data), 1), cap)


@pytest.mark.parametrize("raw, lines", [
    (b"Rebasing (1/7)\rRebasing (4/7)\rAuto-merging x\n", ["Rebasing (4/7)", "Auto-merging x"]),
    (b"Receiving objects:  10% (1/10)\rReceiving objects: 100% (10/10), done.\n",
     ["Receiving objects: 100% (10/10), done."]),
    (b" 50%\r100%\n", ["100%"]),
    (b"crlf line\r\n", ["crlf line"]),
])
def test_a_redraw_keeps_the_step_another_message_overwrote(raw: bytes, lines: list[str]) -> None:
    """A rebase that stops prints its progress, then its error over it: the step is a fact."""
    for size in range(1, len(raw) + 1):
        assert split_in_chunks(raw, size) == lines
