"""A fake model on 127.0.0.1 for driving real agent hosts (tests/e2e/test_hosts_e2e.py): every
conversation asks to run one shell command, then ends once the tool's result came back. Speaks the
Anthropic Messages API (streaming and not), Gemini's generateContent (plain and SSE) and OpenAI's
Responses API (SSE, as Codex uses it), and records every request body for the test."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class FakeModel:
    def __init__(self, command: str) -> None:
        self.command = command
        self.requests: list[dict[str, Any]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()

    def tool_results(self) -> list[dict[str, Any]]:
        """The tool_result blocks the host sent back."""
        found = []
        for body in self.requests:
            for message in body.get("messages", []):
                content = message.get("content")
                for block in content if isinstance(content, list) else []:
                    if isinstance(block, dict) and block.get("type") == "tool_result":
                        found.append(block)
        return found

    def call_outputs(self) -> list[str]:
        """The function_call_output texts Codex sent back."""
        return [
            str(item.get("output"))
            for body in self.requests
            for item in body.get("input", [])
            if isinstance(item, dict) and item.get("type") == "function_call_output"
        ]

    def function_responses(self) -> list[dict[str, Any]]:
        """Gemini's functionResponse parts the host sent back."""
        return [
            part["functionResponse"]
            for body in self.requests
            for content in body.get("contents", [])
            for part in content.get("parts", [])
            if isinstance(part, dict) and "functionResponse" in part
        ]

    def reply(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The content blocks to answer with."""
        tools = {tool.get("name") for tool in body.get("tools", []) if isinstance(tool, dict)}
        last = body.get("messages", [{}])[-1]
        content = last.get("content")
        answered = isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content
        )
        if "Bash" in tools and not answered:
            return [
                {
                    "type": "tool_use",
                    "id": "toolu_01",
                    "name": "Bash",
                    "input": {"command": self.command, "description": "run it"},
                }
            ]
        return [{"type": "text", "text": "done"}]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                self._json({})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                if ":countTokens" in self.path:
                    self._json({"totalTokens": 10})
                    return
                if ":generateContent" in self.path or ":streamGenerateContent" in self.path:
                    model.requests.append(body)
                    self._gemini(gemini_reply(model, body))
                    return
                if "count_tokens" in self.path:
                    self._json({"input_tokens": 10})
                    return
                if self.path.startswith("/v1/responses"):
                    model.requests.append(body)
                    self._responses(responses_reply(model, body))
                    return
                if not self.path.startswith("/v1/messages"):
                    self._json({})
                    return
                model.requests.append(body)
                blocks = model.reply(body)
                if body.get("stream"):
                    self._stream(blocks, body.get("model", "claude"))
                else:
                    self._json(_message(blocks, body.get("model", "claude")))

            def _json(self, data: object) -> None:
                raw = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _gemini(self, answer: dict[str, Any]) -> None:
                if "alt=sse" not in self.path:
                    self._json(answer)
                    return
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                self.wfile.write(f"data: {json.dumps(answer)}\n\n".encode())
                self.wfile.flush()

            def _responses(self, items: list[dict[str, Any]]) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                usage = {
                    "input_tokens": 10,
                    "input_tokens_details": {"cached_tokens": 0},
                    "output_tokens": 5,
                    "output_tokens_details": {"reasoning_tokens": 0},
                    "total_tokens": 15,
                }
                head = {
                    "id": "resp_1",
                    "object": "response",
                    "status": "in_progress",
                    "model": "fake",
                    "output": [],
                }
                events: list[dict[str, Any]] = [{"type": "response.created", "response": head}]
                for i, item in enumerate(items):
                    events += [
                        {"type": "response.output_item.added", "output_index": i, "item": item},
                        {"type": "response.output_item.done", "output_index": i, "item": item},
                    ]
                done = {**head, "status": "completed", "output": items, "usage": usage}
                events.append({"type": "response.completed", "response": done})
                for event in events:
                    self.wfile.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
                self.wfile.flush()

            def _stream(self, blocks: list[dict[str, Any]], name: str) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                for event in _events(blocks, name):
                    self.wfile.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
                self.wfile.flush()

        return Handler


def _message(blocks: list[dict[str, Any]], name: str) -> dict[str, Any]:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": name,
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def _events(blocks: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    head = _message([], name)
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    head["stop_reason"] = None
    events: list[dict[str, Any]] = [{"type": "message_start", "message": head}]
    for i, block in enumerate(blocks):
        if block["type"] == "text":
            events += [
                {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}},
                {
                    "type": "content_block_delta",
                    "index": i,
                    "delta": {"type": "text_delta", "text": block["text"]},
                },
            ]
        else:
            start = {**block, "input": {}}
            events += [
                {"type": "content_block_start", "index": i, "content_block": start},
                {
                    "type": "content_block_delta",
                    "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])},
                },
            ]
        events.append({"type": "content_block_stop", "index": i})
    events += [
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
        {"type": "message_stop"},
    ]
    return events


def gemini_reply(model: FakeModel, body: dict[str, Any]) -> dict[str, Any]:
    """A functionCall to run_shell_command when the host offers it and has not answered yet."""
    names = {
        d.get("name")
        for tool in body.get("tools", [])
        if isinstance(tool, dict)
        for d in tool.get("functionDeclarations", [])
        if isinstance(d, dict)
    }
    contents = body.get("contents", [])
    last = contents[-1].get("parts", []) if contents else []
    answered = any(isinstance(part, dict) and "functionResponse" in part for part in last)
    if "run_shell_command" in names and not answered:
        parts: list[dict[str, Any]] = [
            {"functionCall": {"name": "run_shell_command", "args": {"command": model.command}}}
        ]
    else:
        parts = [{"text": "done"}]
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
    }


def responses_reply(model: FakeModel, body: dict[str, Any]) -> list[dict[str, Any]]:
    """A call of Codex's shell tool (whichever of its names it offers), then a final message."""
    names = {tool.get("name") for tool in body.get("tools", []) if isinstance(tool, dict)}
    if any(isinstance(i, dict) and i.get("type") == "function_call_output" for i in body.get("input", [])):
        return [
            {
                "type": "message",
                "role": "assistant",
                "id": "msg_2",
                "content": [{"type": "output_text", "text": "done"}],
            }
        ]
    if "bash" in names:  # Copilot CLI
        name, args = "bash", {"command": model.command, "description": "run it"}
    elif "exec_command" in names:
        name, args = "exec_command", {"cmd": model.command}
    elif "shell_command" in names:
        name, args = "shell_command", {"command": model.command}
    else:
        name, args = "shell", {"command": ["bash", "-lc", model.command]}
    return [
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": name,
            "arguments": json.dumps(args),
        }
    ]
