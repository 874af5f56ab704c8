"""The pytest filter's shortening of large outputs: assertion diffs, warnings raised from many
places, INTERNALERROR tracebacks through pluggy. Fed line by line, as in test_pytest_filter.py."""
from __future__ import annotations

from rtk.filters.base import FilterContext, Stream
from rtk.filters.pytest import create
from rtk.filters.pytest.ediff import cap_e_lines, compact, drop_restated
from rtk.filters.pytest.filter import PytestFilter

SEP = "=" * 30


def run(lines: list[str], exit_code: int = 1) -> tuple[list[str], PytestFilter]:
    filt = create(FilterContext(("pytest",), recall_enabled=True))
    printed = [out.text for line in lines for out in filt.feed(line, Stream.STDOUT)]
    return printed + [out.text for out in filt.finish(exit_code)], filt


def failure(*e_lines: str) -> list[str]:
    return [f"{SEP} FAILURES {SEP}", "____ test_x ____", ">       assert a == b", *e_lines, "",
            "tests/test_x.py:9: AssertionError", f"{SEP} 1 failed in 0.10s {SEP}"]


# -- assertion diffs --------------------------------------------------------------------------

def test_unittest_diff_after_first_differing_element_keeps_a_window_and_counts_the_rest() -> None:
    head = ["E       AssertionError: Lists differ: [3, 4, 5] != [1, 2, 3]", "E       ",
            "E       First differing element 0:", "E       3", "E       1", "E       "]
    diff = ["E       - [3,", "E       + [1,", *(f"E       {'-+'[i % 2]}  {10 + i}," for i in range(6))]
    printed, filt = run(failure(*head, *diff))
    assert [t for t in printed if t.startswith("E ")] == [
        head[0], *head[2:5], "E       -  10,", "E       +  11,", "E       ... 4 more diff lines"]
    assert filt.elided


def test_a_single_line_past_the_window_is_kept_rather_than_counted() -> None:
    head = ["E       AssertionError: Lists differ: [3] != [1]", "E       First differing element 0:",
            "E       3", "E       1"]
    lines, cut = compact([*head, "E       - 7,", "E       + 8,", "E       - 9,", "t.py:1: AssertionError"])
    assert lines == [*head, "E       - 7,", "E       + 8,", "E       - 9,", "t.py:1: AssertionError"]
    assert not cut


def test_pytests_rerun_hints_go_and_long_unchanged_runs_leave_a_count() -> None:
    e_lines = ["E       assert [0, 1, 2] == [0, 1]", "E         Use -v to get more diff",
               "E         Omitting 1 identical items, use -vv to show", "E         Full diff:",
               "E           [", *(f"E               {i}," for i in range(9)), "E         -     9,", "E           ]"]
    lines, cut = compact(e_lines)
    assert lines == [e_lines[0], "E         Full diff:", "E           ... 10 unchanged lines", "E         -     9,",
                     "E           ]"]
    assert cut


def test_the_e_line_cap_applies_after_the_diff_is_compacted() -> None:
    e_lines = ["E   assert x == y", *(f"E     {i}" for i in range(45))]
    lines, counted = cap_e_lines([*e_lines, "t.py:3: AssertionError"], 40, held_back=5)
    assert lines == [*e_lines[:40], "... 11 more E lines", "t.py:3: AssertionError"]
    assert counted == 11


def test_a_diff_longer_than_the_cap_is_compacted_before_it_is_cut() -> None:
    body = [f"E               {i}," for i in range(300)]
    printed, _ = run(failure("E       assert [0] == [1]", "E         Full diff:", *body[:150],
                             "E         -     150,", *body[151:]))
    assert "E         -     150," in printed
    assert "E               ... 150 unchanged lines" in printed


# -- warnings -----------------------------------------------------------------------------------

def test_one_warning_message_from_many_places_is_printed_once_with_every_place() -> None:
    message = "DeprecationWarning: 'isolated_filesystem' is deprecated"
    section = [f"{SEP} warnings summary {SEP}"]
    for line in (10, 20, 20, 30):
        section += [f"tests/test_cli.py::test_{line}", f"  /src/tests/test_cli.py:{line}: {message}",
                    "    with runner.isolated_filesystem():", ""]
    printed, _ = run([*section, f"{SEP} 1 passed, 4 warnings in 0.10s {SEP}"], exit_code=0)
    assert printed == ["pytest: 1 passed in 0.10s", "4 warnings: DeprecationWarning x4",
                       (f"  {message} (x4) at /src/tests/test_cli.py:10, /src/tests/test_cli.py:20 (x2), "
                        "/src/tests/test_cli.py:30")]


