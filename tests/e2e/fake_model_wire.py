"""The wire formats of the fake model (fake_model_server.py): per API, how many tool results a
request's conversation holds, their texts, and the reply that asks for the next command."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

NextCommand = Callable[[int], str | None]
USAGE = {"input_tokens": 10, "output_tokens": 5}


def _dicts(items: object) -> list[dict[str, Any]]:
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _text(content: object) -> str:
    """A result's content as text: a string, or the text parts of a list of blocks."""
    if isinstance(content, str):
        return content
    return "".join(str(part.get("text", "")) for part in _dicts(content))


# -- what came back -------------------------------------------------------------------------------


def anthropic_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        block
        for message in _dicts(body.get("messages"))
        for block in _dicts(message.get("content"))
        if block.get("type") == "tool_result"
    ]


def responses_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [item for item in _dicts(body.get("input")) if item.get("type") == "function_call_output"]


def gemini_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        part["functionResponse"]
        for content in _dicts(body.get("contents"))
        for part in _dicts(content.get("parts"))
        if "functionResponse" in part
    ]


def chat_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [message for message in _dicts(body.get("messages")) if message.get("role") == "tool"]


def result_texts(body: dict[str, Any]) -> list[str]:
    """Every tool result of the request's conversation as the model reads it, oldest first."""
    return (
        [_text(block.get("content")) for block in anthropic_results(body)]
        + [_text(item.get("output")) for item in responses_results(body)]
        + [json.dumps(part.get("response")) for part in gemini_results(body)]
        + [_text(message.get("content")) for message in chat_results(body)]
    )


# -- Anthropic Messages -----------------------------------------------------------------------------


def anthropic_reply(next_command: NextCommand, body: dict[str, Any]) -> list[dict[str, Any]]:
    """The content blocks to answer with: the next command while the host offers Bash."""
    tools = {tool.get("name") for tool in _dicts(body.get("tools"))}
    answered = len(anthropic_results(body))
    command = next_command(answered) if "Bash" in tools else None
    if command is None:
        return [{"type": "text", "text": "done"}]
    return [
        {
            "type": "tool_use",
            "id": f"toolu_{answered + 1:02d}",
            "name": "Bash",
            "input": {"command": command, "description": "run it"},
        }
    ]


def anthropic_message(blocks: list[dict[str, Any]], name: str) -> dict[str, Any]:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": name,
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": USAGE,
    }


def anthropic_events(blocks: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    head = anthropic_message([], name)
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    head["stop_reason"] = None
    events: list[dict[str, Any]] = [{"type": "message_start", "message": head}]
    for i, block in enumerate(blocks):
        start: dict[str, Any]
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            {"type": "content_block_start", "index": i, "content_block": start},
            {"type": "content_block_delta", "index": i, "delta": delta},
            {"type": "content_block_stop", "index": i},
        ]
    events += [
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
        {"type": "message_stop"},
    ]
    return events


# -- Gemini generateContent -------------------------------------------------------------------------


def gemini_reply(next_command: NextCommand, body: dict[str, Any]) -> dict[str, Any]:
    """A functionCall to run_shell_command while the host offers it and the script goes on."""
    names = {
        declaration.get("name")
        for tool in _dicts(body.get("tools"))
        for declaration in _dicts(tool.get("functionDeclarations"))
    }
    command = next_command(len(gemini_results(body))) if "run_shell_command" in names else None
    parts: list[dict[str, Any]] = (
        [{"functionCall": {"name": "run_shell_command", "args": {"command": command}}}]
        if command is not None
        else [{"text": "done"}]
    )
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
    }


# -- OpenAI Responses (Codex, Copilot) --------------------------------------------------------------


def responses_reply(next_command: NextCommand, body: dict[str, Any]) -> list[dict[str, Any]]:
    """A call of the host's shell tool (whichever of its names it offers), or a final message."""
    names = {tool.get("name") for tool in _dicts(body.get("tools"))}
    answered = len(responses_results(body))
    command = next_command(answered)
    if command is None:
        return [
            {
                "type": "message",
                "role": "assistant",
                "id": f"msg_{answered + 1}",
                "content": [{"type": "output_text", "text": "done"}],
            }
        ]
    args: dict[str, Any]
    if "bash" in names:  # Copilot CLI
        name, args = "bash", {"command": command, "description": "run it"}
    elif "exec_command" in names:
        name, args = "exec_command", {"cmd": command}
    elif "shell_command" in names:
        name, args = "shell_command", {"command": command}
    else:
        name, args = "shell", {"command": ["bash", "-lc", command]}
    call = f"call_{answered + 1}"
    return [{"type": "function_call", "id": f"fc_{answered + 1}", "call_id": call, "name": name,
             "arguments": json.dumps(args)}]


def responses_events(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    head = {"id": "resp_1", "object": "response", "status": "in_progress", "model": "fake", "output": []}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": head}]
    for i, item in enumerate(items):
        events += [
            {"type": "response.output_item.added", "output_index": i, "item": item},
            {"type": "response.output_item.done", "output_index": i, "item": item},
        ]
    done = {**head, "status": "completed", "output": items, "usage": usage}
    events.append({"type": "response.completed", "response": done})
    return events


# -- OpenAI chat completions (OpenCode) -------------------------------------------------------------


def chat_reply(next_command: NextCommand, body: dict[str, Any]) -> dict[str, Any]:
    """The assistant message: a call of the host's shell tool while offered (OpenCode and Kilo's
    `bash`, Factory Droid's `Execute` with the risk level it asks the model for, Cline's
    `run_commands`), else a final text."""
    names = {tool.get("function", {}).get("name") for tool in _dicts(body.get("tools"))}
    answered = len(chat_results(body))
    tool = next((name for name in ("bash", "Execute", "run_commands", "terminal") if name in names), None)
    command = next_command(answered) if tool else None
    if command is None or tool is None:
        return {"role": "assistant", "content": "done"}
    args = {"bash": {"command": command, "description": "run it"},  # OpenCode, Kilo
            "Execute": {"command": command, "riskLevel": "low", "riskLevelReason": "the test script's command"},
            "run_commands": {"commands": [command]},  # Droid; Cline CLI 3
            "terminal": {"command": command}}[tool]  # Hermes
    arguments = json.dumps(args)
    call = {"id": f"call_{answered + 1}", "type": "function", "function": {"name": tool, "arguments": arguments}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def _chat_head() -> dict[str, Any]:
    return {"id": "chatcmpl-1", "created": 0, "model": "fake"}


def chat_completion(message: dict[str, Any]) -> dict[str, Any]:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    return {**_chat_head(), "object": "chat.completion", "usage": usage,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}]}


def chat_chunks(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The streamed form: the whole message as one delta, then the finish reason with usage."""
    delta = dict(message)
    if "tool_calls" in delta:
        delta["tool_calls"] = [{"index": i, **call} for i, call in enumerate(delta["tool_calls"])]
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    chunk = {**_chat_head(), "object": "chat.completion.chunk"}
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    return [
        {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
         "usage": usage},
    ]
