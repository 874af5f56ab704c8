"""Permission rules given on a host's command line, read from the hook's ancestors.

`copilot --deny-tool 'shell(git push)'`, `claude --disallowedTools 'Bash(git push:*)'`,
`gemini --allowed-tools 'run_shell_command(git status)'`: the host applies them to the command it
finally runs, so a rewrite to `rtk git push` would slip past such a deny (tested with the real
Copilot CLI 1.0.102). They live only on the host's command line, so the hook reads it from its own
ancestors (`/proc` on Linux, `ps` elsewhere) and returns the entries for the host's tool as
(kind, content) pairs: content None is the bare tool (every command). The walk stops at the first
ancestor that is the host; without one, nothing is found.
"""
from __future__ import annotations

import os

MAX_DEPTH = 8
# host -> (process name, its tool's rule prefix, option -> kind)
HOSTS = {
    "copilot": ("copilot", "shell", {"--deny-tool": "deny", "--allow-tool": "allow"}),
    "claude": ("claude", "Bash", {"--disallowedTools": "deny", "--disallowed-tools": "deny",
                                  "--allowedTools": "allow", "--allowed-tools": "allow"}),
    "gemini": ("gemini", "run_shell_command", {"--allowed-tools": "allow", "--exclude-tools": "deny"}),
}


_found: dict[str, list[str] | None] = {}


def tool_rules(host: str, pid: int | None = None) -> list[tuple[str, str | None]]:
    """(allow|deny, rule content or None for the bare tool) of `host`'s own command line."""
    _, tool, options = HOSTS[host]
    argv = _argv(host, pid)
    return parse(argv, tool, options) if argv else []


def option_values(host: str, option: str, pid: int | None = None) -> list[str]:
    """The values of `option` (`--settings FILE`, `--settings=JSON`) on the host's command line."""
    argv = _argv(host, pid) or []
    values = []
    for i, word in enumerate(argv[1:], 1):
        if word == option and i + 1 < len(argv):
            values.append(argv[i + 1])
        elif word.startswith(option + "="):
            values.append(word[len(option) + 1:])
    return values


def _argv(host: str, pid: int | None) -> list[str] | None:
    if pid is not None:
        return host_argv(HOSTS[host][0], pid)
    if host not in _found:  # once per process: the hook asks for rules and settings
        _found[host] = host_argv(HOSTS[host][0], os.getppid())
    return _found[host]


def host_argv(name: str, pid: int) -> list[str] | None:
    for _ in range(MAX_DEPTH):
        if pid <= 1:
            return None
        found = _process(pid)
        if found is None:
            return None
        argv, parent = found
        if any(name in word for word in argv[:2]):  # the native binary, or node + .../claude-code/cli.js
            return argv
        pid = parent
    return None


def parse(argv: list[str], tool: str, options: dict[str, str]) -> list[tuple[str, str | None]]:
    """`--opt A B`, `--opt=A`: every value until the next option; a value may hold several
    entries separated by commas or spaces outside parentheses."""
    rules: list[tuple[str, str | None]] = []
    kind: str | None = None
    for word in argv[1:]:
        name, eq, value = word.partition("=")
        if name in options:
            kind = options[name]
            if eq:
                rules += _entries(kind, value, tool)
                kind = None
            continue
        if word.startswith("-"):
            kind = None
        elif kind is not None:
            rules += _entries(kind, word, tool)
    return rules


def _entries(kind: str, text: str, tool: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for item in _split(text):
        if item == tool:
            out.append((kind, None))
        elif item.startswith(tool + "(") and item.endswith(")"):
            out.append((kind, item[len(tool) + 1:-1]))
    return out


def _split(text: str) -> list[str]:
    items: list[str] = []
    depth, current = 0, list[str]()
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch in ", " and depth <= 0:
            items.append("".join(current))
            current = []
        else:
            current.append(ch)
    items.append("".join(current))
    return [item.strip() for item in items if item.strip()]


def _process(pid: int) -> tuple[list[str], int] | None:
    """(argv, parent pid) of a process."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [part.decode("utf-8", "replace") for part in f.read().split(b"\0") if part]
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", "replace")
        return argv, int(stat.rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return _process_ps(pid)


def _process_ps(pid: int) -> tuple[list[str], int] | None:
    """Without /proc (macOS): `ps` gives the parent and the command line as one string, whose
    quoting is lost. Words are split at spaces outside parentheses, so an allow entry
    `run_shell_command(git status)` is read whole; a deny option is read as denying every command
    of the tool (its value's words cannot be told from the next ones)."""
    if os.path.isdir("/proc"):
        return None
    import subprocess

    try:
        out = subprocess.run(["ps", "-o", "ppid=", "-o", "args=", "-p", str(pid)], capture_output=True,
                             text=True, timeout=2, check=False).stdout.strip()
        parent, _, args = out.partition(" ")
        return ps_argv(args.strip()), int(parent)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


def ps_argv(args: str) -> list[str]:
    """`ps -o args=`'s line as argv: spaces inside parentheses do not split; every deny option
    of a host becomes a deny of that host's whole tool."""
    words, depth, current = [], 0, list[str]()
    for ch in args:
        depth = max(depth + {"(": 1, ")": -1}.get(ch, 0), 0)
        if ch == " " and depth == 0:
            if current:
                words.append("".join(current))
            current = []
        else:
            current.append(ch)
    if current:
        words.append("".join(current))
    for tool, options in ((spec[1], spec[2]) for spec in HOSTS.values()):
        for option, kind in options.items():
            if kind == "deny" and option in args:
                words = [*words[:1], f"{option}={tool}", *[w for w in words[1:] if not w.startswith(option)]]
    return words
