"""The pytest filter on large outputs (issue 21): collected ids grouped, pytest-benchmark's table
cut to its timing columns, repeats named by class, diff lines restating a value above them gone.
Fed line by line, as in test_pytest_filter.py; the real captures are in fixtures/pytest/."""
from __future__ import annotations

from rtk.filters.base import FilterContext, Stream
from rtk.filters.pytest import create
from rtk.filters.pytest.collect import parent_and_name
from rtk.filters.pytest.filter import PytestFilter
from rtk.filters.pytest.longlines import cut_long_diff_lines
from rtk.filters.pytest.restated import drop_restated_values
from tests.filters.line_replay import raw_lines

SEP = "=" * 30
DASHES = "-" * 30


def run(lines: list[str], exit_code: int = 1, argv: tuple[str, ...] = ("pytest",),
        recall: bool = True) -> tuple[list[str], PytestFilter]:
    filt = create(FilterContext(argv, recall_enabled=recall))
    printed = [out.text for line in lines for out in filt.feed(line, Stream.STDOUT)]
    return printed + [out.text for out in filt.finish(exit_code)], filt


# -- --collect-only -q ------------------------------------------------------------------------

COLLECTED = ["t/test_a.py::test_one", "t/test_a.py::test_two[x::y]", "t/test_a.py::TestK::test_m",
             "t/test_b.py::test_only", "", "4 tests collected in 0.01s"]


def test_collected_ids_are_grouped_under_their_file_or_class_and_each_stays_whole() -> None:
    printed, filt = run(COLLECTED, exit_code=0, argv=("pytest", "--co", "-q"))
    assert printed == ["t/test_a.py::", "  test_one", "  test_two[x::y]", "t/test_a.py::TestK::test_m",
                       "t/test_b.py::test_only", "4 tests collected in 0.01s"]
    assert not filt.elided


def test_without_collect_only_or_recall_the_ids_are_printed_as_they_came() -> None:
    printed, _ = run(COLLECTED, exit_code=0, argv=("pytest", "--co", "-q"), recall=False)
    assert printed[:4] == COLLECTED[:4]


def test_parameters_holding_double_colons_stay_in_the_name() -> None:
    assert parent_and_name("t.py::TestA::test_b[a::b]") == ("t.py::TestA", "test_b[a::b]")


# -- pytest-benchmark -------------------------------------------------------------------------

BENCH = [f"{DASHES} benchmark: 2 tests {DASHES}",
         "Name (time in ns)     Min              Max               Mean             StdDev   Median  Rounds",
         DASHES,
         "test_fast       10.0000 (1.0)   900.0000 (1.0)     12.0000 (1.0)    1.0000 (1.0)   11.0000 (1.0)  100",
         "test_slow       20.0000 (2.0)   1,900.0000 (2.11)  24.0000 (2.0)    2.0000 (2.0)   22.0000 (2.0)  50",
         DASHES, "", "Legend:", "  Outliers: 1 Standard Deviation from Mean", "  OPS: Operations Per Second",
         "2 passed in 1.00s"]


def test_a_benchmark_table_after_a_passing_run_keeps_name_min_mean_median() -> None:
    printed, filt = run(["..", "", *BENCH], exit_code=0, argv=("pytest", "-q"))
    assert printed == ["benchmark: 2 tests", "Name (time in ns)  Min  Mean  Median",
                       "test_fast  10.0000  12.0000  11.0000", "test_slow  20.0000  24.0000  22.0000",
                       "pytest: 2 passed in 1.00s"]
    assert filt.elided


def test_benchmark_only_runs_keep_the_whole_table() -> None:
    printed, _ = run(["..", "", *BENCH], exit_code=0, argv=("pytest", "--benchmark-only"))
    assert BENCH[3] in printed and "Legend:" in printed


# -- repeats and restated values --------------------------------------------------------------

def test_the_same_test_failing_in_another_class_is_named_by_that_class() -> None:
    body = ["> self.check()", "E   AssertionError: 1 != 2", "t.py:5: AssertionError"]
    lines = [f"{SEP} FAILURES {SEP}", "____ TestA.test_x ____", *body, "____ TestB.test_x ____", *body,
             f"{SEP} 2 failed in 0.10s {SEP}"]
    progress = ["t.py::TestA::test_x FAILED", "t.py::TestB::test_x FAILED"]
    printed, _ = run([*progress, *lines])
    assert "FAILED t.py::TestB::test_x (same as TestA)" in printed


