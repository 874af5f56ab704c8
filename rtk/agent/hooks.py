"""`rtk hook <host>`: one JSON payload on stdin, the host's answer on stdout, always exit 0.

The agent host runs this before every shell command, so it imports the standard library only and
fails open: whatever goes wrong (bad input, an engine error), the host reads its "no opinion" and
the exit status is 0, with at most one `rtk:` line on stderr. The decision itself is the rewrite
engine's (spec/rewrite.md) with the host's permission rules; the shapes live in `hook_hosts`.

Audit actions (`RTK_HOOK_AUDIT=1` or `[hooks] audit = true`): `rewrite` (rewritten, answered
allow), `ask` (rewritten, the host approves), `skip:deny_rule` (exit 2, the host's deny applies),
`skip:defer` (nothing rtk may rewrite, or the host's rules would treat the rtk form differently:
the command goes to the host unchanged), `skip:none` (already in rtk form), `skip:post` (a reader:
the post path serves it). The post path: `post:replace` (the filtered form replaced the output),
`post:keep` (not smaller, or the filter failed), `post:partial` (the host's saved file lacked the
end it showed: its own text stays), `post:skip` (not one routed command).
"""
from __future__ import annotations

import os
import sys
import time

from rtk import quickjson
from rtk.agent import program
from rtk.agent.hosts import HOSTS, READERS, SKIP

TYPE_CHECKING = False  # no `typing` (nor `json`, `re`) at start-up: this runs before every command
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from rtk.agent.hosts import Finished, Host
    from rtk.agent.hosts.base import Answer
    from rtk.agent.rewrite import Decision

    Decide = Callable[..., Decision]
    # (host, the finished command, its routed argv) -> the text to show instead, or None to keep
    PostFilter = Callable[[str, Finished, list[str]], str | None]

MAX_INPUT = 1024 * 1024
LOGIN_SHELL_HOSTS = frozenset({"codex"})  # they run commands with `bash -lc`: PATH is the profile's
MAX_COMMAND = 4 * 1024  # longer commands are left to the host (answer within 100 ms)
BOM = b"\xef\xbb\xbf"
USAGE = (f"usage: rtk hook {'|'.join(HOSTS)} < payload.json; "
         "rtk hook check COMMAND")


class Outcome:
    """What a host payload led to: the answer to print and, when the engine decided, the audit;
    `argvs`: the commands of a line that will run as `rtk X` (session memory notes who runs them)."""

    __slots__ = ("answer", "argvs", "audit")

    def __init__(self, answer: Answer, audit: tuple[str, str, str] | None = None,
                 argvs: list[list[str]] | None = None):
        self.answer = answer
        self.audit = audit
        self.argvs = argvs or []


def main(args: list[str], decide: Decide | None = None, post: PostFilter | None = None) -> int:
    """`post` filters a finished command's output (the run path's pipeline): the caller passes it,
    so that this package never imports the runner."""
    if args[:1] == ["check"]:
        return check(args[1:], decide)
    host = HOSTS.get(args[0]) if len(args) == 1 else None
    if host is None:
        _usage(args)
        return 0
    return run_host(host, decide, post)


def run_host(host: Host, decide: Decide | None = None, post: PostFilter | None = None) -> int:
    """Read stdin, answer on stdout, exit 0 on every path."""
    answer = host.no_opinion
    try:
        raw = _read_stdin()
        outcome = handle(host, raw, decide, post)
        answer = outcome.answer
        if outcome.audit is not None:
            audit(*outcome.audit)
    except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - fail open: the agent must go on
        _warn(f"hook {host.name}: internal error ({type(exc).__name__}: {exc}); no opinion given")
    _emit(answer)
    return 0


def handle(host: Host, raw: bytes, decide: Decide | None = None, post: PostFilter | None = None) -> Outcome:
    """The whole decision for one payload, without I/O (bar a warning line on stderr)."""
    payload, problem = parse_payload(raw)
    if problem:
        _warn(f"hook {host.name}: {problem}; no opinion given")
    if host.name == "claude" and isinstance(payload, dict) and _for_session(payload):
        from rtk.session import hook as session

        return Outcome(session.handle(payload) or host.no_opinion)
    if post is not None and isinstance(payload, dict) and host.finished is not None:
        done = host.finished(payload)
        if done is not None:
            return respond_post(host, done, post)
    outcome = respond(host, payload, decide)
    if outcome.argvs and host.name == "claude" and isinstance(payload, dict) and "session_id" in payload:
        from rtk.session import identity  # who runs `rtk X`: session memory asks when it runs

        if identity.enabled():
            identity.note(payload, outcome.argvs)
    return outcome


