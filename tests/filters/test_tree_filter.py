"""tree: drawing prefixes become indentation, directories are marked, the counts line stays."""
from __future__ import annotations

from collections.abc import Sequence

from rtk.filters.base import FilterContext, Stream
from rtk.filters.tree import create
from rtk.filters.tree.filter import PassFilter, split_prefix

LINES = [".", "├── Cargo.toml", "├── src", "│   ├── lib.rs", "│   └── macros.rs", "└── tests",
         "    └── integration.rs", "", "2 directories, 4 files"]


def run(argv: str, lines: Sequence[str], limits: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    filt = create(FilterContext(tuple(argv.split()), True, limits or {}))
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    return filt, out + [ln.text for ln in filt.finish(0)]


def test_split_prefix_counts_units_of_every_charset() -> None:
    assert split_prefix("│   ├── lib.rs") == (2, "lib.rs")
    assert split_prefix("│\xa0\xa0 └── utils") == (2, "utils")
    assert split_prefix("|   `-- ascii.txt") == (2, "ascii.txt")
    assert split_prefix("src") == (0, "src")


def test_tree_becomes_indented_names_with_the_counts_line() -> None:
    _, out = run("tree", LINES)
    assert out == [".", " Cargo.toml", " src/", "  lib.rs", "  macros.rs", " tests/", "  integration.rs",
                   "2 directories, 4 files"]


def test_a_long_tree_keeps_start_end_and_counts_the_middle_per_directory() -> None:
    lines = ["."] + [f"├── f{i:03d}.txt" for i in range(300)] + ["", "0 directories, 300 files"]
    filt, out = run("tree", lines, {"tree_max_lines": 50, "tree_tail_lines": 10})
    assert out[-1] == "0 directories, 300 files"
    assert " f000.txt" in out and " f299.txt" in out and any(line.startswith("... 251 more entries (./: 251)")
                                                             for line in out)
    assert filt.elided


def test_json_and_xml_output_pass_through() -> None:
    filt, out = run("tree -J", ['[{"type":"directory"}]'])
    assert isinstance(filt, PassFilter) and out == ['[{"type":"directory"}]']
