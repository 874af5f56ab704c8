"""The fake model the host tests drive (fake_model_server.py) over real HTTP on 127.0.0.1, without a
host: each API's script advances one command per tool result in the conversation, a side request
(no tools) gets a plain answer, and results() reads the texts back in order. Milliseconds."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.e2e.fake_model_server import FakeModel

SCRIPT = ["git status", "ls -la"]


def post(model: FakeModel, path: str, body: dict[str, Any]) -> bytes:
    request = urllib.request.Request(model.url + path, json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


def sse_data(raw: bytes) -> list[Any]:
    return [json.loads(line[6:]) for line in raw.decode().splitlines()
            if line.startswith("data: ") and line != "data: [DONE]"]


def test_anthropic_messages_play_the_script_then_end() -> None:
    tools = [{"name": "Bash"}]
    with FakeModel(SCRIPT) as model:
        first = json.loads(post(model, "/v1/messages", {"tools": tools, "messages": [{"role": "user", "content": "go"}]}))
        side = json.loads(post(model, "/v1/messages", {"messages": [{"role": "user", "content": "title"}]}))
        result = {"type": "tool_result", "tool_use_id": "toolu_01", "content": [{"type": "text", "text": "On branch"}]}
        turn = [{"role": "user", "content": "go"}, {"role": "assistant", "content": first["content"]},
                {"role": "user", "content": [result]}]
        second = sse_data(post(model, "/v1/messages", {"tools": tools, "messages": turn, "stream": True}))
        done = {"type": "tool_result", "tool_use_id": "toolu_02", "content": "total 0"}
        last = json.loads(post(model, "/v1/messages", {"tools": tools, "messages": [*turn, {"role": "user", "content": [done]}]}))
        assert first["content"][0]["input"]["command"] == "git status" and first["stop_reason"] == "tool_use"
        assert side["content"] == [{"type": "text", "text": "done"}]
        delta = next(e for e in second if e["type"] == "content_block_delta")["delta"]["partial_json"]
        assert json.loads(delta)["command"] == "ls -la"
        assert last["content"][0]["type"] == "text"
        assert model.results() == ["On branch", "total 0"]


def test_chat_completions_stream_a_bash_call_per_turn() -> None:
    tools = [{"type": "function", "function": {"name": "bash"}}]
    with FakeModel(SCRIPT) as model:
        chunks = sse_data(post(model, "/v1/chat/completions", {"tools": tools, "stream": True,
                                                                "messages": [{"role": "user", "content": "go"}]}))
        call = chunks[0]["choices"][0]["delta"]["tool_calls"][0]
        history = [{"role": "user", "content": "go"}, {"role": "assistant", "tool_calls": [call]},
                   {"role": "tool", "tool_call_id": call["id"], "content": "On branch"}]
        plain = json.loads(post(model, "/v1/chat/completions", {"tools": tools, "messages": history}))
        assert json.loads(call["function"]["arguments"])["command"] == "git status"
        assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"
        message = plain["choices"][0]["message"]
        assert json.loads(message["tool_calls"][0]["function"]["arguments"])["command"] == "ls -la"
        assert model.results() == ["On branch"]


def test_responses_and_gemini_read_their_results_back() -> None:
    with FakeModel(SCRIPT) as model:
        events = sse_data(post(model, "/v1/responses", {"tools": [{"name": "exec_command"}], "input": [
            {"type": "function_call_output", "call_id": "call_1", "output": "On branch"}]}))
        item = events[-1]["response"]["output"][0]
        answer = sse_data(post(model, "/v1beta/models/m:streamGenerateContent?alt=sse", {
            "tools": [{"functionDeclarations": [{"name": "run_shell_command"}]}],
            "contents": [{"role": "user", "parts": [{"text": "go"}]}]}))
        assert json.loads(item["arguments"]) == {"cmd": "ls -la"} and item["call_id"] == "call_2"
        call = answer[0]["candidates"][0]["content"]["parts"][0]["functionCall"]
        assert call == {"name": "run_shell_command", "args": {"command": "git status"}}
        assert model.call_outputs() == ["On branch"]
