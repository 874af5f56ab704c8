"""cat/head/tail/sed -n: exact under the budget; numbered head and tail plus the command above it."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from rtk.filters.base import FilterContext, Stream
from rtk.filters.content import SERVES, create, sed_print_range
from rtk.filters.content.filter import PassFilter

LIMITS = {"content_max_lines": 50, "content_head_lines": 10, "content_tail_lines": 5}


def run(argv: Sequence[str], lines: Sequence[str], limits: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    filt = create(FilterContext(tuple(argv), True, LIMITS if limits is None else limits))
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    return filt, out + [ln.text for ln in filt.finish(0)]


def test_under_the_budget_every_line_is_exact() -> None:
    lines = [f"    line {i}  " for i in range(50)]
    filt, out = run(["cat", "app.py"], lines)
    assert out == lines and not filt.elided


def test_over_the_budget_head_tail_and_the_sed_command() -> None:
    filt, out = run(["cat", "History.md"], [f"line {i}" for i in range(1, 101)])
    assert out[:2] == ["1\tline 1", "2\tline 2"] and out[9] == "10\tline 10"
    assert out[10] == "... lines 11-95 not shown (85 lines); print them with: sed -n '11,95p' History.md"
    assert out[-1] == "100\tline 100" and filt.elided


def test_sed_ranges_number_lines_as_in_the_file() -> None:
    _, out = run(["sed", "-n", "1000,1099p", "types.d.ts"], [f"l{i}" for i in range(100)])
    assert out[0] == "1000\tl0" and "sed -n '1010,1094p' types.d.ts" in out[10]


def test_tail_and_several_files_pipe_the_same_command() -> None:
    _, out = run(["tail", "-n", "100", "build.log"], [f"l{i}" for i in range(100)])
    assert "print them with: tail -n 100 build.log | sed -n '11,95p'" in out[10]
    _, out = run(["cat", "a", "b"], [f"l{i}" for i in range(100)])
    assert "cat a b | sed -n '11,95p'" in out[10]


def test_tail_from_a_line_and_cat_s() -> None:
    _, out = run(["tail", "-n", "+500", "big.log"], [f"l{i}" for i in range(100)])
    assert out[0] == "500\tl0" and "sed -n '510,594p' big.log" in out[10]
    _, out = run(["cat", "-s", "big.log"], [f"l{i}" for i in range(100)])
    assert "cat -s big.log | sed -n '11,95p'" in out[10]


def test_a_cut_line_says_how_to_print_it_whole() -> None:
    filt, out = run(["cat", "bundle.min.js"], ["x" * 300_000], {})
    assert out == [f"1\t{'x' * 2000} [+298,000 chars; the whole line: sed -n '1,1p' bundle.min.js]"]
    assert filt.elided


def test_cat_n_is_not_numbered_twice() -> None:
    _, out = run(["cat", "-n", "x"], [f"{i:6}\tl" for i in range(1, 101)])
    assert out[0] == "     1\tl"


@pytest.mark.parametrize(("argv", "served"), [
    ("cat a.py", True), ("head -n 50 a.py", True), ("tail -n 20 log", True), ("tail -f log", False),
    ("tail -F log", False), ("tail --follow=name log", False), ("sed -n 10,20p a.py", True),
    ("sed -n /def/p a.py", True), ("sed -i s/a/b/ a.py", False), ("sed s/a/b/ a.py", False),
    ("sed -n 10,20p;5p a.py", False), ("sed -ne 5p a.py", True),
])
def test_what_is_served(argv: str, served: bool) -> None:
    assert (SERVES.match(argv.split()) is not None) is served


def test_sed_print_range() -> None:
    assert sed_print_range(["sed", "-n", "10,20p", "f"]) == (10, ["f"])
    assert sed_print_range(["sed", "-n", "-e", "5p", "f", "g"]) == (5, ["f", "g"])
    assert sed_print_range(["sed", "-n", "/a/,/b/p", "f"]) == (0, ["f"])
    assert sed_print_range(["sed", "10,20p", "f"]) is None


def test_unknown_options_pass_through() -> None:
    filt, _ = run(["head", "-z", "f"], ["x"])
    assert isinstance(filt, PassFilter)


def test_the_left_out_middle_comes_with_its_outline() -> None:
    lines = ["import os", *(line for n in range(40) for line in (f"class Model{n}:", f"    def save_{n}(self):",
                                                                  "        pass", ""))]
    _, out = run(["cat", "src/models.py"], lines, {"content_max_lines": 50, "content_head_lines": 10,
                                                    "content_tail_lines": 5})
    marker = next(i for i, line in enumerate(out) if "not shown" in line)
    assert out[marker + 1].startswith("  in lines 11-156 (")
    assert "    14: class Model3:" in out and "      15: def save_3(self):" in out


def test_markdown_headings_and_toml_sections_are_outlined() -> None:
    md = ["# Title", *(line for n in range(30) for line in (f"## Release {n}", "", "- fix", "Setext", "======"))]
    _, out = run(["cat", "CHANGES.md"], md)
    assert any(line.endswith(": ## Release 10") for line in out) and any(line.endswith(": Setext") for line in out)
    toml = [line for n in range(40) for line in (f"[tool.section{n}]", "key = 1", "")]
    _, out = run(["head", "-n", "200", "pyproject.toml"], toml)
    assert any(line.endswith(": [tool.section20]") for line in out)


def test_under_a_host_limit_the_whole_answer_fits() -> None:
    lines = [f"def f{n}(x):  # {'padding ' * 8}" for n in range(1_500)]
    filt, out = run(["cat", "big.py"], lines, {"output_max_chars": 30_000})
    assert sum(len(line) + 1 for line in out) <= 30_000 - 500 and filt.elided
    assert out[0].startswith("1\tdef f0(x)") and any("not shown" in line for line in out)
    small = [f"x = {n}" for n in range(1_000)]
    _, out = run(["cat", "small.py"], small, {"output_max_chars": 30_000})
    assert out == small  # 8 KB: whole


def test_a_configured_size_above_the_default_is_honoured() -> None:
    lines = [f"line {n} " + "x" * 100 for n in range(1_500)]  # 165 KB: over the 100 KB default
    filt, out = run(["cat", "big.txt"], lines, {"content_max_bytes": 256 * 1024})
    assert out == lines and not filt.elided
    filt, out = run(["cat", "big.txt"], lines, {})
    assert filt.elided
