"""Copilot CLI's own permission flags, read from its command line: `--deny-tool 'shell(git push)'`,
`--allow-tool 'shell(git status)'`.

Copilot applies them to the command it finally runs, so a rewrite to `rtk git push` would slip past
`--deny-tool 'shell(git push)'` (tested with the real Copilot CLI 1.0.102). They live only on
Copilot's command line, so the hook reads it from its own ancestors (`/proc` on Linux, `ps`
elsewhere) and returns the shell entries as (kind, pattern) pairs; `shell` alone means every
command. The walk stops at the first ancestor that is Copilot; without one, nothing is found.
"""
from __future__ import annotations

import os

MAX_DEPTH = 8
FLAGS = {"--deny-tool": "deny", "--allow-tool": "allow"}


def shell_rules(pid: int | None = None) -> list[tuple[str, str | None]]:
    """(allow|deny, prefix or None for every command) for each shell entry of Copilot's flags."""
    argv = copilot_argv(os.getppid() if pid is None else pid)
    return parse(argv) if argv else []


def copilot_argv(pid: int) -> list[str] | None:
    for _ in range(MAX_DEPTH):
        if pid <= 1:
            return None
        found = _process(pid)
        if found is None:
            return None
        argv, parent = found
        if any("copilot" in os.path.basename(word) for word in argv[:2]):
            return argv
        pid = parent
    return None


def parse(argv: list[str]) -> list[tuple[str, str | None]]:
    """`--deny-tool A B`, `--deny-tool=A`: every value until the next option."""
    rules: list[tuple[str, str | None]] = []
    kind: str | None = None
    for word in argv[1:]:
        name, eq, value = word.partition("=")
        if name in FLAGS:
            kind = FLAGS[name]
            if eq:
                rules += _entry(kind, value)
                kind = None
            continue
        if word.startswith("-"):
            kind = None
        elif kind is not None:
            rules += _entry(kind, word)
    return rules


def _entry(kind: str, text: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for item in text.split(","):
        item = item.strip()
        if item == "shell":
            out.append((kind, None))
        elif item.startswith("shell(") and item.endswith(")"):
            pattern = item[len("shell("):-1].strip()
            pattern = pattern[:-2].rstrip() if pattern.endswith(":*") else pattern
            out.append((kind, pattern or None))
    return out


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
    quoting is lost: any `--deny-tool` there is read as denying every shell command."""
    if os.path.isdir("/proc"):
        return None
    import subprocess

    try:
        out = subprocess.run(["ps", "-o", "ppid=", "-o", "args=", "-p", str(pid)], capture_output=True,
                             text=True, timeout=2, check=False).stdout.strip()
        parent, _, args = out.partition(" ")
        argv = args.split()
        if "--deny-tool" in args and "shell" in args:
            argv = [*argv[:1], "--deny-tool=shell"]
        return argv, int(parent)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
