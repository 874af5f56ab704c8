"""Command string -> rtk form, with the 0/1/2/3 verdict every hook relies on (spec/rewrite.md).

Decisions are made on the lexer's words; the only change ever made to the text is `rtk `
spliced in front of a simple command (after its env assignments and transparent wrappers).
Standard library only: this runs before every agent command.

Background jobs stay rewritten (`nohup X &`, `X &`): rtk keeps inherited SIG_IGN (nohup's SIGHUP)
for itself and X, and leaves what X detached running (run/signals.py, run/jobs.py; issue 35).
"""
from __future__ import annotations

import os
import sys

from rtk import paths
from rtk.agent import permissions, segments
from rtk.filters import launchers
from rtk.filters.registry import classify
from rtk.shell import parse as shell

TYPE_CHECKING = False  # `typing` costs ~3 ms at start-up, and this runs before every agent command
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Sequence
    from typing import Any

    from rtk.agent.segments import Segment
    from rtk.config import Config

MAX_DEPTH = 10
MAX_COMMAND = 4 * 1024  # longer commands are left to the host: the answer must come within 100 ms
NEVER = frozenset({"cd", "echo", "printf", "export", "source", ".", "set", "unset", "true", "false",
                   "test", "[", "sleep", "wait", "kill", "read", "sudo", "doas", "watch", "xargs"})
DISPLAY_ONLY = frozenset({"cat", "head", "tail"})
# Served by a filter, but after a `|` they read the producer's bytes: `ls | wc -l` is not rewritten
PIPE_READERS = DISPLAY_ONLY | {"grep", "egrep", "fgrep", "rg", "wc", "jq", "sed"}
SHELLS = frozenset({"bash", "sh"})
DISABLED_REASON = "RTK_DISABLED is assigned in the command's env prefix"


class Decision:
    """`code` as in spec/rewrite.md; `command` the rewrite for 0 and 3, else ""; one reason a line.

    Behaves as `@dataclass(frozen=True)` (positional or keyword init, equality, hash, immutable)
    without importing dataclasses, whose `inspect` import costs more than the whole lexer.
    """

    __slots__ = ("code", "command", "reasons", "segments", "verdict")
    code: int
    command: str
    reasons: tuple[str, ...]
    verdict: str  # the permission verdict (permissions.DENY, ASK, ALLOW or DEFAULT)
    segments: tuple[Segment, ...]  # every simple command, as permission rules see it

    def __init__(self, code: int, command: str, reasons: tuple[str, ...], verdict: str = "default",
                 found: tuple[Segment, ...] = ()) -> None:
        for name, value in (("code", code), ("command", command), ("reasons", tuple(reasons)),
                            ("verdict", verdict), ("segments", tuple(found))):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Decision is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Decision is immutable (cannot delete {name!r})")

    def _key(self) -> tuple[int, str, tuple[str, ...]]:
        return (self.code, self.command, self.reasons)

    def __eq__(self, other: object) -> bool:
        return type(other) is Decision and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Decision(code={self.code!r}, command={self.command!r}, reasons={self.reasons!r})"


class _Analysis:
    """What one script (or `bash -c` script) holds: permission segments, problems, insertions."""

    __slots__ = ("disabled", "insertions", "problems", "reasons", "rtk_seen", "segments")

    def __init__(self, problems: list[str] | None = None) -> None:
        self.segments: list[Segment] = []
        self.problems: list[str] = problems or []
        self.insertions: list[int] = []
        self.reasons: list[str] = []
        self.rtk_seen = False
        self.disabled = False

    def merge(self, other: _Analysis, prefix: str) -> None:
        self.segments += other.segments
        self.problems += other.problems
        self.reasons += [prefix + reason for reason in other.reasons]
        self.rtk_seen |= other.rtk_seen
        self.disabled |= other.disabled


