"""A context ends where the host removes earlier output from the model's context: compaction
(auto or manual), /clear, a resumed or restarted session. Nothing said before a boundary may be
referred to after it.

The hooks tell first: Claude's `PreCompact` and `SessionStart` (every source: startup, resume,
clear, compact) end every context of their session (`mark`). Where no hook fired (an install
without them, a compaction the hooks missed), the transcript tells: each call reads what the
transcript gained since the last call (never the whole file) and a compaction marker in it
(`"compact_boundary"`, `"isCompactSummary":true`), a shorter file or another file ends the
context too (`transcript_moved`). Rewinding to a checkpoint leaves no mark either place can see
cheaply: docs/session.md says so.
"""
from __future__ import annotations

import os
import time

from rtk.session import store

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.session.store import State

MARKERS = (b'"compact_boundary"', b'"isCompactSummary":true', b'"isCompactSummary": true')
MAX_SCAN = 32 * 1024 * 1024  # more new transcript than this since the last call: a boundary, unread


def clear(state: State, reason: str, now: float | None = None) -> None:
    """Forget what the context was shown; keep its call count and log (for `rtk session`)."""
    had = bool(state["shown"] or state["items"])
    state["shown"], state["items"] = {}, {}
    state["epoch"] += 1
    if had:
        store.log(state, state["calls"], time.time() if now is None else now, "boundary", reason, 0, 0)


def mark(session_key: str, reason: str) -> int:
    """A hook said the session's context was compacted, cleared or restarted: every context of
    the session (main agent and subagents) forgets. The number of contexts cleared."""
    cleared = 0
    for path in store.session_files(session_key):
        try:
            with store.Locked("", create=False, path=path) as state:
                if state.get("key", "").startswith(session_key + "|"):
                    clear(state, reason)
                    state["tpos"] = (0, 0, "")
                    cleared += 1
        except OSError:
            continue
    return cleared


def transcript_moved(state: State, transcript: str) -> str | None:
    """Why the transcript says the context was cut since the last call, or None. Updates the
    position; the first call of a context only notes where the transcript is."""
    if not transcript:
        return None
    try:
        info = os.stat(transcript)
    except OSError:
        return None
    inode, size, known = state["tpos"]
    state["tpos"] = (info.st_ino, info.st_size, transcript)
    if not known:
        return None
    if known != transcript or inode != info.st_ino:
        return "another transcript"
    if info.st_size < size:
        return "transcript shorter"
    if info.st_size - size > MAX_SCAN:
        return "transcript grew past what is read"
    return _compacted(transcript, size, info.st_size)


def _compacted(path: str, start: int, end: int) -> str | None:
    if end <= start:
        return None
    overlap = max(len(m) for m in MARKERS)
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, start - overlap))
            data = handle.read(end - start + overlap)
    except OSError:
        return "transcript unreadable"
    return "compaction in the transcript" if any(m in data for m in MARKERS) else None
