"""`--message-format short`: each warning message printed once, its repeats folded with every place."""
from __future__ import annotations

from pathlib import Path

from rtk.filters.base import FilterContext, Stream
from rtk.filters.cargo import create
from rtk.filters.cargo.short import ShortLines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cargo"


def test_a_repeated_warning_is_printed_once_then_folded_with_its_places() -> None:
    short = ShortLines()
    assert short.feed("src/a.rs:1:2: warning: unused `x`") == ["src/a.rs:1:2: warning: unused `x`"]
    assert short.feed("src/b.rs:3:4: warning: unused `x`") == []
    assert short.feed("src/b.rs:3:4: warning: unused `x`") == []  # a second target: said once
    assert short.feed("src/c.rs:5:6: warning: unused `y`") == ["src/c.rs:5:6: warning: unused `y`"]
    assert short.flush() == ["warning: unused `x` (1 more): src/b.rs:3:4"] and short.warnings == 3


def test_errors_are_never_folded_and_other_lines_are_not_short_ones() -> None:
    short = ShortLines()
    error = "src/a.rs:4:9: error[E0308]: mismatched types: expected `usize`, found `u32`"
    assert short.feed(error) == [error] and short.feed(error) == [error] and short.errors == 2
    assert short.feed("warning: `x` (lib) generated 2 warnings") is None
    assert short.feed("   --> src/a.rs:4:9") is None


def test_a_real_short_check_keeps_every_message_and_place() -> None:
    filt = create(FilterContext(("cargo", "check", "--message-format", "short")))
    raw = (FIXTURES / "procmacro2_check_short_warnings" / "raw.txt").read_text().splitlines()
    printed = "\n".join(line.text for text in raw for line in filt.feed(text, Stream.STDERR))
    printed += "\n" + "\n".join(line.text for line in filt.finish(0))
    assert "warning: unexpected `cfg` condition name: `span_locations` (49 more):" in printed
    for text in raw:
        if ": warning: " in text:
            assert text.split(": warning: ", 1)[1] in printed
    assert printed.endswith("cargo check: ok (2 crates, 150 warnings, 1.07s)") and filt.elided