def decide(command: str, host: str | None = "claude", *, cwd: str | None = None,
           program: str = "rtk") -> Decision:
    """What a hook for `host` should do with `command` (host None: no permission rules); the
    rewrite names rtk as `program` (an absolute path when `rtk` on PATH is another one)."""
    if not command.strip():
        return Decision(1, "", ("empty command",))
    if len(command) > MAX_COMMAND:
        return Decision(1, "", (f"command over {MAX_COMMAND} characters: deferred to the host",))
    found = _analyze(command, 0, True)
    verdict, why = permissions.load(host, cwd).verdict(found.segments)
    reasons, seen = found.reasons, (verdict, tuple(found.segments))
    if verdict == permissions.DENY:
        return Decision(2, "", (*reasons, f"permissions ({host}): {why} -> exit 2"), *seen)
    if _run_disabled():
        return Decision(1, "", (*reasons, "RTK_DISABLED is set in the environment -> exit 1"), *seen)
    if found.disabled:
        return Decision(1, "", (*reasons, f"{DISABLED_REASON} -> exit 1"), *seen)
    if found.problems:
        problems = "; ".join(dict.fromkeys(found.problems))
        return Decision(1, "", (*reasons, f"unattestable: {problems} -> exit 1"), *seen)
    if not found.insertions and not found.rtk_seen:
        return Decision(1, "", (*reasons, "nothing rtk improves -> exit 1"), *seen)
    code = 0 if verdict == permissions.ALLOW else 3
    return Decision(code, splice(command, found.insertions, program),
                    (*reasons, f"permissions ({host}): {why} -> exit {code}"), *seen)


def analyze(command: str) -> _Analysis:
    """The whole analysis of a command line (segments, insertions, problems), without permissions:
    the post path asks which one command a line routes, not what it may do."""
    return _analyze(command, 0, True)


def splice(text: str, offsets: Sequence[int], program: str = "rtk") -> str:
    """`text` with `rtk ` inserted at every offset (the only edit a rewrite ever makes)."""
    out, last = [], 0
    for offset in sorted(set(offsets)):
        out += [text[last:offset], program + " "]
        last = offset
    out.append(text[last:])
    return "".join(out)


def _analyze(text: str, depth: int, downstream_ok: bool) -> _Analysis:
    script = shell.parse(text)
    found = _Analysis(list(script.problems))
    for inner in script.substitutions:
        sub = _analyze(inner, depth + 1, False)
        found.segments += sub.segments
    _walk_list(script.pipelines, downstream_ok, found, text, depth)
    return found


def _walk_list(pipelines: list[shell.Pipeline], ok: bool, found: _Analysis, src: str, depth: int) -> None:
    for pipeline in pipelines:
        stages = pipeline.stages
        for i, stage in enumerate(stages):
            stage_ok = ok and all(_display_only(later) for later in stages[i + 1:])
            reads_pipe = i > 0 and _pipe_reader(stage)
            for redirect in stage.redirects:
                if not redirect.harmless:
                    found.problems.append(f"redirect {src[redirect.start:redirect.end]}")
            if isinstance(stage, shell.Group):
                _walk_list(stage.body, stage_ok, found, src, depth)
            else:
                _simple(stage, stage_ok, found, src, depth, reads_pipe)


def _pipe_reader(stage: shell.Command | shell.Group) -> bool:
    """`| head`, `| wc -l`, `| grep x`, `| jq .`: it works on the bytes before it, kept exact."""
    return isinstance(stage, shell.Command) and bool(stage.argv) and \
        os.path.basename(stage.argv[0].value) in PIPE_READERS


def _display_only(stage: shell.Command | shell.Group) -> bool:
    if isinstance(stage, shell.Group) or not stage.argv:
        return False
    argv = [w.value for w in stage.argv]
    name = os.path.basename(argv[0])
    if name == "tail":
        return not any(_follows(arg) for arg in argv[1:])
    return name in DISPLAY_ONLY


def _follows(arg: str) -> bool:
    if arg.startswith("--"):  # tail takes any unambiguous prefix: --f, --foll, --follow=name
        name = arg[2:].split("=", 1)[0]
        return bool(name) and "follow".startswith(name)
    return arg.startswith("-") and not arg[1:].isdigit() and ("f" in arg or "F" in arg)


def _simple(cmd: shell.Command, ok: bool, found: _Analysis, src: str, depth: int,
            reads_pipe: bool = False) -> None:
    seg = cmd.text(src)
    if any(w.assigned_name == "RTK_DISABLED" for w in cmd.assignments):
        found.disabled = True
    words = cmd.words
    i, why = _peel(words, len(cmd.assignments), found)
    found.segments.append(segments.of_command(cmd, src, i))
    if i is None or i >= len(words):
        if why:
            found.reasons.append(f"`{seg}`: keep ({why})")
        return
    outcome = _command(words, i, ok, found, depth, reads_pipe)
    if outcome is None:
        found.insertions.append(words[i].start)
        outcome = f"rewrite -> `{splice(src[cmd.start:cmd.end], [words[i].start - cmd.start])}`"
    found.reasons.append(f"`{seg}`: {outcome}")