def test_places_past_the_cap_are_counted() -> None:
    section = [f"{SEP} warnings summary {SEP}"]
    for line in range(33):
        section += [f"t.py::test_{line}", f"  t.py:{line + 1}: UserWarning: slow"]
    printed, filt = run([*section, f"{SEP} 33 passed, 33 warnings in 0.10s {SEP}"], exit_code=0)
    assert printed[-1].endswith("t.py:30, +3 more places")
    assert filt.elided


# -- INTERNALERROR --------------------------------------------------------------------------------

def frame(path: str, line: int, func: str, source: str) -> list[str]:
    return [f'INTERNALERROR>   File "{path}", line {line}, in {func}', f"INTERNALERROR>     {source}"]


def test_internalerror_folds_pytest_and_pluggy_frames_and_keeps_the_projects() -> None:
    site = "/venv/lib/python3.11/site-packages"
    lines = ["INTERNALERROR> Traceback (most recent call last):",
             *frame(f"{site}/_pytest/main.py", 333, "wrap_session", "session.exitstatus = doit()"),
             *frame(f"{site}/pluggy/_callers.py", 167, "_multicall", "teardown.throw(exception)"),
             *frame("/proj/tests/conftest.py", 2, "pytest_collection_modifyitems", "items.sort(key=k)"),
             "INTERNALERROR> AttributeError: 'NoneType' object has no attribute 'args'"]
    printed, filt = run([*lines, "no tests ran in 0.10s"], exit_code=3)
    assert printed[:5] == [lines[0], "INTERNALERROR>   ... 2 more frames (of pytest and pluggy)", *lines[5:8]]
    assert filt.elided and filt.failure_seen


def test_a_crash_inside_pytest_keeps_its_last_frame() -> None:
    site = "/venv/lib/python3.11/site-packages"
    lines = ["INTERNALERROR> Traceback (most recent call last):",
             *frame(f"{site}/_pytest/main.py", 333, "wrap_session", "session.exitstatus = doit()"),
             *frame(f"{site}/_pytest/terminal.py", 90, "report", "self.write(x)"),
             "INTERNALERROR> OSError: [Errno 28] No space left on device"]
    printed, _ = run(lines, exit_code=3)
    assert printed[:5] == [lines[0], "INTERNALERROR>   ... 1 more frames (of pytest and pluggy)", *lines[3:6]]


# -- the byte path ----------------------------------------------------------------------------------

def test_a_block_of_bare_progress_is_counted_in_one_match() -> None:
    from rtk.filters.pytest.progress_block import passing_progress

    counted = passing_progress(b"....s.  [ 50%]\n..x.X [12/24]\n.\n")
    assert counted is not None
    assert (counted.dots, dict(counted.others), counted.path) == (9, {"s": 1, "x": 1, "X": 1}, "")
    assert passing_progress(b"....s.  [ 50%]\n..F\n") is None


# -- repeated failures --------------------------------------------------------------------------

def blocks(*named: tuple[str, list[str]]) -> list[str]:
    return [f"{SEP} FAILURES {SEP}", *(line for name, body in named for line in (f"____ {name} ____", *body)),
            f"{SEP} {len(named)} failed in 0.10s {SEP}"]


def test_a_repeat_with_the_same_output_is_one_line_and_names_the_first_by_what_differs() -> None:
    body = ["> assert parse('a b') == ['ab']", "E   AssertionError: Lists differ", "tests/t.py:9: AssertionError",
            "----- Captured stdout call -----", "['a b']"]
    printed, _ = run(blocks(("Test02.test_parse", body), ("Test04.test_parse", body)))
    assert printed[4] == "Captured stdout call:"
    assert printed[6] == "FAILED Test04.test_parse (same as Test02.test_parse)"