def test_a_unittest_pair_restating_the_lists_differ_line_goes() -> None:
    head = ["E   AssertionError: Lists differ: ['a', 'b'] != ['a', 'c']", "E   First differing element 1:",
            "E   'b'", "E   'c'"]
    lines, cut = drop_restated_values([*head, "E   - ['a', 'b']", "E   + ['a', 'c']", "E    : msg", "t.py:1: X"])
    assert lines == [*head, "E    : msg", "t.py:1: X"] and cut


def test_a_full_diff_changing_only_the_element_named_at_index_goes() -> None:
    head = ["E   AssertionError: assert ['x.', 'y'] == ['x', 'y']", "E     At index 0 diff: 'x.' != 'x'"]
    diff = ["E     Full diff: (-: missing in left side, +: extra in left side)", "E     -     'x',", "E     +     'x.',"]
    lines, cut = drop_restated_values([*head, *diff, "t.py:1: AssertionError"])
    assert lines == [*head, "t.py:1: AssertionError"] and cut


def test_a_full_diff_with_more_changes_than_the_indexed_one_stays() -> None:
    diff = ["E     Full diff:", "E     -     'x',", "E     +     'x.',", "E     -     'y',"]
    lines = ["E     At index 0 diff: 'x.' != 'x'", *diff]
    assert drop_restated_values(lines) == (lines, False)


def test_elements_only_moved_between_the_lists_are_counted_not_listed() -> None:
    head = ["E   AssertionError: Lists differ: [3, 1, 2, 4, 5] != [1, 2, 3, 4, 5]", "E   First differing element 0:",
            "E   3", "E   1"]
    diff = ["E   - [3,", "E   + [1,", "E   -  1,", "E   +  2,", "E   -  2,", "E   +  3,", "E   -  4]", "E   +  4,",
            "E   +  5]"]
    lines = [f"{SEP} FAILURES {SEP}", "____ test_x ____", "> check()", *head, *diff, "t.py:2: AssertionError",
             f"{SEP} 1 failed in 0.10s {SEP}"]
    printed, filt = run(lines)
    assert [t for t in printed if t.startswith("E ")] == [*head, "E   +  5]",
                                                          "E   ... 4 more diff lines (elements in both lists, moved)"]
    assert filt.elided


def test_a_one_element_lists_first_differing_element_goes() -> None:
    lines = ["E   AssertionError: Lists differ: [['a', 'b']] != [['a', 'c']]", "E   First differing element 0:",
             "E   ['a', 'b']", "E   ['a', 'c']", "E    : msg"]
    assert drop_restated_values(lines) == ([lines[0], lines[4]], True)


def test_one_item_dicts_and_lists_are_not_restated_under_the_assert() -> None:
    dict_lines = ["E   AssertionError: assert {1: ['a']} == {1: ['b']}", "E     Differing items:",
                  "E     {1: ['a']} != {1: ['b']}"]
    list_lines = ["E   AssertionError: assert ['a'] == ['b']", "E     At index 0 diff: 'a' != 'b'"]
    assert drop_restated_values(dict_lines) == (dict_lines[:1], True)
    assert drop_restated_values(list_lines) == (list_lines[:1], True)
    two = ["E   AssertionError: assert ['a', 'x'] == ['b', 'x']", "E     At index 0 diff: 'a' != 'b'"]
    assert drop_restated_values(two) == (two, False)


def test_a_long_diff_line_keeps_where_it_differs_from_its_partner() -> None:
    minus, plus = "1," * 150 + "X" + ",2" * 100, "1," * 150 + "Y" + ",2" * 100
    lines, cut = cut_long_diff_lines([f"E   - {minus}", f"E   + {plus}"])
    assert cut and all(len(line) < 220 for line in lines)
    assert "X" in lines[0] and "Y" in lines[1] and lines[0].endswith(minus[-30:])
    assert "chars]..." in lines[0]


def test_tb_line_keeps_only_the_failing_doctest_example_of_its_source() -> None:
    lines = [f"{SEP} FAILURES {SEP}", "010 Docstring.", "011 ", "012     >>> f(1)", "Expected:", "    1", "Got:",
             "    2", "", "/p/m.py:12: DocTestFailure", f"{SEP} 1 failed in 0.10s {SEP}"]
    printed, filt = run(lines, argv=("pytest", "--tb=line"))
    assert printed[:2] == ["012     >>> f(1)", "Expected:"]
    assert filt.elided


