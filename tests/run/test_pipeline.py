"""The rules every filter gets for free: hold-and-compare, crash fallback, raw tail, recall hint."""
from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from rtk import recall
from rtk.filters.base import Line, Stream
from rtk.run.pipeline import OutputPipeline, PassthroughPipeline, Writer
from rtk.recall import RawSpool


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