def _peel(words: list[shell.Word], i: int, found: _Analysis) -> tuple[int | None, str]:
    """Step over `env`, `time`, `nice`, ...: the index of the real command word."""
    while i < len(words) and words[i].literal:
        if size := _transparent_prefix(words, i):
            i += size
            continue
        peel: Callable[[list[str], int], int | None] | None = WRAPPERS.get(os.path.basename(words[i].value))
        if peel is None:
            break
        values = [w.value for w in words]
        nxt = peel(values, i + 1)
        if nxt is None:
            return None, f"'{words[i].value}' used in a way rtk does not look through"
        if any(v.split("=", 1)[0] == "RTK_DISABLED" for v in values[i + 1:nxt] if "=" in v):
            found.disabled = True
        i = nxt
    return i, ""


def _command(words: list[shell.Word], i: int, ok: bool, found: _Analysis, depth: int,
             reads_pipe: bool = False) -> str | None:
    """Why the command at words[i] is kept as is, or None when `rtk ` goes in front of it."""
    head = words[i]
    name = os.path.basename(head.value)
    argv = [w.value for w in words[i:]]
    if name == "rtk":
        found.rtk_seen = True
        return "already rtk"
    if name in NEVER:
        return f"keep ('{name}' is never rewritten)"
    if not head.literal:
        return "keep (the command name is not literal)"
    if name in SHELLS and (script := shell_script_index(argv)) is not None:
        return _shell_c(words[i + script], ok, found, depth)
    match = classify(argv)
    if match is None:
        return "keep (no dedicated filter)"
    if not match.rewrite:
        return f"keep (the {match.filter} filter serves it, but it is never rewritten)"
    if entry := _excluded(argv):
        return f"keep (excluded by [hooks] exclude_commands entry {entry!r})"
    if (cfg := _config()) is not None and cfg.filter_disabled(argv):
        return "keep (its filter is disabled in [filters] disabled)"
    if reads_pipe:
        return "keep (it reads the pipe before it, whose bytes stay exact)"
    if not ok:
        return "keep (piped into a command that consumes its exact output)"
    return None


def _shell_c(script: shell.Word, ok: bool, found: _Analysis, depth: int) -> str:
    if not script.literal:
        found.problems.append("bash -c script with expansions")
        return "keep (the script has expansions)"
    if depth + 1 >= MAX_DEPTH:
        found.problems.append(f"bash -c nested deeper than {MAX_DEPTH}")
        return "keep (nested too deep)"
    inner = _analyze(script.value, depth + 1, ok)
    found.merge(inner, "  bash -c: ")
    if any(script.contexts[k] not in "sda" for k in inner.insertions):
        return "keep (the script is not quoted, so rtk cannot be inserted into it)"
    found.insertions += [script.offsets[k] for k in inner.insertions]
    return "script rewritten inside" if inner.insertions else "script looked into"


def _transparent_prefix(words: list[shell.Word], i: int) -> int:
    """`[hooks] transparent_prefixes` (`direnv exec .`, `docker exec app`): how many words the
    longest one starting at words[i] spans (as upstream: with `docker` and `docker exec app` both
    listed, `docker exec app git status` peels three words), 0 when none does."""
    cfg = _config()
    if cfg is None:
        return 0
    longest = 0
    for entry in cfg.get("hooks", "transparent_prefixes") or []:
        prefix = entry.split() if isinstance(entry, str) else []
        given = words[i:i + len(prefix)]
        if len(prefix) > longest and len(given) == len(prefix) and all(
                w.literal and w.value == p for w, p in zip(given, prefix, strict=True)):
            longest = len(prefix)
    return longest


def _config() -> Config | None:
    """The loaded config, or None without importing the config module when there is no file."""
    if not os.path.exists(paths.config_path()):
        return None
    from rtk import config

    return config.load()


def _run_disabled() -> bool:
    if "RTK_DISABLED" not in os.environ:
        return False
    from rtk import config

    return config.run_disabled()


_compiled: tuple[object, list[tuple[str, re.Pattern[str] | None]]] | None = None


def _exclusions() -> list[tuple[str, re.Pattern[str] | None]]:
    """`[hooks] exclude_commands`, compiled once per loaded config; a bad regex is said once."""
    global _compiled
    cfg = _config()
    if cfg is None:
        return []
    if _compiled is None or _compiled[0] is not cfg:
        entries: list[tuple[str, re.Pattern[str] | None]] = []
        for entry in cfg.get("hooks", "exclude_commands") or []:
            entries.append((entry, _compile(entry) if entry.startswith("^") else None))
        _compiled = (cfg, entries)
    return _compiled[1]


