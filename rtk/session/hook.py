"""What the hook path tells session memory, and the answers it gets (Claude Code):

- `PreCompact` and `SessionStart` (any source): every context of the session ends (boundary.py);
  so does `Interrupt` with `reason: "rewind"` (Claude Code 2.1.337: a return to an earlier
  message; a stopped turn is no boundary);
- `PostToolUse` of the Read tool: a re-read of an unchanged file and range is answered with the
  tool's own result object, `file.content` replaced by one line (a first read, a changed file, an
  empty one: no opinion, the model reads it as Claude gives it);
- `PreToolUse` of Bash: which agent rewrote which commands (identity.note, called by the hook
  itself, so that this module is not loaded before every command), so that `rtk X` knows its context.

Standard library only; every failure is "no opinion" (the caller catches and says one line).
"""
from __future__ import annotations

import time

from rtk.session import boundary, identity, store, volatile, wording
from rtk.session.reads import tool_read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

BOUNDARY_EVENTS = frozenset({"PreCompact", "SessionStart", "Interrupt"})
MIN_CONTENT = 200  # chars: a shorter file costs less than the line that would replace it


def wants(payload: dict[str, Any]) -> bool:
    """The payload is for session memory alone (a boundary, or Claude's Read tool)."""
    event = payload.get("hook_event_name")
    return event in BOUNDARY_EVENTS or (event == "PostToolUse" and payload.get("tool_name") == "Read")


def handle(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The answer for a payload `wants` accepted: a Read replacement, else None (no opinion)."""
    context = identity.from_claude_payload(payload)
    if context is None:
        return None
    if payload.get("hook_event_name") == "Interrupt" and payload.get("reason") != "rewind":
        return None  # a stopped turn leaves what was shown in place; a rewind takes it away
    if payload.get("hook_event_name") in BOUNDARY_EVENTS:
        source = payload.get("source") or payload.get("trigger") or payload.get("reason") or ""
        boundary.mark(context.session_key, f"{payload.get('hook_event_name')} {source}".strip())
        return None
    if not identity.enabled():
        return None
    return reread(payload, context)


def reread(payload: dict[str, Any], context: identity.Context, now: float | None = None) -> dict[str, Any] | None:
    found = tool_read(payload)
    if found is None:
        return None
    path, span, content, file = found
    now = time.time() if now is None else now
    digest = volatile.fingerprint(content.encode("utf-8", "surrogatepass"))
    key = f"tool|{path}|{span}"
    with store.Locked(context.key) as state:
        reason = boundary.transcript_moved(state, context.transcript)
        if reason:
            boundary.clear(state, reason, now)
        state["calls"] += 1
        earlier = state["shown"].get(key)
        line = None
        if earlier is not None and earlier[store.DIGEST] == digest and len(content) > MIN_CONTENT:
            line = wording.tool_reread(path, span, earlier, digest)
        else:
            store.remember(state, key, state["calls"], now, digest, None)
        kind = "reread" if line else ("first" if earlier is None else "changed")
        store.log(state, state["calls"], now, kind, f"Read {path} ({span})", len(content),
                  len(line) if line else len(content))
    if line is None:
        return None
    response = payload["tool_response"]
    updated = {**response, "file": {**file, "content": line}}
    return {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": updated}}

