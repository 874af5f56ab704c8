"""The generic filter at the terminal's edge: colours kept for the writer, long runs reported."""
from __future__ import annotations

import subprocess

from rtk.filters.base import FilterContext, Line, Stream
from rtk.filters.generic.filter import ELIDE_MIN_BYTES, REPORT_EVERY, STILL_REPEATING, GenericFilter
from tests.conftest import rtk_executable


def feed_all(lines: list[str], stream: Stream = Stream.STDOUT) -> list[str]:
    filt = GenericFilter(FilterContext())
    out: list[Line] = []
    for line in lines:
        out.extend(filt.feed(line, stream))
    out.extend(filt.finish(0))
    return [text for text, _ in out]


def test_a_long_run_says_it_goes_on_then_gives_one_count() -> None:
    """Issue 35, item 8: `(x10000)`, `(x20000)`, `(x25000)` read as 55,000; one count is said."""
    out = feed_all(["y"] * (2 * REPORT_EVERY + 5) + ["end"])
    assert out == ["y", STILL_REPEATING, STILL_REPEATING, f"(x{2 * REPORT_EVERY + 5})", "end"]
    assert sum(1 for line in out if line.startswith("(x")) == 1


def test_a_run_ending_on_a_report_still_gets_its_count() -> None:
    assert feed_all(["y"] * REPORT_EVERY) == ["y", STILL_REPEATING, f"(x{REPORT_EVERY})"]


def test_short_runs_and_blank_runs() -> None:
    assert feed_all(["a", "a", "b", "b", "b", "", "  ", "", "c"]) == ["a", "a", "b", "(x3)", "", "c"]


def test_a_huge_blank_run_still_writes_now_and_then() -> None:
    assert feed_all([""] * (REPORT_EVERY + 1)) == ["", STILL_REPEATING, f"(x{REPORT_EVERY + 1})"]


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
    assert result.stdout == f"y\n{STILL_REPEATING}\n{STILL_REPEATING}\n"


def _filtered(lines: list[str]) -> GenericFilter:
    filt = GenericFilter(FilterContext())
    for line in lines:
        filt.feed(line, Stream.STDOUT)
    filt.finish(0)
    return filt


def test_a_collapse_that_leaves_out_enough_asks_for_the_recall_copy() -> None:
    assert _filtered(["same line of output"] * 50).elided  # 49 copies left out: ~1 KB
    assert not _filtered(["ok", "ok", "ok", "done"]).elided  # 6 bytes: a hint would cost more
    assert not _filtered([f"pair {i}" for i in range(200) for _ in range(2)]).elided  # pairs print whole
    assert _filtered([""] * (ELIDE_MIN_BYTES + 10)).elided  # a long blank run, dropped without a count


def test_rtk_keeps_the_raw_output_of_a_collapse_and_names_it(tmp_path: object) -> None:
    code = "print('\\n'.join(['Downloading chunk ok'] * 30000 + ['Done']))"
    result = subprocess.run([*rtk_executable(), "run", "--filter", "generic", "--", "python3", "-c", code],
                            capture_output=True, text=True,
                            timeout=60, check=False)
    lines = result.stdout.splitlines()
    assert lines[0] == "Downloading chunk ok" and "(x30000)" in lines and "Done" in lines
    assert sum(1 for line in lines if line.startswith("(x")) == 1
    hint = lines[-1]
    assert hint.startswith("[full output: rtk recall ")
    entry = hint.rsplit(" ", 1)[1].rstrip("]")
    recalled = subprocess.run([*rtk_executable(), "recall", entry], capture_output=True, text=True, timeout=60,
                              check=False)
    assert recalled.stdout == "Downloading chunk ok\n" * 30000 + "Done\n"
