"""A folded lint's places: files with many places grouped under their path, every place kept."""
from __future__ import annotations

from rtk.filters.cargo import places


def test_a_file_with_few_places_keeps_them_inline() -> None:
    assert places.lines("warning: x (x2)", ["src/a.rs:1:2", "src/b.rs:3:4"]) == [
        "warning: x (x2): src/a.rs:1:2, src/b.rs:3:4"]


def test_a_file_with_many_places_is_grouped_in_the_order_given() -> None:
    spots = ["src/t.rs:9:1", "src/a.rs:1:2", "src/t.rs:3:4", "src/t.rs:30:1", "src/t.rs:4:5"]
    assert places.lines("warning: x (x5)", spots) == [
        "warning: x (x5): src/a.rs:1:2", "  src/t.rs", "    L9:1 L3:4 L30:1 L4:5"]


def test_only_grouped_files_leave_the_head_line_bare() -> None:
    spots = [f"C:\\src\\t.rs:{n}:1" for n in range(1, 5)]
    assert places.lines("h", spots, indent="    ") == ["h:", "    C:\\src\\t.rs", "      L1:1 L2:1 L3:1 L4:1"]


def test_a_place_without_line_and_column_stays_inline() -> None:
    assert places.split(["build.rs", "src/t.rs:1:1"]) == (["build.rs", "src/t.rs:1:1"], [])


def test_places_on_one_line_share_its_number() -> None:
    spots = ["src/t.rs:9:21", "src/t.rs:9:32", "src/t.rs:40:1", "src/t.rs:9:46"]
    assert places.split(spots)[1] == ["  src/t.rs", "    L9:21,32 L40:1 L9:46"]


def test_a_lint_denied_by_d_warnings_is_folded_though_only_its_first_error_names_it() -> None:
    from pathlib import Path

    from rtk.filters.base import FilterContext, Stream
    from rtk.filters.cargo import create

    raw = Path(__file__).resolve().parents[2] / "fixtures" / "cargo" / "spin_clippy_deny_warnings" / "raw.txt"
    filt = create(FilterContext(("cargo", "clippy", "--", "-D", "warnings")))
    printed = [line.text for text in raw.read_text().splitlines() for line in filt.feed(text, Stream.STDERR)]
    printed += [line.text for line in filt.finish(101)]
    assert printed.count("error: hiding a lifetime that's elided elsewhere is confusing") == 1
    folded = "error: hiding a lifetime that's elided elsewhere is confusing [mismatched_lifetime_syntaxes] (10 more):"
    assert any(text.startswith(folded) for text in printed)
    assert "error: unexpected `cfg` condition value: `portable_atomic` [unexpected_cfgs] (2 more):" \
        " src/lib.rs:69:11, src/lib.rs:71:7" in printed


def test_an_error_repeated_word_for_word_elsewhere_adds_only_its_place() -> None:
    from pathlib import Path

    from rtk.filters.base import FilterContext, Stream
    from rtk.filters.cargo import create

    raw = Path(__file__).resolve().parents[2] / "fixtures" / "cargo" / "ahocorasick_build_missing_crate" / "raw.txt"
    filt = create(FilterContext(("cargo", "build")))
    printed = [line.text for text in raw.read_text().splitlines() for line in filt.feed(text, Stream.STDERR)]
    printed += [line.text for line in filt.finish(101)]
    assert printed.count("error[E0432]: unresolved import `serde_json`") == 1
    assert "error[E0432]: unresolved import `serde_json` (7 more, the same labels and help): src/automaton.rs:1:5," \
        " src/classes.rs:1:5, src/dfa.rs:1:5, src/nfa.rs:1:5, src/packed/api.rs:1:5, src/packed/pattern.rs:1:5," \
        " src/prefilter.rs:1:5" in printed
    assert printed[-1] == "error: could not compile `aho-corasick` (lib) due to 12 previous errors"


def test_errors_that_differ_in_a_label_stay_whole() -> None:
    from pathlib import Path

    from rtk.filters.base import FilterContext, Stream
    from rtk.filters.cargo import create

    raw = Path(__file__).resolve().parents[2] / "fixtures" / "cargo" / "ahocorasick_build_errors" / "raw.txt"
    filt = create(FilterContext(("cargo", "build")))
    printed = [line.text for text in raw.read_text().splitlines() for line in filt.feed(text, Stream.STDERR)]
    assert printed.count("error[E0308]: mismatched types") == 4  # expected `usize` / `u32` labels differ
