"""Every fixture replayed as under Claude Code (CLAUDECODE=1): what is printed fits in the host's
30,000 chars, a folded output ends with the recall hint, and an output that fitted already is
unchanged (issue 33). Only the cases whose filtered output is over the limit can change; the
rest are checked to be byte-identical."""
from __future__ import annotations

import pytest

from rtk import config
from rtk.filters.base import Stream
from rtk.filters.budget import CLAUDE_CODE_LIMIT
from rtk.run.pipeline import build_pipeline
from rtk.run.replay import pick_filter
from tests.filters.fixture_cases import CaptureWriter, Case, all_cases, fact_kept, replay

BIG = [c for c in all_cases() if len(c.raw) > CLAUDE_CODE_LIMIT]


def replay_under_limit(case: Case) -> str:
    name, argv = pick_filter(None, case.command)
    capture = CaptureWriter()
    pipeline = build_pipeline(argv, name, config.load(), capture.writer, hold_seconds=None,
                              char_limit=CLAUDE_CODE_LIMIT)
    for start in range(0, len(case.raw), 4096):
        pipeline.feed(case.raw[start:start + 4096], Stream.STDOUT)
    pipeline.finish(case.exit_code)
    return b"".join(capture.chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("case", BIG, ids=[c.id for c in BIG])
def test_fits_the_host_limit(case: Case) -> None:
    printed = replay_under_limit(case)
    assert len(printed) <= CLAUDE_CODE_LIMIT, len(printed)
    plain = replay(case.command, case.raw, case.exit_code)
    if len(plain) <= CLAUDE_CODE_LIMIT and case.path.parent.name not in ("content", "json"):
        assert printed == plain  # it fitted: nothing to fold
    elif printed != plain:
        assert "[full output: rtk recall " in printed.splitlines()[-1] or "rtk recall" in printed


def test_the_failures_of_a_big_failing_run_survive_the_fold() -> None:
    cases = [c for c in BIG if c.exit_code != 0 and len(replay(c.command, c.raw, c.exit_code)) > CLAUDE_CODE_LIMIT]
    assert cases, "no big failing fixture to fold"
    for case in cases:
        printed = replay_under_limit(case)
        kept = sum(fact_kept(fact, printed) for fact in case.facts)
        assert kept >= min(len(case.facts), 10), (case.id, kept, len(case.facts))