SESSION_EVENTS = frozenset({"PreCompact", "SessionStart", "Interrupt"})


def _for_session(payload: dict[str, Any]) -> bool:
    """Claude's payloads for session memory alone: boundaries and the Read tool's results."""
    event = payload.get("hook_event_name")
    return event in SESSION_EVENTS or (event == "PostToolUse" and payload.get("tool_name") == "Read")


def parse_payload(raw: bytes) -> tuple[Any, str | None]:
    """The JSON value on stdin (None when empty or unusable) and the problem to report, if any."""
    if len(raw) > MAX_INPUT:
        return None, f"input over {MAX_INPUT} bytes ignored"
    while raw.startswith(BOM):
        raw = raw[len(BOM):]
    raw = raw.strip()
    if not raw:
        return None, None
    try:
        return quickjson.loads(raw.decode("utf-8")), None
    except UnicodeDecodeError:
        return None, "input is not UTF-8"
    except ValueError as exc:
        if "out of range" in str(exc):  # valid JSON, but a number no answer could echo back
            return None, f"JSON on stdin that no answer could carry ({exc})"
        return None, f"invalid JSON on stdin ({exc})"
    except RecursionError:
        return None, "invalid JSON on stdin (nested too deeply)"


def respond(host: Host, payload: Any, decide: Decide | None = None) -> Outcome:
    call = host.extract(payload) if isinstance(payload, dict) else None
    if call is None:
        return Outcome(host.no_opinion)
    if len(call.command) > MAX_COMMAND:  # the lexer would not answer within 100 ms
        return Outcome(host.no_opinion, ("skip:defer", call.command, ""))
    if host.finished is not None and _post_line(call.command):
        return Outcome(host.no_opinion, ("skip:post", call.command, ""))
    rtk = program.name(login_shell=host.name in LOGIN_SHELL_HOSTS)
    decision = (decide or _engine())(call.command, host.name, cwd=call.cwd, program=rtk)
    action = audit_action(decision.code, call.command, decision.command)
    if action == "skip:none":  # already `rtk X`: it runs as typed, and memory needs its context
        return Outcome(host.no_opinion, (action, call.command, ""), _argvs(decision))
    if action not in ("rewrite", "ask"):
        return Outcome(host.no_opinion, (action, call.command, ""))
    permission = host.permission(call, decision)
    if permission != "allow" and host.finished is not None and _reads_somewhere(decision):
        # a reader the host may run silently sits beside a runner: a rewrite without allow could
        # make the host ask about the line, so the host decides on it as typed
        return Outcome(host.no_opinion, ("skip:defer", call.command, ""))
    if permission == SKIP:
        return Outcome(host.no_opinion, ("skip:defer", call.command, ""))
    action = "rewrite" if permission == "allow" else "ask"
    return Outcome(call.answer(decision.command, permission), (action, call.command, decision.command),
                   _argvs(decision))


def _argvs(decision: Decision) -> list[list[str]]:
    return [list(seg.argv) for seg in decision.segments if seg.argv]


def respond_post(host: Host, done: Finished, post: PostFilter) -> Outcome:
    """The post path: the host ran `done.command` under its own rules; replace what it printed
    with the routed command's filtered form when that is smaller, else keep it (no opinion)."""
    from rtk.agent.post_lines import routed_argv

    argv = routed_argv(done.command, host.post_scope) if len(done.command) <= MAX_COMMAND else None
    if argv is None:
        return Outcome(host.no_opinion, ("post:skip", done.command, ""))
    body = post(host.name, done, argv)
    if body is None:
        return Outcome(host.no_opinion, ("post:partial" if done.partial else "post:keep", done.command, ""))
    return Outcome(done.answer(done.frame(body)), ("post:replace", done.command, ""))


def _post_line(command: str) -> bool:
    """The line takes the post path (the host runs it as typed, rtk filters what it printed)."""
    if len(command) > MAX_COMMAND:
        return False
    from rtk.agent.post_lines import routed_argv

    return routed_argv(command, READERS) is not None