def test_the_same_test_in_another_class_failing_on_the_same_line_keeps_only_its_error() -> None:
    def block(cls: str, value: str) -> list[str]:
        return [f"____ {cls}.test_x ____", "> helper()", "t.py:5: ", "> assert a == b",
                f"E   AssertionError: {value}", "h.py:2: AssertionError"]
    lines = [f"{SEP} FAILURES {SEP}", *block("TestA", "1 != 2"), *block("TestB", "3 != 4"), f"{SEP} 2 failed in 0.1s {SEP}"]
    printed, _ = run(["t.py::TestA::test_x FAILED", "t.py::TestB::test_x FAILED", *lines])
    at = printed.index("FAILED t.py::TestB::test_x (same place as TestA)")
    assert printed[at + 1:at + 2] == ["E   AssertionError: 3 != 4"]


def test_a_failure_whose_source_context_was_dropped_is_marked_elided() -> None:
    lines = [f"{SEP} FAILURES {SEP}", "____ test_x ____", "", "    def test_x():", "        a = 1",
             ">       assert a == 2", "E       assert 1 == 2", "", "t.py:3: AssertionError", f"{SEP} 1 failed in 0.1s {SEP}"]
    printed, filt = run(lines)
    assert "    def test_x():" not in printed and filt.elided


def test_passed_lines_of_the_short_summary_go_behind_the_hint() -> None:
    lines = [".", f"{SEP} short test summary info {SEP}", "PASSED t.py::test_a", f"{SEP} 1 passed in 0.1s {SEP}"]
    printed, filt = run(lines, exit_code=0, argv=("pytest", "-rA"))
    assert printed == ["pytest: 1 passed in 0.1s"] and filt.elided


# -- pytest-cov -------------------------------------------------------------------------------

COVERAGE = [f"{SEP} tests coverage {SEP}", "_____ coverage: platform linux, python 3.11.7-final-0 _____", "",
            "Name              Stmts   Miss  Cover   Missing", "-" * 40,
            "src/p/__init__.py     9      0   100%", "src/p/core.py       173      3    98%   91, 532-536",
            "src/p/util.py        11      0   100%", "-" * 40, "TOTAL               193      3    98%", ""]


def test_a_coverage_table_keeps_the_files_not_fully_covered_and_counts_the_rest() -> None:
    printed, filt = run(["...", *COVERAGE, "3 passed in 0.10s"], exit_code=0, argv=("pytest", "-q", "--cov=p"))
    assert printed == ["tests coverage", "coverage: platform linux, python 3.11.7-final-0",
                       "Name              Stmts   Miss  Cover   Missing", "src/p/core.py       173      3    98%   91, 532-536",
                       "... 2 more files (100% covered)", "TOTAL               193      3    98%",
                       "pytest: 3 passed in 0.10s"]
    assert filt.elided


def test_a_long_missing_column_keeps_its_first_ranges_and_counts_the_rest() -> None:
    missing = ", ".join(str(n) for n in range(100, 160))
    table = [COVERAGE[3], f"src/p/core.py       173     60    65%   {missing}", "TOTAL               173     60    65%"]
    printed, _ = run(["...", "-" * 12 + " coverage: platform linux " + "-" * 12, *table, "3 passed in 0.10s"], exit_code=0)
    row = next(t for t in printed if t.startswith("src/p/core.py"))
    assert row.startswith("src/p/core.py       173     60    65%   100, 101,") and row.endswith(" more")
    assert len(row) < 140


# -- --setup-show -----------------------------------------------------------------------------

def test_setup_show_keeps_the_fixture_lines_of_failing_tests_only() -> None:
    lines = ["", "SETUP    S tmp_path_factory", "        SETUP    F env",
             "        t.py::test_a (fixtures used: env) .", "        TEARDOWN F env", "        SETUP    F env",
             "        t.py::test_b (fixtures used: env) F", "        TEARDOWN F env", "TEARDOWN S tmp_path_factory",
             f"{SEP} 1 failed, 1 passed in 0.1s {SEP}"]
    printed, filt = run(lines, argv=("pytest", "--setup-show", "-q"))
    assert printed == ["fixtures of t.py::test_b:", "SETUP    F env", "TEARDOWN F env", "TEARDOWN S tmp_path_factory",
                       "FAILED t.py::test_b", "... 3 more lines (fixture setup and teardown of passing tests (--setup-show))",
                       "pytest: 1 failed, 1 passed in 0.1s"]
    assert filt.elided