def test_another_parameter_of_the_same_test_is_named_by_its_brackets() -> None:
    body = ["> assert f(x)", "E   assert False", "tests/t.py:3: AssertionError"]
    printed, _ = run(blocks(("test_f[String]", body), ("test_f[Integer]", body)))
    assert printed[-2] == "FAILED test_f[Integer] (same as [String])"


def test_a_missing_fixture_is_shown_once_then_named_with_each_tests_place() -> None:
    def lookup(line: int) -> list[str]:
        return [f"file /p/tests/test_b.py, line {line}", "  def test_x(benchmark):", "E       fixture 'benchmark' not found",
                ">       available fixtures: capsys, tmp_path", ">       use 'pytest --fixtures [testpath]' for help on them.",
                "", f"/p/tests/test_b.py:{line}"]
    printed, _ = run([f"{SEP} ERRORS {SEP}", "____ ERROR at setup of test_a ____", *lookup(4),
                      "____ ERROR at setup of test_c ____", *lookup(8), f"{SEP} 2 errors in 0.10s {SEP}"])
    assert printed[:6] == ["ERROR at setup of test_a", "file /p/tests/test_b.py, line 4",
                           "E       fixture 'benchmark' not found", "> available fixtures: capsys, tmp_path",
                           "/p/tests/test_b.py:4", "ERROR at setup of test_c (same error as test_a, via /p/tests/test_b.py:8)"]


def test_after_ten_failures_captured_output_keeps_its_last_ten_lines() -> None:
    named = [(f"test_{i}", [f"> check({i})", f"E   ValueError: {i}", f"tests/t.py:{i + 1}: ValueError",
                            "----- Captured stdout call -----", *(f"line {i}.{j}" for j in range(14))]) for i in range(11)]
    printed, filt = run(blocks(*named))
    assert printed[printed.index("FAILED test_9") + 4:][:15] == ["Captured stdout call:", *(f"line 9.{j}" for j in range(14))]
    late = printed[printed.index("FAILED test_10") + 4:]
    assert late[:12] == ["Captured stdout call:", "... 4 more lines (earlier Captured stdout call output)",
                         *(f"line 10.{j}" for j in range(4, 14))]
    assert filt.elided


def test_tb_short_drops_the_test_name_after_its_own_location() -> None:
    body = ["tests/test_a.py:9: in test_parse", "    assert parse('x') == 1", "E   assert 2 == 1"]
    printed, _ = run(blocks(("test_parse", body)))
    assert printed[:4] == ["FAILED tests/test_a.py::test_parse", "tests/test_a.py:9:", "> assert parse('x') == 1",
                           "E   assert 2 == 1"]


# -- long values and --tb=native ------------------------------------------------------------------

def test_a_very_long_error_line_keeps_its_two_ends() -> None:
    value = "x = 1\\n" * 200
    line = f"E       assert '{value}' == '{value}y'"
    printed, filt = run(failure(line, "E         - y"))
    kept = next(t for t in printed if t.startswith("E       assert"))
    assert kept.startswith(line[:266]) and kept.endswith(line[-133:])
    assert f" ...[{len(line) - 266 - 133:,} chars]... " in kept
    assert filt.elided


def test_native_tracebacks_drop_caret_hints_and_the_tests_own_name() -> None:
    printed, _ = run([f"{SEP} FAILURES {SEP}", "____ test_dump ____", "Traceback (most recent call last):",
                      '  File "tests/test_api.py", line 156, in test_dump', "    assert content == dumps(parsed)",
                      "AssertionError: assert '# x...a = True' == '# x...a = true'", "  - a = true", "  ?     ^",
                      "  + a = True", "  ?     ^", "  Use -v to get more diff", f"{SEP} 1 failed in 0.10s {SEP}"])
    assert printed[:6] == ["FAILED tests/test_api.py::test_dump", 'File "tests/test_api.py", line 156',
                           "> assert content == dumps(parsed)", "AssertionError: assert '# x...a = True' == '# x...a = true'",
                           "  - a = true", "  + a = True"]


def test_the_diff_of_two_short_strings_goes_when_the_assert_line_shows_both() -> None:
    printed, _ = run(failure("E       AssertionError: assert '1_000' == '1,000'", "E         ", "E         - 1,000",
                             "E         ?  ^", "E         + 1_000", "E         ?  ^"))
    assert [t for t in printed if t.startswith("E ")] == ["E       AssertionError: assert '1_000' == '1,000'"]


