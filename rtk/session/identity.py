"""Which conversation context a call belongs to, per host, or None when it cannot be told for sure
(then there is no memory: output is shown as if for the first time).

Claude Code (measured on 2.1.337): hook payloads carry `session_id` and `transcript_path`; a
subagent's calls add `agent_id` (same `session_id`); the main agent's have no `agent_id`. A
command Claude runs has `CLAUDE_CODE_SESSION_ID` in its environment but no agent id, so `rtk X`
on the pre path learns its agent from the PreToolUse hook call that rewrote it: the hook notes
(session, agent, the argv of each command on the line) in a pending record, and `rtk X` takes the
one record naming its own argv. None, or records of two different agents (the main agent and a
subagent running the same command at once): no memory. Other hosts pass no identity rtk can use
(docs/session.md): no memory there.
"""
from __future__ import annotations

import marshal
import os
import time

from rtk.session import store

PENDING_SECONDS = 120.0  # a rewrite not run within this (denied, interrupted, a slow approval) is forgotten
MAX_PENDING = 200
MAIN = "main"


class Context:
    """One conversation context: `key` is `host|session|agent` (agent `main` for the main agent)."""

    __slots__ = ("agent", "host", "session", "transcript")

    def __init__(self, host: str, session: str, agent: str = MAIN, transcript: str = "") -> None:
        self.host, self.session, self.agent, self.transcript = host, session, agent or MAIN, transcript

    @property
    def key(self) -> str:
        return f"{self.host}|{self.session}|{self.agent}"

    @property
    def session_key(self) -> str:
        return f"{self.host}|{self.session}"


def from_claude_payload(payload: dict[str, object]) -> Context | None:
    """A hook payload's context: `session_id` (+ `agent_id` for a subagent)."""
    session, agent = payload.get("session_id"), payload.get("agent_id")
    if not isinstance(session, str) or not session.strip() or "|" in session:
        return None
    if agent is not None and (not isinstance(agent, str) or not agent.strip() or "|" in agent):
        return None
    transcript = payload.get("transcript_path")
    return Context("claude", session, agent or MAIN, transcript if isinstance(transcript, str) else "")


def _pending_path(session_key: str) -> str:
    return os.path.join(store.directory(), f"{store.session_prefix(session_key)}pending{store.PENDING_SUFFIX}")


def note_rewrite(context: Context, argvs: list[list[str]], now: float | None = None) -> None:
    """The PreToolUse hook rewrote (or saw) a line whose commands are `argvs`: remember who ran it."""
    if not argvs:
        return
    now = time.time() if now is None else now
    with _Pending(context.session_key) as records:
        records[:] = [r for r in records if now - r[0] < PENDING_SECONDS][-MAX_PENDING:]
        records.append((now, context.agent, [list(a) for a in argvs], context.transcript))


def from_run(argv: list[str], env: dict[str, str] | os._Environ[str], now: float | None = None) -> Context | None:
    """`rtk X` under Claude Code: its session from CLAUDE_CODE_SESSION_ID, its agent from the one
    pending rewrite naming `argv` (taken, so a second run of X needs a second rewrite)."""
    session = env.get("CLAUDE_CODE_SESSION_ID", "").strip()
    if not session or "|" in session or not env.get("CLAUDECODE"):
        return None
    context = Context("claude", session)
    path = _pending_path(context.session_key)
    if not os.path.exists(path):
        return None
    now = time.time() if now is None else now
    with _Pending(context.session_key) as records:
        fresh = [r for r in records if now - r[0] < PENDING_SECONDS]
        matching = [r for r in fresh if list(argv) in r[2]]
        if len({r[1] for r in matching}) != 1:
            records[:] = fresh
            return None  # nobody noted it, or two agents did: no memory
        chosen = matching[0]
        fresh.remove(chosen)
        records[:] = fresh
    return Context("claude", session, chosen[1], chosen[3])


def enabled() -> bool:
    """`[session] memory` / RTK_SESSION_MEMORY, for the hook path: the config file is read only
    when one exists."""
    from rtk import paths

    if "RTK_SESSION_MEMORY" not in os.environ and not os.path.exists(paths.config_path()):
        return True
    from rtk import config

    return bool(config.load(report=False).get("session", "memory"))


def note(payload: dict[str, object], argvs: list[list[str]]) -> None:
    """A PreToolUse of Bash was answered: note which agent runs these commands (rtk X asks)."""
    context = from_claude_payload(payload)
    if context is not None and argvs:
        note_rewrite(context, [_without_rtk(argv) for argv in argvs])


def _without_rtk(argv: list[str]) -> list[str]:
    """`rtk pytest -q` typed by the model runs as `pytest -q` inside rtk: note what rtk X sees."""
    return argv[1:] if argv and os.path.basename(argv[0]) == "rtk" else argv


class _Pending:
    """The session's pending rewrites, locked while read and written."""

    def __init__(self, session_key: str) -> None:
        self.path = _pending_path(session_key)
        self.fd = -1
        self.records: list[tuple[float, str, list[list[str]], str]] = []

    def __enter__(self) -> list[tuple[float, str, list[list[str]], str]]:
        import fcntl

        from rtk import paths

        paths.private_dir_path(store.directory())
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(self.fd).st_size
            loaded = marshal.loads(os.pread(self.fd, size, 0)) if 0 < size < store.MAX_FILE_BYTES else []
        except (OSError, EOFError, ValueError, TypeError):
            loaded = []
        self.records = [tuple(r) for r in loaded if isinstance(r, (list, tuple)) and len(r) == 4] \
            if isinstance(loaded, list) else []  # type: ignore[misc]
        return self.records

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        try:
            if kind is None:
                data = marshal.dumps([list(r) for r in self.records])
                os.pwrite(self.fd, data, 0)
                os.ftruncate(self.fd, len(data))
        finally:
            os.close(self.fd)
