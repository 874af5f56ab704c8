"""ls: long lines parsed into name/kind/size, sections, grouping, elision, pass-through."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from rtk.filters.base import FilterContext, Stream
from rtk.filters.ls import create
from rtk.filters.ls.entry import parse_long
from rtk.filters.ls.filter import PassFilter


def run(argv: str, lines: Sequence[str], limits: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    filt = create(FilterContext(tuple(argv.split()), True, limits or {}))
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    return filt, out + [ln.text for ln in filt.finish(0)]


@pytest.mark.parametrize(("line", "rendered"), [
    ("-rw-r--r-- 1 root root   6131 Jan  1  1970 __init__.py", "__init__.py 6131"),
    ("drwxr-xr-x 3 root root   4096 Dec  1 13:55 rich", "rich/"),
    ("lrwxrwxrwx 1 root root     20 Dec  1 15:20 eslint -> ../eslint/bin/eslint.js",
     "eslint -> ../eslint/bin/eslint.js"),
    ("-rwxr-xr-x 1 root root    812 Dec  1 15:20 build.rs", "build.rs* 812"),
    ("-rw-r--r-- 1 root root   5.7K Dec  1 15:23 haystack.rs", "haystack.rs 5.7K"),
    ("-rw-r--r-- 1 root root 2821 2026-12-01 15:22 package.json", "package.json 2821"),
    ("1234 -rw-r--r-- 1 1000 1000 77 Jan  1  1970 with inode", "with inode 77"),
    ("-rw-r--r-- 1 root 6131 Jan  1  1970 no group (-G)", "no group (-G) 6131"),
    ("crw-rw-rw- 1 root root 1, 3 Dec  1 15:00 null", "null 1,3 (c)"),
])
def test_long_lines_keep_name_kind_and_size(line: str, rendered: str) -> None:
    entry = parse_long(line)
    assert entry is not None and entry.render() == rendered


def test_not_a_long_line() -> None:
    assert parse_long("README.md") is None
    assert parse_long("total 1100") is None


def test_long_listing_groups_directories_and_drops_dots_and_total() -> None:
    _, out = run("ls -la", [
        "total 12", "drwxr-xr-x 3 root root 4096 Dec  1 13:55 .", "drwxr-xr-x 5 root root 4096 Dec  1 14:12 ..",
        "drwxr-xr-x 2 root root 4096 Dec  1 13:55 docs", "-rw-r--r-- 1 root root 61 Jan  1  1970 a.py",
        "drwxr-xr-x 2 root root 4096 Dec  1 13:55 src"])
    assert out == ["dirs: docs src", "a.py 61"]


def test_a_long_listing_is_an_elision_so_the_recall_hint_follows_and_a_plain_one_is_not() -> None:
    long, _ = run("ls -la", ["total 4", "-rw-r--r-- 1 root root 61 Jan  1  1970 a.py"])
    assert long.elided  # modes, owners and times left out: the runner keeps the raw and prints the hint
    plain, out = run("ls", ["a.py", "b.py"])
    assert not plain.elided and out == ["a.py b.py"]  # every name kept


def test_sorted_by_time_keeps_the_order() -> None:
    _, out = run("ls -lt", ["drwxr-xr-x 2 root root 4096 Dec  1 13:55 new",
                            "-rw-r--r-- 1 root root 61 Jan  1  1970 old.py"])
    assert out == ["new/", "old.py 61"]


def test_recursive_headers_and_quoted_names_with_spaces() -> None:
    _, out = run("ls -R", [".:", "a", "snow ☃", "", "./a:", "b.txt"])
    assert out == [".: a 'snow ☃'", "./a: b.txt"]  # each directory's names on its header's line


def test_a_recursive_directory_names_what_does_not_fit_indented_under_it() -> None:
    names = [f"module_{i:03}.py" for i in range(30)]
    _, out = run("ls -R", ["src:", *names, "", "src/empty:", "", "src/b:", "x.py"])
    assert out[0].startswith("src: module_000.py module_001.py") and len(out[0]) <= 170
    assert all(line.startswith(" module_") for line in out[1:-2]) and len(out) > 3
    assert " ".join(out[:-2]).split()[1:] == names
    assert out[-2:] == ["src/empty:", "src/b: x.py"]


def test_a_recursive_long_listing_keeps_one_file_a_line_under_its_directory() -> None:
    _, out = run("ls -lR", ["lib:", "total 8", "-rw-r--r-- 1 u g 1636 Oct  1 12:00 express.js",
                            "-rw-r--r-- 1 u g 5293 Oct  1 12:00 utils.js"])
    assert out == ["lib:", " express.js 1636", " utils.js 5293"]


def test_errors_are_verbatim_and_explain_the_exit() -> None:
    filt, out = run("ls -la nosuchdir src", ["ls: cannot access 'nosuchdir': No such file or directory", "src:",
                                             "drwxr-xr-x 2 root root 4096 Dec  1 13:55 flask"])
    assert out[0] == "ls: cannot access 'nosuchdir': No such file or directory"
    assert filt.failure_seen


def test_a_huge_directory_keeps_its_start_and_end() -> None:
    names = [f"pkg{i:04d}" for i in range(1000)]
    filt, out = run("ls -1", names, {"ls_max_entries": 100, "ls_tail_entries": 20})
    text = "\n".join(out)
    assert "pkg0000" in text and "pkg0079" in text and "pkg0999" in text and "pkg0980" in text
    assert "pkg0500" not in text and "... 900 more entries" in text
    assert filt.elided


@pytest.mark.parametrize("argv", ["ls --format=json", "ls -C", "ls -m", "ls -Q", "ls --full-time", "ls -Z"])
def test_layouts_we_do_not_parse_pass_through(argv: str) -> None:
    filt, out = run(argv, ["a  b  c", "d"])
    assert isinstance(filt, PassFilter) and out == ["a  b  c", "d"]
