"""The host's cut (rtk.filters.budget): under the limit nothing changes; over it the fold keeps the
start, what failed, the end, a marker per left-out run and the hint, within the limit."""
from __future__ import annotations

import os
import subprocess

import pytest

from rtk.filters.budget import CLAUDE_CODE_LIMIT, CODEX_LIMIT, Fold, fit_to_budget, host_limit, host_of
from rtk.filters.content.outline import Outline
from tests.conftest import rtk_executable


def size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def test_under_the_limit_every_line_is_kept() -> None:
    lines = [f"line {n}" for n in range(100)]
    assert fit_to_budget(lines, 10_000, hint="[full output: rtk recall x]") == lines


def test_over_the_limit_start_failures_end_and_hint_fit() -> None:
    lines = [f"checking module {n} ... ok" for n in range(20_000)]
    lines[9_000] = "src/app/models.py:412: error: Incompatible return value type"
    lines[15_000] = "FAILED tests/test_models.py::test_save - AssertionError: 3 != 4"
    out = fit_to_budget(lines, 30_000, hint="[full output: rtk recall abc]")
    assert size(out) <= 30_000
    assert out[0] == lines[0] and out[-2] == lines[-1] and out[-1] == "[full output: rtk recall abc]"
    assert lines[9_000] in out and lines[15_000] in out
    assert lines[8_999] in out  # the line before a failure comes with it
    gaps = [line for line in out if line.startswith("... output lines ")]
    assert gaps and all("not shown" in gap for gap in gaps)


def test_one_huge_line_is_cut_and_still_fits() -> None:
    out = fit_to_budget(["x" * 200_000, "done"], 30_000)
    assert size(out) <= 30_000 and out[-2] == "done" and "more" not in out[-1]
    assert "[rtk: +199,000 chars]" in out[0]


def test_every_line_a_failure_keeps_the_first_and_the_last() -> None:
    lines = [f"src/m{n}.py:{n}: error: Missing type annotation [no-untyped-def]" for n in range(5_000)]
    out = fit_to_budget(lines, 30_000, hint="[full output: rtk recall a]")
    assert size(out) <= 30_000 and lines[0] in out and lines[-1] in out
    assert any("more lines naming errors or failures left out" in line for line in out)


def test_an_outliner_describes_the_left_out_middle() -> None:
    lines = [line for n in range(3_000) for line in (f"def handler_{n}(request):", "    return None", "")]
    out = fit_to_budget(lines, 30_000, hint="[h]", outliner=Outline("views.py"))
    assert size(out) <= 30_000
    middle = out[out.index(next(line for line in out if line.startswith("... output lines"))) + 1]
    assert middle.startswith("  in lines ") and "definitions/headings" in middle


def test_the_fold_is_incremental_and_bounded() -> None:
    fold = Fold(30_000)
    for n in range(200_000):
        fold.add(f"{n} " + "y" * 50, 1)
    assert fold.folded and len(fold.tail) < 1_000 and fold.head_chars <= 30_000
    assert size([text for text, _ in fold.close("[h]")]) <= 30_000


def test_only_claude_code_sets_a_limit() -> None:
    assert host_limit({}) is None and host_limit({"CLAUDECODE": "0"}) is None and host_limit({"CLAUDECODE": "off"}) is None
    assert host_limit({"CLAUDECODE": "1"}) == CLAUDE_CODE_LIMIT == 30_000
    assert host_limit({"CLAUDECODE": "1"}, {"claude_code_max_chars": 50_000}) == 50_000


def test_under_the_host_limit_the_start_is_written_at_once() -> None:
    from rtk.filters.base import Line, Stream
    from rtk.run.budgeted import BudgetedWriter
    from rtk.run.pipeline import Writer

    printed: list[bytes] = []
    inner = Writer(printed.append)
    inner.broken = {1, 2}
    writer = BudgetedWriter(inner, 30_000)
    writer.write([Line(f"Server listening on :{8000 + n}", Stream.STDOUT) for n in range(10)])
    assert b"".join(printed).decode().splitlines()[0] == "Server listening on :8000"  # before the end
    writer.write([Line(f"GET /item/{n} 200", Stream.STDOUT) for n in range(5_000)])
    writer.close("abc123")
    lines = b"".join(printed).decode().splitlines()
    assert len(b"".join(printed)) <= 30_000 and lines[-1] == "[full output: rtk recall abc123]"
    assert lines[:10] == [f"Server listening on :{8000 + n}" for n in range(10)]
    assert lines.count("Server listening on :8000") == 1 and lines[-2] == "GET /item/4999 200"


def test_codex_is_known_by_the_variables_it_sets_and_gets_its_own_limit() -> None:
    """Codex cuts every tool output at ~10,000 bytes (seen with 0.171: "Warning: truncated output")."""
    for name in ("CODEX_THREAD_ID", "CODEX_SANDBOX_NETWORK_DISABLED", "CODEX_PERMISSION_PROFILE"):
        assert host_of({name: "x"}) == "codex"
        assert host_limit({name: "x"}) == CODEX_LIMIT < 10_000
    assert host_limit({"CODEX_THREAD_ID": "t"}, {"codex_max_chars": 20_000}) == 20_000
    assert host_of({"CODEX_THREAD_ID": ""}) is None and host_of({}) is None
    assert host_of({"CLAUDECODE": "1", "CODEX_THREAD_ID": "t"}) == "claude"


@pytest.mark.parametrize("text", ["one\ntwo", '{"name": "x", "dist": {"tarball": "t.tgz"}}', "single line"])
def test_under_claude_an_unterminated_last_line_stays_unterminated(text: str) -> None:
    """The host window changes nothing under it: not even the newline the output never had."""
    for env in ({}, {"CLAUDECODE": "1"}):
        done = subprocess.run([*rtk_executable(), "pipe", "--cmd", "cat notes.txt"], input=text, text=True,
                              capture_output=True, check=False, timeout=60, env={**os.environ, **env})
        assert done.stdout == text, (env, done.stdout)
