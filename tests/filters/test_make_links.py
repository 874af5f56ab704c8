"""make/cmake/ninja: the link steps stay (issue 33), compile commands are counted."""
from __future__ import annotations

from rtk.filters.base import FilterContext
from rtk.filters.make.filter import MakeFilter, is_link
from tests.filters.line_replay import raw_lines, replay


def run(case: str, argv: tuple[str, ...] = ("make",)) -> tuple[MakeFilter, list[str]]:
    filt = MakeFilter(FilterContext(argv))
    return filt, replay(filt, raw_lines("make", case))


def test_the_final_link_command_is_kept() -> None:
    _, out = run("lua_build_ok")
    assert out == ["gcc -o lua -Wl,-E lua.o liblua.a -lm -ldl",
                   "build: 0 errors, 0 warnings (37 command lines not shown)"]


def test_every_link_step_of_a_cmake_or_ninja_build_names_what_it_built() -> None:
    _, out = run("cjson_ninja_ok", ("ninja",))
    assert sum(line.split("] ", 1)[-1].startswith("Linking C ") for line in out) == 22


def test_a_link_that_fails_keeps_its_command_and_the_linkers_error() -> None:
    filt, out = run("cjson_make_j4_link_error", ("make", "-j4", "all"))
    assert "gcc -std=c89 -shared -o libcjson_utils.so.1.7.19 cJSON_Utils.o cJSON.o -Wl,-soname=libcjson_utils.so.1" in out
    assert "/usr/bin/ld: cannot find cJSON.o: No such file or directory" in out
    assert out[-1].startswith("build: 1 errors") and filt.failure_seen


def test_compiling_is_not_linking() -> None:
    assert not is_link("gcc -c -o lapi.o lapi.c")
    assert is_link("cc -shared -o libhiredis.so alloc.o net.o")
    assert not is_link("gcc -E -o x.i x.c")
