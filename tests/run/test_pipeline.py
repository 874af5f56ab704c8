"""The rules every filter gets for free: hold-and-compare, crash fallback, raw tail, recall hint."""
from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from rtk import recall
from rtk.filters.base import Line, Stream
from rtk.recall import RawSpool
from rtk.run.pipeline import OutputPipeline, PassthroughPipeline, Writer


class KeepMatching:
    """A stand-in filter: keeps lines containing `keep`, drops the rest as content."""

    def __init__(self, keep: str = "KEEP", *, recognises_failure: bool = False,
                 crash_on: str | None = None) -> None:
        self.keep, self.crash_on = keep, crash_on
        self.elided = False
        self.failure_seen = recognises_failure

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if self.crash_on and self.crash_on in line:
            raise ValueError("boom")
        if self.keep in line:
            return [Line(line, stream)]
        self.elided = True
        return []

    def finish(self, exit_code: int) -> Iterable[Line]:
        return [Line("summary", Stream.STDOUT)]

    def progress(self) -> dict[str, int]:
        return {}


def run(filt: KeepMatching, chunks: list[tuple[bytes, Stream]], exit_code: int = 0,
        spool: RawSpool | None = None) -> OutputPipeline:
    pipeline = OutputPipeline(filt, Writer(), spool, filter_name="test", command="cmd",
                              hold_seconds=None)
    for data, stream in chunks:
        pipeline.feed(data, stream)
    pipeline.finish(exit_code)
    return pipeline


def lines_of(n: int, keep_every: int = 10) -> bytes:
    return b"".join(b"line %d %s\n" % (i, b"KEEP" if i % keep_every == 0 else b"drop") for i in range(n))


def test_short_output_prints_raw_when_filtering_would_not_shrink_it(capfd: pytest.CaptureFixture[str]) -> None:
    run(KeepMatching(), [(b"one KEEP\n", Stream.STDOUT)])
    assert capfd.readouterr().out == "one KEEP\n"


def test_elided_output_is_kept_for_recall(capfd: pytest.CaptureFixture[str], hermetic_rtk) -> None:
    from rtk import paths

    raw = lines_of(200)
    spool = RawSpool(paths.private_dir(paths.recall_dir()), 1 << 20)
    outcome_pipeline = run(KeepMatching(), [(raw, Stream.STDOUT)], spool=spool)
    out = capfd.readouterr().out
    hint = re.search(r"\[full output: rtk recall ([0-9a-f]{8,})\]\n\Z", out)
    assert hint, out
    assert out.count("KEEP") == 20 and "summary" in out
    assert recall.read(recall.resolve(hint.group(1))) == raw
    assert outcome_pipeline.raw_bytes == len(raw)


def test_filter_crash_lets_the_rest_through_raw(capfd: pytest.CaptureFixture[str]) -> None:
    raw = lines_of(100) + b"CRASH here\n" + b"after the crash\n"
    pipeline = run(KeepMatching(crash_on="CRASH"), [(raw, Stream.STDOUT)])
    captured = capfd.readouterr()
    assert "after the crash" in captured.out and "CRASH here" in captured.out
    assert "filter failed (ValueError: boom)" in captured.err
    assert pipeline.filter_error == "test: ValueError: boom"


def test_unrecognised_failure_gets_the_raw_tail(capfd: pytest.CaptureFixture[str]) -> None:
    raw = lines_of(100) + b"fatal: something the filter did not understand\n"
    run(KeepMatching(), [(raw, Stream.STDERR)], exit_code=3)
    out = capfd.readouterr().out
    # the last 40 raw lines (61 to 99, then fatal), less the 3 KEEP lines the filter printed already
    assert "[rtk: exit code 3; last 37 lines of raw output (3 already shown or cut):]" in out
    assert "fatal: something the filter did not understand" in out
    assert out.count("line 99 drop") == 1 and "line 70 KEEP" not in out  # KEEP lines went to stderr


