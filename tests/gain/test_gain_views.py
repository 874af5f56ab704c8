"""Every `rtk gain` view in every format, on a history recorded through the real accounting path."""
from __future__ import annotations

import csv
import io
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rtk.cli.gain import gain
from rtk.track import accounting
from rtk.track import history as tracking
from tests.track.helpers import CORPUS, exact

DAY = 86400
VIEWS = {"summary": [], "history": ["--history"], "daily": ["--daily"], "weekly": ["--weekly"],
         "monthly": ["--monthly"], "graph": ["--graph"], "failures": ["--failures"]}
ROW_KEY = {"summary": "summary", "history": "history", "daily": "daily", "weekly": "weekly",
           "monthly": "monthly", "graph": "graph", "failures": "failures"}


def record(argv: list[str], raw: bytes, printed: bytes, *, started: float, cwd: Path,
           exit_code: int = 0, filter_error: str | None = None) -> None:
    acc = accounting.start(argv, "generic")
    assert acc is not None
    for start in range(0, len(raw), 1000):
        acc.raw(raw[start:start + 1000])
    acc.printed(printed)
    acc.finish(accounting.RunRecord(argv, "generic", exit_code, 40, str(cwd), started, len(raw),
                                    len(printed), filter_error=filter_error))


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setenv("RTK_TRACK_SYNC", "1")
    here, other = tmp_path / "proj", tmp_path / "other"
    (here / ".git").mkdir(parents=True)
    other.mkdir()
    monkeypatch.chdir(here)
    raw = (CORPUS / "pytest_click_fail" / "raw.txt").read_bytes()
    log = (CORPUS / "git_log_n50" / "raw.txt").read_bytes()
    now = time.time()
    record(["pytest", "-q"], raw, raw[-300:], started=now - 40 * DAY, cwd=here, exit_code=1)
    record(["git", "log", "-n", "50"], log, log[:500], started=now - 3 * DAY, cwd=other)
    record(["git", "log", "-5"], log, log[:200], started=now - 60, cwd=here,
           filter_error="generic: ValueError: boom")
    return {"now": now, "here": here, "raw": raw, "log": log,
            "saved": [exact(raw) - exact(raw[-300:]), exact(log) - exact(log[:500]),
                      exact(log) - exact(log[:200])]}


def invoke(*args: str) -> Any:
    return CliRunner().invoke(gain, list(args), catch_exceptions=False)


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
@pytest.mark.parametrize("view", list(VIEWS))
def test_every_view_in_every_format(history: dict[str, Any], view: str, fmt: str) -> None:
    result = invoke(*VIEWS[view], "--format", fmt)
    assert result.exit_code == 0, result.output
    if fmt == "json":
        data = json.loads(result.stdout)
        assert ROW_KEY[view] in data and data["scope"] == {"since": None, "project": None}
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
        expected = {"summary": 1, "history": 3, "graph": 30, "failures": 1}.get(view)
        assert expected is None or len(rows) == expected
        assert rows and ("saved_tokens" in rows[0] or "message" in rows[0])
    else:
        assert result.stdout.strip() and "\x1b[" not in result.stdout


def test_summary_numbers(history: dict[str, Any]) -> None:
    data = json.loads(invoke("--format", "json").stdout)
    s = data["summary"]
    assert s["runs"] == 3 and s["saved_tokens"] == sum(history["saved"])
    assert s["raw_tokens"] == exact(history["raw"]) + 2 * exact(history["log"])
    assert s["saved_pct"] == round(s["saved_tokens"] * 100 / s["raw_tokens"], 1)
    assert (s["wall_ms"], s["mean_wall_ms"], s["estimated_runs"]) == (120, 40, 0)
    commands = {c["command"]: c for c in data["by_command"]}
    assert set(commands) == {"git log", "pytest"}
    assert commands["git log"]["runs"] == 2
    assert commands["git log"]["saved_tokens"] == history["saved"][1] + history["saved"][2]
    assert sum(c["share_pct"] for c in data["by_command"]) == pytest.approx(100, abs=0.2)
    csv_row = next(csv.DictReader(io.StringIO(invoke("--format", "csv").stdout)))
    assert int(csv_row["saved_tokens"]) == s["saved_tokens"]


