"""The generic filter's byte path (whole blocks printed as they came) must print exactly what the
line path prints, whatever the content and the chunking: it is only allowed to be faster."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.base import FilterContext, Stream
from rtk.filters.generic.filter import GenericFilter
from rtk.run.pipeline import OutputPipeline, Writer

LINES = st.sampled_from([b"alpha", b"beta", b"", b"alpha ", b"tab\t", b"\x1b[31mred\x1b[0m", b"caf\xc3\xa9",
                         b"50%\r100%", b"\xff bad", b"x" * 40, b"\x0bvt", b"gamma"])


class LinePathOnly(GenericFilter):
    feed_block = None  # type: ignore[assignment]


def printed(filt: GenericFilter, data: bytes, chunk: int) -> bytes:
    out: list[bytes] = []
    writer = Writer(out.append)
    writer.broken = {1, 2}
    pipeline = OutputPipeline(filt, writer, None, filter_name="generic", command="x", hold_seconds=None)
    pipeline.release_hold()  # the byte path serves streaming output, past the hold
    for start in range(0, len(data), chunk):
        pipeline.feed(data[start:start + chunk], Stream.STDOUT)
    pipeline.finish(0)
    return b"".join(out)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=60), st.integers(min_value=1, max_value=64), st.booleans())
def test_byte_path_prints_what_the_line_path_prints(lines: list[bytes], chunk: int, final_newline: bool) -> None:
    data = b"\n".join(lines) + (b"\n" if final_newline and lines else b"")
    expected = printed(LinePathOnly(FilterContext()), data, chunk)
    assert printed(GenericFilter(FilterContext()), data, chunk) == expected
    assert printed(GenericFilter(FilterContext()), data, max(len(data), 1)) == expected


def test_plain_block_takes_the_byte_path() -> None:
    filt = GenericFilter(FilterContext())
    assert filt.feed_block(b"one\ntwo\nthree\n", Stream.STDOUT) == b"one\ntwo\nthree\n"
    assert filt.feed_block(b"three\nfour\n", Stream.STDOUT) is None  # repeats the last line
    assert GenericFilter(FilterContext()).feed_block(b"a \nb\n", Stream.STDOUT) is None