def test_recognised_failure_needs_no_tail(capfd: pytest.CaptureFixture[str]) -> None:
    run(KeepMatching(recognises_failure=True), [(lines_of(100), Stream.STDOUT)], exit_code=1)
    assert "raw output:" not in capfd.readouterr().out


def test_lines_stay_on_their_stream(capfd: pytest.CaptureFixture[str]) -> None:
    run(KeepMatching(), [(lines_of(50), Stream.STDOUT), (b"err KEEP\n" * 3, Stream.STDERR)])
    captured = capfd.readouterr()
    assert captured.err == "err KEEP\n" * 3
    assert "err" not in captured.out


def test_passthrough_writes_bytes_untouched(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    pipeline = PassthroughPipeline(Writer())
    pipeline.feed(b"\x1b[31mred\x1b[0m\r\n\xff", Stream.STDOUT)
    outcome = pipeline.finish(0)
    assert capfdbinary.readouterr().out == b"\x1b[31mred\x1b[0m\r\n\xff"
    assert outcome.raw_bytes == outcome.printed_bytes == 15


class Verbose(KeepMatching):
    """Keeps every line and adds a long summary: filtering makes short output larger."""

    def finish(self, exit_code: int) -> Iterable[Line]:
        return [Line("summary: " + "many words of commentary " * 5, Stream.STDOUT)]


def test_short_output_prints_raw_when_the_filtered_form_has_more_tokens(capfd: pytest.CaptureFixture[str]) -> None:
    raw = b"".join(b"KEEP %d\n" % i for i in range(5))
    run(Verbose(), [(raw, Stream.STDOUT)])
    assert capfd.readouterr().out == raw.decode()


def test_a_near_tie_in_estimated_tokens_goes_to_raw() -> None:
    from rtk.run.pipeline import _clearly_smaller

    raw = [Line("[feature/retry c7c939ca] core: note where options are resolved", Stream.STDOUT),
           Line(" 1 file changed", Stream.STDOUT)]
    reworded = [Line("ok [feature/retry c7c939ca] core: note where options are resolved, 1 file", Stream.STDOUT)]
    assert not _clearly_smaller(reworded, raw)  # fewer bytes, about as many tokens: raw
    assert _clearly_smaller([Line("ok feature/retry", Stream.STDOUT)], raw)
    assert not _clearly_smaller(raw, raw)


def test_the_raw_tail_repeats_nothing_already_printed(capfd: pytest.CaptureFixture[str]) -> None:
    """`rtk pytest --help` with a broken conftest: the filter printed nearly everything, then the
    command failed; the tail must not print the same lines again."""
    errors = b"".join(b"ImportError while loading conftest module number %d\n" % i for i in range(6))
    noise = b"".join(b"collecting ... %d\n" % i for i in range(20))  # dropped early: room for the tail
    raw = noise + b"".join(b"help line %d KEEP\n" % i for i in range(80)) + errors
    run(KeepMatching(), [(raw, Stream.STDOUT)], exit_code=4)
    out = capfd.readouterr().out
    assert out.count("help line 79 KEEP") == 1
    assert "last 6 lines of raw output (34 already shown or cut)" in out
    assert errors.decode() in out
    assert len(out.encode()) <= len(raw)


def test_the_raw_tail_never_grows_the_output_past_raw(capfd: pytest.CaptureFixture[str]) -> None:
    raw = b"".join(b"KEEP %d " % i + b"x" * 60 + b"\n" for i in range(60)) + b"drop tiny\n" * 2
    run(KeepMatching(), [(raw, Stream.STDOUT)], exit_code=1)
    out = capfd.readouterr().out
    assert len(out.encode()) <= len(raw)


def test_invalid_utf8_gets_one_marker_naming_the_recall_id(capfdbinary: pytest.CaptureFixture[bytes],
                                                          hermetic_rtk) -> None:
    from rtk import paths

    raw = b"caf\xe9 KEEP\n" + b"ok KEEP\n" * 3 + b"\xff\xfe KEEP\n"
    spool = RawSpool(paths.private_dir(paths.recall_dir()), 1 << 20)
    run(KeepMatching(), [(raw[:4], Stream.STDOUT), (raw[4:], Stream.STDOUT)], spool=spool)
    out = capfdbinary.readouterr().out
    markers = re.findall(rb"\[rtk: invalid UTF-8 in the output is shown as U\+FFFD; exact bytes: rtk recall "
                         rb"([0-9a-f]+)\]\n", out)
    assert len(markers) == 1 and out.count(b"[rtk:") == 1
    assert "caf\ufffd KEEP".encode() in out
    assert recall.read(recall.resolve(markers[0].decode())) == raw


def test_valid_utf8_split_across_chunks_needs_no_marker(capfd: pytest.CaptureFixture[str]) -> None:
    raw = "naïve café — ok KEEP\n".encode()
    run(KeepMatching(), [(raw[:3], Stream.STDOUT), (raw[3:9], Stream.STDOUT), (raw[9:], Stream.STDOUT)])
    assert capfd.readouterr().out == raw.decode()


def test_passthrough_keeps_invalid_bytes_and_adds_no_marker(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    pipeline = PassthroughPipeline(Writer())
    pipeline.feed(b"\xff\xfe\n", Stream.STDOUT)
    pipeline.finish(0)
    assert capfdbinary.readouterr().out == b"\xff\xfe\n"


def test_an_output_without_a_final_newline_ends_without_one(capfd: pytest.CaptureFixture[str]) -> None:
    run(KeepMatching(), [(b"no newline at the end KEEP", Stream.STDOUT)])
    assert capfd.readouterr().out == "no newline at the end KEEP"
    run(KeepMatching(), [(lines_of(60, keep_every=1) + b"last KEEP", Stream.STDOUT)])
    assert capfd.readouterr().out.endswith("line 59 KEEP\nlast KEEP")


def test_a_summary_that_only_adds_to_a_streamed_output_is_left_out(capfd: pytest.CaptureFixture[str]) -> None:
    raw = lines_of(60, keep_every=1)
    run(KeepMatching(), [(raw, Stream.STDOUT)])
    assert capfd.readouterr().out == raw.decode()  # nothing dropped: the summary would make it larger
    run(KeepMatching(), [(lines_of(60, keep_every=2), Stream.STDOUT)])
    assert capfd.readouterr().out.endswith("summary\n")  # the filter saved room: its summary stays


def test_a_raw_tail_line_past_its_length_is_cut_with_a_count(capfd: pytest.CaptureFixture[str]) -> None:
    """A line of the splitter's 1 MiB in the raw tail: its first 4,096 characters and how many
    more there were (the tail held 40 such lines, 40 MiB, before)."""
    from rtk.run.pipeline import TAIL_LINE_CHARS

    long = b"x" * (TAIL_LINE_CHARS + 5000)
    run(KeepMatching(), [(lines_of(400) + long + b"\nerror: build failed\n", Stream.STDOUT)], exit_code=2)
    out = capfd.readouterr().out
    assert f"{'x' * TAIL_LINE_CHARS} [rtk: 5,000 more characters]\n" in out
    assert out.endswith("error: build failed\n") and "x" * (TAIL_LINE_CHARS + 1) not in out


def test_memory_stays_bounded_on_a_few_huge_lines() -> None:
    """Thirty lines of 1 MiB are not a short output: the hold lets go past HOLD_BYTES, and the
    tail keeps each line's start only, so little more than one such line is held at a time."""
    import tracemalloc

    pipeline = OutputPipeline(KeepMatching(keep="x"), Writer(), None, filter_name="test", command="cmd",
                              hold_seconds=None)
    line = b"x" * (1 << 20) + b"\n"
    tracemalloc.start()
    try:
        for _ in range(30):
            pipeline.feed(line, Stream.STDOUT)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 12 << 20, peak  # held every line before: 60 MiB and more
