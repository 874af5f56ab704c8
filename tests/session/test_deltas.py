"""Deltas over the fixture corpus: each tool's filtered output (fixtures/<tool>/*/expected.txt,
captured from real runs) shown once, then again from a run whose raw output differs: every line
outside the failure blocks (counts, summaries, hints) is printed again as it was, every block's
first line (its id) is still there, and the second output is never larger than the first."""
from __future__ import annotations

from pathlib import Path

import pytest

from rtk.session.identity import Context
from rtk.session.items import SPECS, split
from rtk.session.memory import Memory

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted(p.parent for tool in SPECS for p in (ROOT / "fixtures" / tool).glob("*/expected.txt"))


def _show(tool: str, lines: list[str], raw: bytes) -> list[str]:
    memory = Memory(Context("claude", "s1"), [tool, "run"], tool, cwd="/p")
    memory.raw(raw)
    return [text for text, _ in memory.apply([(line, 1) for line in lines], "abcdef012345", False, 1)]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_a_rerun_keeps_every_id_and_every_count(case: Path) -> None:
    tool = case.parent.name
    lines = (case / "expected.txt").read_text().splitlines()
    assert _show(tool, lines, b"first run") == lines  # a first run is printed as it is
    again = _show(tool, lines, b"second run, its raw output differs")
    for item_id, texts in split(lines, SPECS[tool]):
        if item_id is None:
            assert all(text in again for text in texts if not text.startswith("[full output"))
        else:
            assert any(line == texts[0] or line == texts[0] + "  [unchanged since call 1]" for line in again)
    assert sum(len(t) + 1 for t in again) <= sum(len(t) + 1 for t in lines)


def test_the_corpus_has_deltas_to_make() -> None:
    """Not vacuous: most failing fixtures have blocks a rerun shows as unchanged."""
    shortened = 0
    for case in CASES:
        lines = (case / "expected.txt").read_text().splitlines()
        _show(case.parent.name, lines, b"one")
        shortened += len(_show(case.parent.name, lines, b"two")) < len(lines)
    assert shortened >= 40, shortened
