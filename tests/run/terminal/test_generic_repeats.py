"""The generic filter at the terminal's edge: colours kept for the writer, long runs reported."""
from __future__ import annotations

import subprocess

from rtk.filters.base import FilterContext, Line, Stream
from rtk.filters.generic.filter import REPORT_EVERY, GenericFilter
from tests.conftest import rtk_executable


def feed_all(lines: list[str], stream: Stream = Stream.STDOUT) -> list[str]:
    filt = GenericFilter(FilterContext())
    out: list[Line] = []
    for line in lines:
        out.extend(filt.feed(line, stream))
    out.extend(filt.finish(0))
    return [text for text, _ in out]


def test_a_long_run_reports_its_running_count_every_report_every_copies() -> None:
    out = feed_all(["y"] * (2 * REPORT_EVERY + 5) + ["end"])
    assert out == ["y", f"(x{REPORT_EVERY})", f"(x{2 * REPORT_EVERY})", f"(x{2 * REPORT_EVERY + 5})", "end"]


def test_a_run_ending_on_a_report_is_not_reported_twice() -> None:
    assert feed_all(["y"] * REPORT_EVERY) == ["y", f"(x{REPORT_EVERY})"]


def test_short_runs_and_blank_runs() -> None:
    assert feed_all(["a", "a", "b", "b", "b", "", "  ", "", "c"]) == ["a", "a", "b", "(x3)", "", "c"]


def test_a_huge_blank_run_still_writes_now_and_then() -> None:
    assert feed_all([""] * (REPORT_EVERY + 1)) == ["", f"(x{REPORT_EVERY})", f"(x{REPORT_EVERY + 1})"]


def test_kept_lines_keep_colours_but_compare_without_them() -> None:
    red, plain = "\x1b[31mfail\x1b[0m  ", "fail"
    assert feed_all([red, plain, "ok \x1b[K"]) == ["\x1b[31mfail", "\x1b[31mfail", "ok"]


def test_generic_is_lossless_and_counts_lines() -> None:
    filt = GenericFilter(FilterContext())
    for line in ("a", "a", "b"):
        filt.feed(line, Stream.STDOUT)
    assert filt.lossless is True
    assert filt.progress() == {"lines": 3}


def test_rtk_yes_piped_into_head_ends() -> None:
    result = subprocess.run(["sh", "-c", " ".join(rtk_executable()) + " yes | head -n 3"],
                            check=False, capture_output=True, text=True, timeout=60)
    assert result.stdout == f"y\n(x{REPORT_EVERY})\n(x{2 * REPORT_EVERY})\n"
