"""A fake model on 127.0.0.1 for driving real agent hosts (tests/e2e/test_hosts_e2e.py and
test_host_matrix_e2e.py): a conversation asks to run a script of shell commands, one tool call a
turn, each once the previous result came back, then ends. Speaks the Anthropic Messages API
(streaming and not), Gemini's generateContent (plain and SSE), OpenAI's Responses API (SSE, as
Codex and Copilot use it) and OpenAI's chat completions (streaming and not, as OpenCode's
OpenAI-compatible provider uses it), and records every request body for the test.

Which command a request gets is the number of tool results its conversation already holds: the
hosts send the whole conversation every turn, so a retried or parallel side request (a title, a
summary) never advances the script."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self

from tests.e2e import fake_model_wire as wire


class FakeModel:
    def __init__(self, commands: str | Sequence[str]) -> None:
        self.commands = [commands] if isinstance(commands, str) else list(commands)
        self.requests: list[dict[str, Any]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def command(self) -> str:
        return self.commands[0]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def next_command(self, answered: int) -> str | None:
        """The command of turn `answered` (0-based), None once the script is done."""
        return self.commands[answered] if answered < len(self.commands) else None

    def reply(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """The Anthropic content blocks to answer a Messages request with (a subclass may script
        its own)."""
        return wire.anthropic_reply(self.next_command, body)

    def results(self) -> list[str]:
        """The tool results the host sent back, in script order, as text: read from the request
        that holds the most of them (the last turn's conversation holds them all)."""
        best: list[str] = []
        for body in self.requests:
            found = wire.result_texts(body)
            if len(found) > len(best):
                best = found
        return best

    def tool_results(self) -> list[dict[str, Any]]:
        """The Anthropic tool_result blocks the host sent back."""
        return [block for body in self.requests for block in wire.anthropic_results(body)]

    def call_outputs(self) -> list[str]:
        """The function_call_output texts Codex and Copilot sent back."""
        return [str(item.get("output")) for body in self.requests for item in wire.responses_results(body)]

    def function_responses(self) -> list[dict[str, Any]]:
        """Gemini's functionResponse parts the host sent back."""
        return [part for body in self.requests for part in wire.gemini_results(body)]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._json({"object": "list", "data": [{"id": "fake", "object": "model"}]})
                    return
                self._json({})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                if ":countTokens" in self.path:
                    self._json({"totalTokens": 10})
                elif ":generateContent" in self.path or ":streamGenerateContent" in self.path:
                    model.requests.append(body)
                    self._gemini(wire.gemini_reply(model.next_command, body))
                elif "count_tokens" in self.path:
                    self._json({"input_tokens": 10})
                elif self.path.startswith("/v1/responses"):
                    model.requests.append(body)
                    self._sse(wire.responses_events(wire.responses_reply(model.next_command, body)))
                elif self.path.startswith("/v1/chat/completions"):
                    model.requests.append(body)
                    self._chat(body)
                elif self.path.startswith("/v1/messages"):
                    model.requests.append(body)
                    self._messages(body)
                else:
                    self._json({})

            def _messages(self, body: dict[str, Any]) -> None:
                blocks = model.reply(body)
                name = body.get("model", "claude")
                if body.get("stream"):
                    self._sse(wire.anthropic_events(blocks, name))
                else:
                    self._json(wire.anthropic_message(blocks, name))

            def _chat(self, body: dict[str, Any]) -> None:
                message = wire.chat_reply(model.next_command, body)
                if body.get("stream"):
                    self._sse(wire.chat_chunks(message), named=False, done=True)
                else:
                    self._json(wire.chat_completion(message))

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
                self._sse([answer], named=False)

            def _sse(self, events: list[dict[str, Any]], named: bool = True, done: bool = False) -> None:
                """Server-sent events, the stream closed at the end (no keep-alive on a stream)."""
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                for event in events:
                    head = f"event: {event['type']}\n" if named else ""
                    self.wfile.write(f"{head}data: {json.dumps(event)}\n\n".encode())
                if done:
                    self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

        return Handler


class ReadingModel(FakeModel):
    """The fake model, with `READ path` turns answered by a call of Claude's Read tool (the path
    under `work`) instead of a shell command."""

    def __init__(self, commands: Sequence[str] | str, work: Path) -> None:
        super().__init__(commands)
        self.work = work

    def reply(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        blocks = wire.anthropic_reply(self.next_command, body)
        for block in blocks:
            command = block.get("input", {}).get("command", "")
            if block.get("type") == "tool_use" and command.startswith("READ "):
                block.update(name="Read", input={"file_path": str(self.work / command[5:])})
        return blocks
