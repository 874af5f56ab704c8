"""mocha 11 on real captures (express 5): spec, dot and tap reporters."""
from __future__ import annotations

from rtk.filters.base import FilterContext
from rtk.filters.mocha import create
from tests.filters.line_replay import raw_lines, replay


def run(case: str) -> tuple[object, list[str]]:
    filt = create(FilterContext(("mocha",)))
    return filt, replay(filt, raw_lines("mocha", case))


def test_spec_failures_are_numbered_with_title_path_message_and_user_frame() -> None:
    filt, out = run("express_spec_fail")
    heads = [line for line in out if line[:1].isdigit() and ") " in line]
    assert len(heads) == 22 and heads[0] == "1) res > .format(obj) > with canonicalized mime types > should Vary: Accept:"
    at = out.index(heads[0])
    assert out[at + 1:at + 3] == ['  Error: expected "Vary" of "Accept", got "accept"',
                                  "  at test/res.format.js:228:6"]
    assert out[-1] == "mocha: 1234 passing, 4 pending, 22 failing (6s)"
    frames = [line for line in out if line.lstrip().startswith("at ")]
    assert frames and not any("node_modules" in line or "node:internal" in line for line in frames)
    assert filt.failure_seen


def test_dot_reporter_gives_the_same_failures() -> None:
    _, spec = run("express_spec_fail")
    _, dot = run("express_dot_fail")
    assert [line for line in dot if line[:1].isdigit()] == [line for line in spec if line[:1].isdigit()]


def test_tap_keeps_not_ok_and_counts() -> None:
    _, out = run("express_tap_fail")
    assert sum(line.startswith("not ok ") for line in out) == 22
    assert not any(line.startswith("ok ") for line in out)
    assert out[-1] == "mocha: tests 1256, pass 1234, fail 22"


def test_pass_is_one_line() -> None:
    assert run("express_spec_pass")[1] == ["mocha: 365 passing, 1 pending (992ms)"]
