"""Golden payloads per host: tests/agent/hooks/golden/<host>/<case>.json holds the settings files to put
in HOME, the stdin (`stdin` as JSON or `stdin_text` raw), the exact expected stdout (`stdout`: the
JSON document printed compactly plus a newline, or null for nothing) and the exit code. Each case
runs `rtk hook <host>` as a real subprocess through the real rewrite engine."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from tests.agent.hooks.conftest import run_hook, write_files
from tests.conftest import rtk_executable

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(GOLDEN.glob("*/*.json"))
pytestmark = pytest.mark.skipif(importlib.util.find_spec("rtk.agent.rewrite") is None,
                                reason="the rewrite engine (rtk/rewrite.py) is not there yet")


def stdin_bytes(case: dict[str, Any]) -> bytes:
    if "stdin_text" in case:
        return case["stdin_text"].encode("utf-8")
    return json.dumps(case["stdin"]).encode("utf-8")


def expected_stdout(case: dict[str, Any]) -> bytes:
    if case["stdout"] is None:
        return b""
    return (json.dumps(case["stdout"], ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def test_every_host_has_the_common_cases() -> None:
    common = {"rewrite_default", "unattestable", "already_rtk", "other_tool",
              "empty_stdin", "invalid_json", "json_array", "missing_command", "empty_command",
              "non_string_command", "double_bom", "extra_keys"}
    for host in ("claude", "cursor", "gemini", "codex", "copilot", "droid", "trae", "cline"):  # opencode has no pre path
        assert common <= {p.stem for p in (GOLDEN / host).glob("*.json")}, host


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_golden(path: Path, agent_home: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    write_files(agent_home, case.get("files", {}))
    result = run_hook(path.parent.name, stdin_bytes(case))
    assert result.returncode == case["exit"]
    # Codex rewrites name this rtk by its path (its login shell may set another PATH)
    stdout = result.stdout.replace(json.dumps(rtk_executable()[0])[1:-1].encode() + b" ", b"rtk ")
    assert stdout == expected_stdout(case), case["about"]
    assert b"Traceback" not in result.stderr
    if "stderr_lines" in case:
        assert len(result.stderr.splitlines()) == case["stderr_lines"], result.stderr
