"""A failing run under Claude Code fits the host's 10,000-char window for failing commands
(rtk.filters.failwindow, issue 40): every failing id and the count first, then the bodies that
fit, first failures first, then the summary and the recall hint; a successful run keeps 30,000."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.budget import CLAUDE_CODE_FAILING_LIMIT, failing_limit
from rtk.filters.failwindow import FailWindow
from rtk.filters.pytest.patterns import failure_head
from tests.filters.fixture_cases import FIXTURES, Case, all_cases, fact_kept, replay

CASE = Case(FIXTURES / "pytest" / "click_q_54_failures_claude")


def ids_of(case: Case) -> list[str]:
    """The failing ids pytest's own short summary names in the raw output."""
    raw = case.raw.decode()
    return [line[7:].split(" - ")[0] for line in raw.splitlines() if line.startswith("FAILED ")]


def test_fifty_failures_fit_with_every_id_first() -> None:
    printed = replay(CASE.command, CASE.raw, CASE.exit_code, host="claude")
    ids = ids_of(CASE)
    assert len(ids) == 54 and len(printed) <= CLAUDE_CODE_FAILING_LIMIT
    lines = printed.splitlines()
    assert lines[0].startswith("[rtk: 54 failures: every id first")
    first_body = next(i for i, line in enumerate(lines) if line.startswith(("E ", "> ")))
    assert all(any(i in line for line in lines[:first_body]) for i in ids)  # every id before any body
    assert lines[-2].startswith("pytest: 54 failed") and lines[-1].startswith("[full output: rtk recall ")
    assert all(fact_kept(fact, printed) for fact in CASE.facts)


def test_without_the_host_the_same_run_is_not_cut() -> None:
    plain = replay(CASE.command, CASE.raw, CASE.exit_code)
    assert len(plain) > CLAUDE_CODE_FAILING_LIMIT and "every id first" not in plain


def test_a_successful_run_keeps_the_whole_window() -> None:
    printed = replay(CASE.command, CASE.raw, 0, host="claude")
    assert "every id first" not in printed and len(printed) > CLAUDE_CODE_FAILING_LIMIT


def test_bodies_come_in_order_and_the_rest_is_counted() -> None:
    printed = replay(CASE.command, CASE.raw, CASE.exit_code, host="claude")
    lines = printed.splitlines()
    heads = [line for line in lines if line.startswith("FAILED ")]
    listed = heads[:heads.index(heads[0], 1)]  # the id list ends where the first body repeats it
    bodies = heads[len(listed):]
    assert bodies == [h for h in listed if h in bodies]  # the same order as the failures
    assert any(line.startswith("[rtk: the bodies of ") for line in lines)


def test_only_claude_code_has_a_failing_window() -> None:
    assert failing_limit({"CLAUDECODE": "1"}) == CLAUDE_CODE_FAILING_LIMIT
    assert failing_limit({"CLAUDECODE": "1"}, {"claude_code_failing_max_chars": 12_000}) == 12_000
    assert failing_limit({}) is None and failing_limit({"CODEX_THREAD_ID": "x"}) is None


def test_a_listing_head_counts_its_ids_not_itself() -> None:
    window = FailWindow(200, failure_head)
    for text in ["FAILED t.py::a", "E   boom", "FAILED 2 more tests (same as above):", "  t.py::b", "  t.py::c"]:
        window.add(text)
    window.summary_starts()
    window.add("pytest: 3 failed in 0.1s")
    window.add("x" * 300)  # over the window
    out = window.render("[full output: rtk recall abc]", "abc")
    assert out is not None and out[0][0].startswith("[rtk: 3 failures")


def test_no_failure_head_leaves_it_to_the_fold() -> None:
    window = FailWindow(100, failure_head)
    for n in range(100):
        window.add(f"line {n}")
    assert window.render(None) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(1, 300)), min_size=1, max_size=300),
       st.integers(0, 3_000), st.integers(0, 400))
def test_the_window_is_never_exceeded(failures: list[tuple[int, int]], summary: int, before: int) -> None:
    window = FailWindow(CLAUDE_CODE_FAILING_LIMIT, failure_head)
    for n in range(before):
        window.add(f"collected line {n} " + "p" * (n % 90))
    for n, (body_lines, width) in enumerate(failures):
        window.add(f"FAILED tests/test_m{n}.py::test_{n}")
        for k in range(body_lines):
            window.add(f"E   {k} " + "v" * width)
    window.summary_starts()
    window.add("s" * summary)
    out = window.render("[full output: rtk recall abc]", "abc")
    if out is not None:
        assert sum(len(text) + 1 for text, _ in out) <= CLAUDE_CODE_FAILING_LIMIT
        assert out[-1][0] == "[full output: rtk recall abc]"



FAILING = [c for c in all_cases() if c.exit_code != 0 and len(c.raw) > CLAUDE_CODE_FAILING_LIMIT]


@pytest.mark.parametrize("case", FAILING, ids=[c.id for c in FAILING])
def test_every_failing_run_fits_the_window_under_claude(case: Case) -> None:
    """Every captured failing run, whatever its tool: within 10,000 chars, ending with the hint
    when anything was left out (issue 40's done-when)."""
    printed = replay(case.command, case.raw, case.exit_code, host="claude")
    assert len(printed) <= CLAUDE_CODE_FAILING_LIMIT, len(printed)
    if printed != replay(case.command, case.raw, case.exit_code):
        assert "rtk recall " in printed.splitlines()[-1]


def test_the_window_keeps_bounded_memory() -> None:
    window = FailWindow(CLAUDE_CODE_FAILING_LIMIT, failure_head)
    for n in range(200_000):
        window.add(f"collected {n}" if n < 50_000 else f"FAILED t.py::test_{n}" if n % 10 == 0 else f"E   x {n}")
    held = len(window.prefix) + len(window.ids) + sum(len(block) for block, _ in window.bodies)
    assert held < 3_000 and window.failures == 15_000
