"""Whatever arrives on stdin, `rtk hook` exits 0, never prints a traceback, and its stdout is
either empty or exactly one JSON document followed by a newline."""
from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk.agent import hooks
from rtk.agent.hosts import HOSTS
from tests.agent.hooks.conftest import run_hook

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
commands = st.text(max_size=40) | st.sampled_from(
    ["git status", "git status && cargo test", "rtk git status", "git log | head", "echo $(x)",
     "bash -c 'git diff'", "cargo test > f", "(cd a && pytest)", "a\\|b\nc\r"])


@st.composite
def payloads(draw: st.DrawFn) -> Any:
    """Host-shaped objects with arbitrary holes, plus arbitrary JSON."""
    tool_input = draw(st.dictionaries(st.text(max_size=6), json_values, max_size=3))
    if draw(st.booleans()):
        tool_input["command"] = draw(commands | json_values)
    shaped = {"tool_name": draw(st.sampled_from(["Bash", "Shell", "run_shell_command", "bash", "x"])),
              "tool_input": tool_input}
    if draw(st.booleans()):
        shaped = {"toolName": "bash", "toolArgs": json.dumps(tool_input)}
    return draw(st.just(shaped) | json_values)


def stdin_bytes() -> st.SearchStrategy[bytes]:
    encoded = payloads().map(lambda value: json.dumps(value).encode())
    with_bom = st.tuples(st.sampled_from([b"", b"\xef\xbb\xbf", b"\xef\xbb\xbf" * 2, b" \n"]), encoded) \
        .map(lambda pair: pair[0] + pair[1])
    truncated = encoded.flatmap(lambda data: st.integers(0, len(data)).map(lambda n: data[:n]))
    return with_bom | truncated | st.binary(max_size=200)


def check_stdout(out: bytes) -> None:
    if out:
        assert out.endswith(b"\n") and out.count(b"\n") == 1
        assert isinstance(json.loads(out), dict)


class Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=stdin_bytes(), host=st.sampled_from(list(HOSTS)))
def test_in_process(data: bytes, host: str, monkeypatch: pytest.MonkeyPatch,
                    capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    monkeypatch.setattr(sys, "stdin", Stdin(data))
    assert hooks.run_host(HOSTS[host]) == 0
    sys.stdout.flush()
    out, err = capsysbinary.readouterr()
    check_stdout(out)
    assert b"Traceback" not in err and b"internal error" not in err


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=stdin_bytes(), host=st.sampled_from(list(HOSTS)))
def test_as_a_process(data: bytes, host: str) -> None:
    result = run_hook(host, data)
    assert result.returncode == 0
    check_stdout(result.stdout)
    assert b"Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) <= 1