def test_after_failures_the_coverage_table_keeps_only_its_total() -> None:
    failure = [f"{SEP} FAILURES {SEP}", "____ test_x ____", "> assert f()", "E   assert False", "t.py:2: AssertionError"]
    printed, _ = run(["F..", *failure, *COVERAGE, f"{SEP} 1 failed, 2 passed in 0.10s {SEP}"], argv=("pytest", "--cov=p"))
    at = printed.index("Name              Stmts   Miss  Cover   Missing")
    assert printed[at + 1:at + 3] == ["... 3 more files (per-file coverage of a run with failures)",
                                      "TOTAL               193      3    98%"]


def test_an_earlier_exception_of_a_chain_keeps_its_first_and_raising_frames() -> None:
    frames = [text for n in range(1, 5) for text in (f"> call_{n}()", f"src/m.py:{n}:")]
    cause = [*frames, "> raise KeyError(k)", "E   KeyError: 'k'", "src/m.py:9: KeyError"]
    final = ["> assert f()", "E   AssertionError: lookup failed", "t.py:3: AssertionError"]
    lines = [f"{SEP} FAILURES {SEP}", "____ test_x ____", *cause,
             "The above exception was the direct cause of the following exception:", *final,
             f"{SEP} 1 failed in 0.1s {SEP}"]
    printed, filt = run(lines, argv=("pytest", "--tb=long"))
    assert printed[1:9] == ["> call_1()", "src/m.py:1:", "... 6 more traceback lines", "> raise KeyError(k)",
                            "E   KeyError: 'k'", "src/m.py:9: KeyError",
                            "The above exception was the direct cause of the following exception:", "> assert f()"]
    assert filt.elided


def test_showlocals_keeps_the_locals_after_the_source_but_not_the_arguments_before_it() -> None:
    lines = [f"{SEP} FAILURES {SEP}", "____ test_x ____", "", "env = <Env>", "", "    def test_x(env):",
             ">       assert f(env) == 1", "E       assert 2 == 1", "", "env        = <Env>", "x          = 2", "",
             "t.py:3: AssertionError", f"{SEP} 1 failed in 0.1s {SEP}"]
    with_locals, _ = run(lines, argv=("pytest", "-l"))
    without, _ = run(lines)
    assert with_locals[:6] == ["FAILED t.py::test_x", "> assert f(env) == 1",
                               "E       assert 2 == 1", "env        = <Env>", "x          = 2", "t.py:3: AssertionError"]
    assert "x          = 2" not in without


def test_a_broken_autouse_fixture_prints_its_error_once_and_every_test_id() -> None:
    """Issue 33: 297 tests erroring at setup on one fixture's line were printed one by one."""
    raw = raw_lines("pytest", "itsd_autouse_fixture_errors")
    printed, _ = run(raw)
    assert sum(text.startswith("E       RuntimeError: database unavailable") for text in printed) == 1
    ids = [text[6:].partition(" - ")[0] for text in raw if text.startswith("ERROR tests/")]
    assert len(ids) == 297 and all(any(i in text for text in printed) for i in ids)
    runs = [text for text in printed if text.startswith("ERROR at setup of ") and text.endswith(" more tests (same as above):")]
    assert runs and sum(int(text.split()[4]) for text in runs) == sum(text.startswith("  tests/") for text in printed)


def test_s_keeps_what_passing_tests_printed() -> None:
    """Issue 33: `-s` asks to see the prints; without it a passing test's prints are counted."""
    raw = raw_lines("pytest", "tabulate_s_v_prints")
    asked, _ = run(raw, exit_code=0, argv=("pytest", "-v", "-s", "test/test_output.py", "-k", "grid"))
    prints = [text for text in raw if text.startswith("'+-----------+")]
    assert prints and all(text in asked for text in prints)
    assert "printed by test/test_output.py::test_grid:" in asked
    plain, _ = run(raw, exit_code=0, argv=("pytest", "-v", "test/test_output.py"))
    assert not any(text in plain for text in prints)


def test_a_dot_before_a_lower_case_print_is_a_result() -> None:
    """`.expected: ...` (-q -s): the `.` is the previous test's result, `expected:` the next one's print."""
    printed, _ = run(["..", ".expected: 1", "actual: 2", ".", "", "3 passed in 0.01s"], exit_code=0,
                     argv=("pytest", "-q", "-s"))
    assert printed[:2] == ["expected: 1", "actual: 2"]