def test_summary_text_is_aligned_and_human(history: dict[str, Any]) -> None:
    text = invoke().stdout
    assert text.startswith("rtk gain: 3 runs\n")
    assert "efficiency      [" in text and "█" in text and "%" in text
    assert "K" in text  # human numbers (the corpus outputs are thousands of tokens)
    table = text.split("\n\n", 1)[1].splitlines()
    assert table[0].split() == ["command", "runs", "saved", "mean", "saved", "share"]
    assert len({len(line) for line in table[1:3]}) == 1  # right-aligned columns, same width


def test_history_is_newest_first_and_limited(history: dict[str, Any]) -> None:
    rows = json.loads(invoke("--history", "-n", "2", "--format", "json").stdout)["history"]
    assert [r["command"] for r in rows] == ["git log -5", "git log -n 50"]
    text = invoke("--history").stdout.splitlines()
    assert text[0].split()[:3] == ["time", "(UTC)", "command"] and "->" in text[1]


def test_periods_group_by_day_week_month(history: dict[str, Any]) -> None:
    daily = json.loads(invoke("--daily", "--format", "json").stdout)["daily"]
    assert sum(d["runs"] for d in daily) == 3 and all(len(d["date"]) == 10 for d in daily)
    weekly = json.loads(invoke("--weekly", "--format", "json").stdout)["weekly"]
    assert all("-W" in w["week"] for w in weekly) and sum(w["runs"] for w in weekly) == 3
    monthly = json.loads(invoke("--monthly", "--format", "json").stdout)["monthly"]
    assert sum(m["saved_tokens"] for m in monthly) == sum(history["saved"])


def test_graph_is_30_days_with_bars(history: dict[str, Any]) -> None:
    rows = json.loads(invoke("--graph", "--format", "json").stdout)["graph"]
    assert len(rows) == 30 and rows[-1]["date"] == tracking.iso_utc(time.time())[:10]
    assert sum(r["saved_tokens"] for r in rows) == history["saved"][1] + history["saved"][2]  # 40 days ago is out
    lines = invoke("--graph").stdout.splitlines()
    assert len(lines) == 31 and sum("█" in line for line in lines) >= 1


def test_failures_list_filter_crashes_and_tracking_errors(history: dict[str, Any]) -> None:
    tracking.log_error("/x/history.db: disk I/O error (runs are not being recorded)")
    tracking.log_error("/x/history.db: disk I/O error (runs are not being recorded)")
    rows = json.loads(invoke("--failures", "--format", "json").stdout)["failures"]
    assert {(r["kind"], r["count"]) for r in rows} == {("filter", 1), ("tracking", 2)}
    text = invoke("--failures").stdout
    assert "generic: ValueError: boom" in text and "2x" in text and text.count("\n") == 2
    assert "could not be recorded" in invoke().stdout


def test_since_and_project_narrow_every_view(history: dict[str, Any]) -> None:
    assert json.loads(invoke("--since", "7d", "--format", "json").stdout)["summary"]["runs"] == 2
    assert json.loads(invoke("--since", "1h", "--format", "json").stdout)["summary"]["runs"] == 1
    project = json.loads(invoke("--project", "--format", "json").stdout)
    assert project["summary"]["runs"] == 2 and project["scope"]["project"] == str(history["here"])
    both = json.loads(invoke("--project", "--since", "7d", "--history", "--format", "json").stdout)
    assert [r["command"] for r in both["history"]] == ["git log -5"]
    day = tracking.iso_utc(history["now"] - 2 * DAY)[:10]
    assert json.loads(invoke("--since", day, "--format", "json").stdout)["summary"]["runs"] == 1