def test_repeats_of_a_parametrized_test_on_the_same_line_keep_only_their_values() -> None:
    def body(value: str) -> list[str]:
        return ["> assert intcomma(v) == expected", f"E       AssertionError: assert '{value}' == 'x'",
                "tests/test_n.py:83: AssertionError"]
    printed, _ = run([f"{SEP} FAILURES {SEP}", "____ test_intcomma[a-1] ____", *body("1_0"),
                      "____ test_intcomma[b-2] ____", *body("2_0"), f"{SEP} 2 failed in 0.10s {SEP}"])
    assert printed[4:6] == ["FAILED test_intcomma[b-2] (same place as [a-1])", "E       AssertionError: assert '2_0' == 'x'"]


def test_a_run_of_repeats_of_one_failure_says_as_above() -> None:
    body = ["> db.run(sql)", "E   AttributeError: 'str' object has no attribute 'decode'", "src/db.py:9: AttributeError"]
    printed, _ = run(blocks(("test_a", body), ("test_b", body), ("test_c", body)))
    assert printed[4:] == ["FAILED test_b (same as test_a)", "FAILED test_c (same as above)",
                           "pytest: 3 failed in 0.10s"]


def test_unittests_string_diff_restating_both_values_goes() -> None:
    lines, _ = compact(["E       AssertionError: 'ab c' != 'a b c'", "E       - ab c", "E       + a b c",
                          "E        : failure in transform_string"])
    lines, restated = drop_restated(lines)
    assert lines == ["E       AssertionError: 'ab c' != 'a b c'", "E        : failure in transform_string"]
    assert restated


def test_a_long_durations_section_keeps_the_slowest_thirty() -> None:
    lines = [f"{SEP} slowest durations {SEP}", *(f"0.{99 - i:02d}s call     tests/t.py::test_{i}" for i in range(40)),
             "", "(12 durations < 0.005s hidden.  Use -vv to show these durations.)", f"{SEP} 40 passed in 1.00s {SEP}"]
    printed, filt = run(lines, exit_code=0)
    assert printed[:31] == ["slowest durations", *lines[1:31]]
    assert printed[31:] == ["(12 durations < 0.005s hidden.  Use -vv to show these durations.)",
                            "... 10 more lines (durations, faster than those listed)", "pytest: 40 passed in 1.00s"]
    assert filt.elided


def test_a_full_diff_pytest_cut_before_any_change_leaves_only_its_note() -> None:
    lines = ["E       AssertionError: assert {'a': ...} == {'a': ...}", "E         Differing items:",
             "E         {'a': 1} != {'a': 2}", "E         Full diff: (-: missing in left side, +: extra in left side)",
             "E           {", "E               'a': {...", "E         ...Full output truncated, use '-vv' to show"]
    assert compact(lines) == ([*lines[:3], lines[-1]], True)


def test_a_verbose_block_with_many_ways_to_read_each_line_is_refused_at_once() -> None:
    # each line has several `::` and ` PASSED`: a pattern that could match a line more than one
    # way would try every combination before refusing the block (this test would never end)
    from rtk.filters.pytest.progress_block import passing_progress

    lines = b"t.py::A::B::test[x PASSED y] PASSED [ 1%]\n" * 60
    assert passing_progress(lines + b"t.py::A::test_z FAILED [ 2%]\n") is None
    counted = passing_progress(lines)
    assert counted is not None and (counted.dots, counted.verbose) == (60, True)


def test_native_repeats_of_a_parametrized_test_with_slashes_in_its_ids_keep_only_their_message() -> None:
    def body(value: str) -> list[str]:
        return ["Traceback (most recent call last):", '  File "tests/t.py", line 127, in test_valid',
                "    assert dump(x) == y", f"AssertionError: assert '{value}' == 'x'"]
    printed, _ = run([f"{SEP} FAILURES {SEP}", "____ test_valid[valid/a] ____", *body("A"),
                      "____ test_valid[valid/b] ____", *body("B"), f"{SEP} 2 failed in 0.10s {SEP}"])
    assert printed[4:6] == ["FAILED tests/t.py::test_valid[valid/b] (same place as [valid/a])", "AssertionError: assert 'B' == 'x'"]