def _compile(entry: str) -> re.Pattern[str] | None:
    import re  # only for `^` entries of exclude_commands

    try:
        return re.compile(entry)
    except re.error as exc:
        print(f"rtk: exclude_commands entry {entry!r} is not a valid regex ({exc}); "
              "treated as a plain prefix", file=sys.stderr)
        return None


def _excluded(argv: list[str]) -> str | None:
    """An exclude names the tool, whatever launches it: `pytest` also covers `python -m pytest`."""
    texts = {text for words in launchers.candidates(argv)
             for text in (" ".join(words), " ".join([os.path.basename(words[0]), *words[1:]]))}
    for entry, pattern in _exclusions():
        if pattern is not None:
            if any(pattern.search(text) for text in texts):
                return entry
            continue
        plain = " ".join(entry.lstrip("^").split())
        if plain and any(text == plain or text.startswith(plain + " ") for text in texts):
            return entry
    return None


# Transparent wrappers: each takes the argv values and the index after the wrapper's name and
# returns the index of the wrapped command, or None when used in a way we do not look through.

def _skip(values: list[str], i: int, flags: frozenset[str], with_value: frozenset[str]) -> int | None:
    while i < len(values) and values[i].startswith("-") and values[i] != "-":
        arg = values[i]
        if arg == "--":
            return i + 1
        if arg in with_value:
            i += 2
        elif arg in flags or _attached(arg, with_value):
            i += 1
        else:
            return None
    return i


def _attached(arg: str, with_value: frozenset[str]) -> bool:
    """`--opt=value` or `-ovalue`."""
    if arg.startswith("--"):
        return arg.split("=", 1)[0] in with_value and "=" in arg
    return arg[:2] in with_value


def _time(values: list[str], i: int) -> int | None:
    return _skip(values, i, frozenset({"-p", "--portability"}), frozenset())


def _nice(values: list[str], i: int) -> int | None:
    if i < len(values) and values[i][:1] == "-" and values[i][1:].isdecimal():
        return i + 1
    return _skip(values, i, frozenset(), frozenset({"-n", "--adjustment"}))


def _nohup(values: list[str], i: int) -> int | None:
    return _skip(values, i, frozenset(), frozenset())


def _timeout(values: list[str], i: int) -> int | None:
    j = _skip(values, i, frozenset({"--preserve-status", "--foreground", "-v", "--verbose"}),
              frozenset({"-s", "--signal", "-k", "--kill-after"}))
    if j is None or j >= len(values) or not _duration(values[j]):
        return None
    return j + 1


def _duration(text: str) -> bool:
    """`timeout`'s DURATION: digits and dots, then an optional unit (s, m, h or d)."""
    number = text[:-1] if text[-1:] in ("s", "m", "h", "d") else text
    return number != "" and all(c == "." or c.isdecimal() for c in number)


def _command_builtin(values: list[str], i: int) -> int | None:
    return _skip(values, i, frozenset({"-p"}), frozenset())


def _exec(values: list[str], i: int) -> int | None:
    return _skip(values, i, frozenset({"-c", "-l", "-cl", "-lc"}), frozenset({"-a"}))


def _env(values: list[str], i: int) -> int | None:
    j = _skip(values, i, frozenset({"-i", "--ignore-environment"}),
              frozenset({"-u", "--unset", "-C", "--chdir"}))
    if j is not None:
        while j < len(values) and shell.is_assignment(values[j]):
            j += 1
    return j


WRAPPERS: dict[str, Callable[[list[str], int], int | None]] = {
    "time": _time, "nice": _nice, "nohup": _nohup, "timeout": _timeout,
    "command": _command_builtin, "exec": _exec, "env": _env,
    "noglob": _nohup, "nocorrect": _nohup,  # zsh precommand modifiers
}
SHELL_OPTS_WITH_VALUE = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


def shell_script_index(argv: list[str]) -> int | None:
    """Index in argv (argv[0] = bash/sh) of the script of `bash [opts] -c SCRIPT`, else None."""
    has_c, i = False, 1
    while i < len(argv):
        arg = argv[i]
        if arg in ("--", "-"):
            return i + 1 if has_c and i + 1 < len(argv) else None
        if arg in SHELL_OPTS_WITH_VALUE:
            i += 2
            continue
        if not arg.startswith(("-", "+")):
            return i if has_c else None
        has_c |= not arg.startswith("--") and "c" in arg[1:]
        i += 1
    return None


def reset_cache() -> None:
    """Forget compiled exclusions (tests change config between cases)."""
    global _compiled
    _compiled = None