def test_empty_history_says_so_in_one_line() -> None:
    for args in ([], ["--history"], ["--daily"], ["--graph"], ["--failures"]):
        result = invoke(*args)
        assert result.exit_code == 0 and result.stdout.count("\n") == 1 and "no " in result.stdout
    assert json.loads(invoke("--format", "json").stdout)["summary"]["runs"] == 0
    assert invoke("--history", "--format", "csv").stdout.startswith("timestamp,command,")


@pytest.mark.parametrize("args", [["--daily", "--weekly"], ["--reset", "--history"], ["--since", "soon"],
                                  ["--format", "xml"]])
def test_bad_options_are_usage_errors(args: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 2 and "Error" in result.output


def test_tracking_queue_is_drained_by_gain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A job still queued (no worker ran yet) is recorded by `rtk gain` itself before reporting."""
    monkeypatch.setattr(accounting, "spawn_worker", lambda queue: None)
    acc = accounting.start(["echo", "hi"], "passthrough")
    assert acc is not None
    acc.raw(b"hi\n")
    acc.printed(b"hi\n")
    acc.finish(accounting.RunRecord(["echo", "hi"], "passthrough", 0, 3, os.getcwd(), time.time(), 3, 3))
    assert [p.suffix for p in accounting.queue_dir().glob("*.job")] == [".job"]
    assert json.loads(invoke("--format", "json").stdout)["summary"]["runs"] == 1
    assert not list(accounting.queue_dir().glob("*.job"))


def test_big_output_spills_to_disk_and_counts_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTK_TRACK_SYNC", "1")
    monkeypatch.setattr(accounting, "INLINE_MAX", 4096)
    raw = b"".join(p.read_bytes() for p in sorted(CORPUS.glob("*/raw.txt")))
    record(["cat", "all"], raw, raw[:5000], started=time.time(), cwd=Path.cwd())
    run = json.loads(invoke("--history", "--format", "json").stdout)["history"][0]
    assert (run["raw_tokens"], run["printed_tokens"]) == (exact(raw), exact(raw[:5000]))
    assert [p.name for p in accounting.queue_dir().iterdir()] == []


def test_the_paths_runs_came_through_and_claudes_preview_baseline(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A post-path run under Claude Code of an output past 30,000 chars is counted against the
    ~2 KB preview Claude would have shown, not against the whole output; `rtk gain` says which
    path each run came through."""
    monkeypatch.setenv("RTK_TRACK_SYNC", "1")
    monkeypatch.chdir(tmp_path)
    log = (CORPUS / "git_log_n50" / "raw.txt").read_bytes() * 3
    assert len(log) > 30_000
    small = (CORPUS / "git_log_n50" / "raw.txt").read_bytes()[:3000]
    now = time.time()
    for argv, raw, via, limit in ((["git", "log"], log, "post:claude", 30_000), (["git", "log"], small, "run", 0)):
        acc = accounting.start(argv, "git")
        assert acc is not None
        acc.raw(raw)
        acc.printed(raw[:400])
        acc.finish(accounting.RunRecord(argv, "git", 0, 5, str(tmp_path), now, len(raw), 400, via=via,
                                        preview_limit=limit))
    data = json.loads(invoke("--format", "json").output)
    paths = {p["path"]: p for p in data["by_path"]}
    assert set(paths) == {"post:claude", "run"}
    post = paths["post:claude"]
    assert post["name"] == "claude post hook"
    assert post["raw_tokens"] == exact(log) and post["baseline_tokens"] < 1000 < post["raw_tokens"]
    assert post["saved_tokens"] == post["baseline_tokens"] - exact(log[:400])
    assert paths["run"]["baseline_tokens"] == paths["run"]["raw_tokens"] == exact(small)
    text = invoke().output
    assert "claude post hook" in text and "host would show" in text
