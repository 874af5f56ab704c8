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
