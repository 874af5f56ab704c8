"""The pytest filter's streaming behaviour, caps and markers, fed line by line (no pipeline)."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from rtk.filters.base import ANSI_RE, FilterContext, Line, Stream
from rtk.filters.pytest import create
from rtk.filters.pytest.filter import PytestFilter
from rtk.filters.registry import classify

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "pytest"
SEP = "=" * 30


def make(recall: bool = True) -> PytestFilter:
    return create(FilterContext(("pytest",), recall_enabled=recall))


def feed_all(filt: PytestFilter, lines: list[str]) -> list[list[str]]:
    """What the filter printed after each input line."""
    return [[out.text for out in filt.feed(line, Stream.STDOUT)] for line in lines]


def run(lines: list[str], exit_code: int = 1, recall: bool = True) -> tuple[list[str], PytestFilter]:
    filt = make(recall)
    printed = [text for step in feed_all(filt, lines) for text in step]
    printed += [out.text for out in filt.finish(exit_code)]
    return printed, filt


def raw_lines(case: str) -> list[str]:
    return (FIXTURES / case / "raw.txt").read_text().splitlines()


def block(name: str, *body: str) -> list[str]:
    return [f"{'_' * 20} {name} {'_' * 20}", *body]


# -- streaming --------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["toolz_fail_default", "toolz_fail_v", "toolz_tb_short", "toolz_color"])
def test_each_failure_is_printed_when_the_next_block_starts(case: str) -> None:
    lines = raw_lines(case)
    steps = feed_all(make(), lines)
    headers = [i for i, line in enumerate(lines) if re.match(r"^(\x1b\[[0-9;]*m)*_{3,} \S", line)]
    assert len(headers) == 16
    printed_at = [i for i, step in enumerate(steps) if any(t.startswith("FAILED ") for t in step)]
    for previous, nxt in itertools.pairwise(headers):
        assert nxt in printed_at, f"block starting at line {previous} not printed at line {nxt}"
    summary = next(i for i, line in enumerate(lines) if "short test summary info" in line)
    assert any(t.startswith("FAILED toolz/tests/test_tlz.py::test_tlz") for t in steps[summary])


def test_nothing_is_held_back_until_finish_in_a_long_failing_run() -> None:
    lines = raw_lines("packaging_fail_64k")
    filt = make()
    before_finish = [t for step in feed_all(filt, lines) for t in step]
    # each failure by its line, or by its id under a run of repeats (`FAILED 5 more tests (same as above):`)
    assert sum(t.startswith(("FAILED tests/test_version.py::", "  tests/test_version.py::")) for t in before_finish) == 14
    after = [out.text for out in filt.finish(1)]
    assert after == ["pytest: 14 failed, 64190 passed, 3 skipped, 446 deselected in 243.03s (0:04:03)"]


def test_progress_counts_are_live() -> None:
    filt = make()
    feed_all(filt, ["tests/test_a.py ..F.s", "....E  [100%]"])
    assert dict(filt.progress()) == {"passed": 7, "failed": 1, "errors": 1, "skipped": 1}


# -- caps and markers -------------------------------------------------------------------------

def test_e_lines_are_capped_at_40_with_a_marker_and_recall() -> None:
    e_lines = [f"E         {'-+'[i % 2]} item {i}" for i in range(55)]  # no long pure run: no folding
    printed, filt = run([f"{SEP} FAILURES {SEP}", *block("test_big_diff", ">       assert a == b", *e_lines,
                                                            "", "tests/test_x.py:9: AssertionError"),
                         f"{SEP} 1 failed in 0.10s {SEP}"])
    assert [t for t in printed if t.startswith("E ")] == e_lines[:40]
    assert "... 15 more E lines" in printed
    assert printed.index("... 15 more E lines") == printed.index(e_lines[39]) + 1
    assert "tests/test_x.py:9: AssertionError" in printed
    assert filt.elided and filt.failure_seen


def test_a_long_diff_in_e_lines_keeps_each_runs_ends_and_drops_caret_hints() -> None:
    e_lines = ["E       AssertionError: Lists differ: [1, 2] != [3, 4]", "E       ",
               *(f"E       - ({i},)," for i in range(12)), "E       ?   ^", "E         (99,),"]
    printed, filt = run([f"{SEP} FAILURES {SEP}", *block("test_diff", ">       assert a == b", *e_lines,
                                                            "", "tests/test_x.py:9: AssertionError"),
                         f"{SEP} 1 failed in 0.10s {SEP}"])
    assert [t for t in printed if t.startswith("E ")] == [
        e_lines[0], "E       - (0,),", "E       - (1,),", "E       - (2,),", "E       ... 8 more - lines",
        "E       - (11,),"]  # the unchanged element next to the changed ones goes too
    assert filt.elided


def test_captured_output_keeps_its_last_20_lines_with_a_marker() -> None:
    captured = [f"step {i}" for i in range(33)]
    printed, filt = run([f"{SEP} FAILURES {SEP}", *block("test_out", "E   ValueError: boom",
                                                            "tests/test_x.py:3: ValueError",
                                                            "----- Captured stdout call -----", *captured),
                         f"{SEP} 1 failed in 0.10s {SEP}"])
    start = printed.index("Captured stdout call:")
    assert printed[start + 1] == "... 13 more lines (earlier Captured stdout call output)"
    assert printed[start + 2:start + 22] == captured[13:]
    assert filt.elided


def test_without_recall_nothing_is_elided() -> None:
    e_lines = [f"E   line {i}" for i in range(45)]
    captured = [f"out {i}" for i in range(25)]
    printed, filt = run([f"{SEP} FAILURES {SEP}", *block("test_x", *e_lines, "t.py:1: AssertionError",
                                                            "----- Captured stderr call -----", *captured),
                         f"{SEP} 1 failed in 0.10s {SEP}"], recall=False)
    assert all(line in printed for line in e_lines + captured)
    assert not filt.elided


def test_a_deep_traceback_keeps_its_ends_and_says_how_much_is_missing() -> None:
    frames = [line for i in range(30) for line in (f"src/m.py:{i + 1}: in f{i}", f"    f{i + 1}()")]
    printed, filt = run([f"{SEP} FAILURES {SEP}", *block("test_deep", *frames, "E   RecursionError: deep"),
                         f"{SEP} 1 failed in 0.10s {SEP}"])
    assert printed[1:5] == ["src/m.py:1: in f0", "> f1()", "src/m.py:2: in f1", "> f2()"]
    assert "... 48 more traceback lines" in printed
    assert printed[-3:-1] == ["> f30()", "E   RecursionError: deep"]
    assert filt.elided


def test_identical_tracebacks_are_printed_once() -> None:
    body = ["> x()", "E   KeyError: 'a'", "src/m.py:3: KeyError"]
    printed, _ = run([f"{SEP} ERRORS {SEP}", *block("ERROR at setup of test_a", *body),
                      *block("ERROR at setup of test_b", *body), f"{SEP} 2 errors in 0.10s {SEP}"])
    assert printed[:5] == ["ERROR at setup of test_a", *body, "ERROR at setup of test_b (same as test_a)"]


def test_a_repeated_error_is_one_line_naming_the_tests_own_location() -> None:
    error = ["> self._run(sql)", "E   AttributeError: 'str' object has no attribute 'decode'",
             "src/db.py:995: AttributeError"]
    printed, filt = run([f"{SEP} FAILURES {SEP}",
                         *block("test_a", "> db.run('a')", "tests/test_a.py:7: ", *error),
                         *block("test_b", "> db.run('b')", "tests/test_b.py:9: ", *error,
                                "----- Captured stdout call -----", "hello"),
                         f"{SEP} 2 failed in 0.10s {SEP}"])
    assert printed[:6] == ["FAILED test_a", "> db.run('a')", "tests/test_a.py:7:", *error]
    assert printed[6:9] == ["FAILED test_b (same error as test_a, via tests/test_b.py:9)",
                            "Captured stdout call:", "hello"]
    assert filt.elided


# -- summary lines ----------------------------------------------------------------------------

def test_all_passed_gives_one_line_and_one_warnings_line() -> None:
    printed, filt = run(raw_lines("toolz_pass_warnings"), exit_code=0)
    assert printed[-6:] == ["pytest: 192 passed, 1 skipped in 14.96s",
                            "17 warnings: FutureWarning x13, DeprecationWarning x2, UserWarning x2",
                            "  toolz/dicttoolz.py:38: FutureWarning: merge() argument order will change (x13)",
                            "  toolz/itertoolz.py:547: DeprecationWarning: frequencies() will return a Counter in toolz 2.0 (x2)",
                            "  toolz/itertoolz.py:705: UserWarning: partition of 2 is slow on iterators",
                            "  toolz/itertoolz.py:705: UserWarning: partition of 3 is slow on iterators"]
    assert not filt.failure_seen


def test_qq_has_no_stats_line_so_counts_come_from_the_progress() -> None:
    printed, _ = run(raw_lines("toolz_fail_qq"))
    assert printed[-1] == "pytest: 16 failed, 176 passed, 1 skipped (counted from the progress output)"


def test_exit_5_is_one_line() -> None:
    printed, filt = run(raw_lines("exit5_deselected"), exit_code=5)
    assert printed == ["pytest: no tests collected (193 deselected)"]
    assert filt.failure_seen


def test_usage_errors_and_internal_errors_pass_through() -> None:
    printed, filt = run(raw_lines("exit4_usage_error"), exit_code=4)
    assert printed[:2] == ["ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]",
                           "pytest: error: unrecognized arguments: --maxfial=2"]
    assert filt.failure_seen
    printed, filt = run(raw_lines("exit3_internalerror"), exit_code=3)
    assert "INTERNALERROR> AttributeError: 'NoneType' object has no attribute 'args'" in printed
    assert not any(re.fullmatch(r"INTERNALERROR>\s+\^+", t) for t in printed)


def test_ansi_codes_are_gone() -> None:
    printed, _ = run(raw_lines("toolz_color"))
    assert not any(ANSI_RE.search(t) for t in printed)
    assert printed[-1].startswith("pytest: 16 failed, 176 passed, 1 skipped in ")


# -- test ids ---------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["toolz_fail_default", "toolz_fail_v", "toolz_xdist_v", "toolz_fail_q"])
def test_blocks_carry_full_test_ids(case: str) -> None:
    printed, _ = run(raw_lines(case))
    assert sum(t.startswith("FAILED toolz/tests/") for t in printed) == 16
    assert "FAILED toolz/tests/test_dicttoolz.py::TestCustomMapping::test_merge_iterable_arg" in [
        t.partition(" (same ")[0] for t in printed]


def test_a_test_named_only_by_its_header_is_named_in_full_by_the_summary() -> None:
    printed, _ = run(raw_lines("toolz_s_prints"))
    assert "FAILED test_get" in printed
    assert "FAILED toolz/tests/test_itertoolz.py::test_get" in printed
    # -s: the failing test's last 20 printed lines are kept, the passing tests' prints counted
    assert printed[:3] == ["printed by the failing test:", "... 10 more lines (earlier output of this test)",
                           "get: probing candidate 10 for 10 in str"]
    assert "... 15 more lines (printed by tests during the run)" in printed


def test_line_style_keeps_each_crash_line_and_the_summary_names_the_tests() -> None:
    printed, _ = run(raw_lines("toolz_tb_line"))
    crash = [t for t in printed if re.match(r"^/\S+\.py:\d+: \w+", t)]
    assert sum(int(m.group(1)) if (m := re.search(r" \(x(\d+)\)$", t)) else 1 for t in crash) == 16
    assert "/tmp/sd/toolz-1.2.0/toolz/dicttoolz.py:39: TypeError: 'builtin_function_or_method' object is not iterable (x7)" in crash
    assert sum(t.startswith("FAILED toolz/tests/") for t in printed) == 16
    assert "FAILED toolz/tests/test_dicttoolz.py::TestCustomMapping::test_merge_iterable_arg" in [
        t.partition(" (same ")[0] for t in printed]


def test_stream_of_each_line_is_kept() -> None:
    filt = make()
    out = list(filt.feed("ERROR: usage: pytest [options]", Stream.STDERR))
    assert out == [Line("ERROR: usage: pytest [options]", Stream.STDERR)]


# -- which commands the registry sends here ---------------------------------------------------

@pytest.mark.parametrize("command", [
    "pytest -q", "py.test", "python -m pytest", "python3 -m pytest -x", "python3.12 -m pytest",
    "/usr/bin/python3.11 -m pytest", "/opt/venv/bin/pytest tests", "uv run pytest", "uv run python -m pytest",
    "poetry run pytest -k x", "hatch run pytest", "python -X dev -m pytest",
])
def test_registry_routes_pytest_commands_here(command: str) -> None:
    match = classify(command.split())
    assert match is not None and match.filter == "pytest"


@pytest.mark.parametrize("command", ["python -m pytest_foo", "python script.py", "pip install pytest"])
def test_registry_leaves_other_commands_alone(command: str) -> None:
    match = classify(command.split())
    assert match is None or match.filter != "pytest"


GROUP = """\
  + Exception Group Traceback (most recent call last):
  |   File "/tmp/eg/test_eg.py", line 11, in test_group
  |     raise ExceptionGroup("two failures", errors)
  | ExceptionGroup: two failures (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File "/tmp/eg/test_eg.py", line 2, in helper
    |     raise ValueError(f"bad {x}")
    | ValueError: bad 0
    +---------------- 2 ----------------
    | Traceback (most recent call last):
    |   File "/tmp/eg/test_eg.py", line 2, in helper
    |     raise ValueError(f"bad {x}")
    | ValueError: bad 1
    +------------------------------------""".splitlines()


def test_an_exception_group_keeps_every_sub_exception() -> None:
    printed, _ = run([f"{SEP} FAILURES {SEP}", *block("test_group", *GROUP), f"{SEP} 1 failed in 0.1s {SEP}"])
    assert "  | ExceptionGroup: two failures (2 sub-exceptions)" in printed
    assert "    | ValueError: bad 0" in printed and "    | ValueError: bad 1" in printed
    assert '    |   File "/tmp/eg/test_eg.py", line 2, in helper' in printed
    assert not any(t.endswith("| Traceback (most recent call last):") for t in printed)


def test_with_s_and_v_the_prints_of_a_failing_test_are_kept_under_its_id() -> None:
    printed, filt = run(raw_lines("click_s_failing_prints_v"))
    at = printed.index("printed by tests/test_types.py::test_range[type7-0-1]:")
    assert printed[at + 1] == "DEBUG IntRange._clamp bound=0 dir=1 open=True"
    assert "DEBUG IntRange._clamp bound=0 dir=1 open=False" not in printed  # a passing test's
    assert "... 2 more lines (printed by tests during the run)" in printed and filt.elided


def test_with_s_and_q_a_print_belongs_to_the_result_character_after_it() -> None:
    printed, _ = run(raw_lines("click_s_failing_prints"))
    assert printed[:4] == ["printed by the failing test:", "DEBUG IntRange._clamp bound=0 dir=1 open=True",
                           "printed by the failing test:", "DEBUG IntRange._clamp bound=5 dir=-1 open=True"]


def test_each_distinct_warning_message_keeps_its_text_and_location() -> None:
    printed, _ = run(raw_lines("click_warnings_summary_messages"), exit_code=0)
    assert printed[-4:] == [
        "8 warnings: DeprecationWarning x6, UserWarning x2",
        ("  tests/test_utils/test_style.py:77: DeprecationWarning: 256-colour palette indices are deprecated,"
         " pass an RGB tuple instead (x6)"),
        "  tests/test_utils/test_style.py:77: UserWarning: RGB colour (0, 0, 0) is close to grey and may be unreadable",
        ("  tests/test_utils/test_style.py:77: UserWarning: RGB colour (255, 255, 255) is close to grey and may be"
         " unreadable")]
