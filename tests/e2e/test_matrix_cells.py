"""The host matrix's judge (matrix_cells.problems) fails a cell for each way the hooked run can
differ from what issue 32 asks: a changed outcome, the host's preview, the bare text, lost facts."""

from __future__ import annotations

from tests.e2e.matrix_cells import CELLS, COMMIT, Reference, broken_by_host, outcome, problems

DIFF = CELLS[1]
REF = Reference(raw="x" * 5000, rtk="a.py (+1 -1)\nb.py (+2 -2)\n", facts=["a.py", "b.py"],
                rtk_lines=["a.py (+1 -1)", "b.py (+2 -2)"])
SUMMARY = "a.py (+1 -1)\nb.py (+2 -2)\n[full output: rtk recall 0123456789ab]"
PREVIEW = "<persisted-output>\nOutput too large (252.4KB). Full output saved to: /tmp/x\n\nPreview:\na.py"


def test_rtk_summary_of_the_whole_output_passes() -> None:
    assert problems(DIFF, REF, PREVIEW, SUMMARY) == []


def test_a_denial_the_bare_run_did_not_get_fails() -> None:
    found = problems(DIFF, REF, PREVIEW, "This command requires approval")
    assert found == ["outcome changed: ran with no hook, denied with rtk's hook"]


def test_the_hosts_preview_fails() -> None:
    found = " ".join(problems(DIFF, REF, PREVIEW, PREVIEW))
    assert "facts of the whole output missing" in found and "the host cut it" in found
    assert "what it reads with no hook" in found


def test_a_raw_output_passed_through_fails() -> None:
    raw = "diff --git a/a.py b/a.py\n" + "-x\n+y\n" * 3000 + "diff --git a/b.py b/b.py\n"
    found = " ".join(problems(DIFF, Reference(raw, REF.rtk, REF.facts, REF.rtk_lines), raw, raw))
    assert "not rtk's form" in found and "not smaller" in found


def test_commit_cell_compares_outcomes_only() -> None:
    assert problems(COMMIT, Reference("", ""), "requires approval", "requires approval") == []
    assert outcome(None) == "missing" and outcome("[main 1a2b3c] probe") == "ran"


def test_a_command_the_hosts_shell_cannot_run_is_named() -> None:
    failing = "error: cannot run : No such file or directory\nfatal: external diff died, stopping at a.py"
    three = Reference(REF.raw, REF.rtk, ["a.py", "b.py", "c.py"], REF.rtk_lines)
    assert broken_by_host(three, failing).startswith("error: cannot run")  # 1 fact of 3: the first file
    assert broken_by_host(REF, PREVIEW) == "" and broken_by_host(REF, "requires approval") == ""