def _reads_somewhere(decision: Decision) -> bool:
    from rtk.agent.post_lines import reads

    return any(seg.argv and reads(list(seg.argv)) for seg in decision.segments)


def _engine() -> Decide:
    from rtk.agent.rewrite import decide

    return decide


def audit_action(code: int, original: str, rewritten: str) -> str:
    if code == 2:
        return "skip:deny_rule"
    if code not in (0, 3) or not isinstance(rewritten, str) or not rewritten.strip():
        return "skip:defer"
    if rewritten == original:
        return "skip:none"
    return "rewrite" if code == 0 else "ask"


def audit(action: str, original: str, rewritten: str) -> None:
    """Append one line to hook-audit.log when auditing is on; a failure costs one stderr line."""
    if not _audit_enabled():
        return
    from rtk import paths

    try:
        path = os.path.join(paths.private_dir_path(paths.audit_dir_path()), "hook-audit.log")
        from rtk.redact import command_text  # credentials never reach the log

        line = audit_line(time.strftime("%Y-%m-%dT%H:%M:%S"), action, command_text(original),
                          command_text(rewritten))
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode("utf-8", "backslashreplace"))
        finally:
            os.close(fd)
    except OSError as exc:
        _warn(f"hook audit: cannot write {exc.filename or 'hook-audit.log'} ({exc.strerror or exc})")


def audit_line(stamp: str, action: str, original: str, rewritten: str) -> str:
    fields = (stamp, action, escape_field(original), escape_field(rewritten))
    return " | ".join(fields) + "\n"


# Control characters (C0, DEL, C1) would reach whoever reads the log in a terminal: ESC could
# repaint their screen. Each becomes a visible escape, like newline's `\\n`.
CONTROL_ESCAPES = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}
CONTROL_ESCAPES.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})


def escape_field(text: str) -> str:
    """One decision, one line: `\\`, `|`, newline, CR and every other control character are escaped."""
    return text.replace("\\", "\\\\").replace("|", "\\|").translate(CONTROL_ESCAPES)


def _audit_enabled() -> bool:
    """`[hooks] audit` in config.toml, overridden by RTK_HOOK_AUDIT (config.py applies both).
    The config module (and tomllib when a file exists) is imported only when one of them exists."""
    from rtk import paths

    if "RTK_HOOK_AUDIT" not in os.environ and not os.path.exists(paths.config_path()):
        return False
    from rtk import config

    return bool(config.load(report=False).get("hooks", "audit"))


def check(words: list[str], decide: Decide | None = None) -> int:
    """`rtk hook check CMD`: each host's verdict (as in the audit log) and answer; no audit line."""
    command = " ".join(words)
    if not command.strip():
        print("usage: rtk hook check COMMAND", file=sys.stderr)
        return 2
    width = max(len(name) for name in HOSTS)
    for name, host in HOSTS.items():
        outcome = respond(host, host.sample(command, os.getcwd()), decide)
        action = outcome.audit[0] if outcome.audit else "-"
        print(f"{name:<{width}}  {action:<14} {render(outcome.answer).rstrip() or '(no output)'}")
    return 0


def render(answer: Answer) -> str:
    """The exact stdout for an answer: one compact JSON document and a newline, or nothing."""
    if answer is None:
        return ""
    text = quickjson.dumps(answer, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from a `\ud800` escape: keep it escaped
        text = quickjson.dumps(answer)
    return text + "\n"


def _emit(answer: Answer) -> None:
    data = render(answer).encode("utf-8")
    if not data:
        return
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except (OSError, ValueError):
        _silence_stdout()


def _silence_stdout() -> None:
    """The host closed its end: drop what is buffered so exit stays 0 (no flush error at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _read_stdin() -> bytes:
    stream = sys.stdin.buffer if sys.stdin is not None else None
    return stream.read(MAX_INPUT + 1) if stream is not None else b""


def _usage(args: list[str]) -> None:
    if args[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return
    if args:
        _warn(f"hook: unknown host '{' '.join(args)}' (known: {', '.join(HOSTS)}); no opinion given")
    else:
        print(USAGE, file=sys.stderr)


def _warn(message: str) -> None:
    try:
        print(f"rtk: {message}", file=sys.stderr)
    except (OSError, ValueError):
        pass
