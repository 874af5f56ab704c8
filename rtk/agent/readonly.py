"""The commands a host runs without asking (its built-in read-only set), for the hosts that have one.

Claude Code and Copilot CLI auto-approve read-only commands such as `git status`; `rtk git status`
is not on their lists, so after a rewrite the agent would meet a prompt the original never had.
The hook answers `allow` for the rtk form only when the original is covered here, and this module
claims no more than the host: the data (`readonly_data`) is taken from the host's own package,
the checks follow the host's (flag types, extra per-command tests, paths inside the working
directory, git's bare-repository gate), and whatever is not reproduced exactly is left out.
"""
from __future__ import annotations

import os

from rtk.shell.parse import Group, parse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from rtk.agent.segments import Segment

BARE_ONLY = frozenset({"pwd", "whoami"})
FIND_ACTIONS = frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fls",
                          "-fprintf", "-files0-from"})
PRETTY_BUILTINS = frozenset({"oneline", "short", "medium", "full", "fuller", "email", "raw"})
SIGNATURE_MARKS = ("%G", "%-G", "%+G", "% G", "%(signature", "%(*signature")
DOCKER_REMOTE = ("-H", "-c", "--host", "--context", "--config", "--tlscacert", "--tlscert", "--tlskey")
FLAG_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
COPILOT_GIT = frozenset({"status", "log", "branch", "describe", "ls-files", "rev-parse", "shortlog",
                         "blame", "tag"})
CLAUDE_MODES = frozenset({"default", "acceptEdits", "plan", "dontAsk", "auto", ""})


def claude_covers(command: str, segments: Sequence[Segment], cwd: str) -> bool:
    """Claude Code would run `command` without asking because every part of it is read-only."""
    if not segments or not _simple_structure(command):
        return False
    names = {seg.argv[0] for seg in segments if seg.argv}
    if "cd" in names and "git" in names:  # Claude asks for cd + git compounds
        return False
    return all(_claude_segment(seg, cwd) for seg in segments)


def copilot_covers(command: str, segments: Sequence[Segment], cwd: str) -> bool:
    """Copilot CLI: one plain `git <read-only subcommand>` with value-less flags only."""
    if len(segments) != 1 or not _simple_structure(command):
        return False
    seg = segments[0]
    argv = seg.argv
    if not _plain(seg) or len(argv) < 2 or argv[0] != "git" or argv[1] not in COPILOT_GIT:
        return False
    from rtk.agent.readonly_data import FLAG_COMMANDS

    flags = FLAG_COMMANDS[f"git {argv[1]}"][2]
    return all(flags.get(word) == "none" for word in argv[2:]) and _git_dir_ok(cwd)


def _simple_structure(command: str) -> bool:
    """No subshell or brace group, no background `&`, nothing the lexer flagged, and only
    redirections Claude accepts (fd duplication, /dev/null)."""
    if not any(ch in command for ch in "&({<>"):  # nothing to look for: spare a second lexing
        return True
    script = parse(command)
    if script.problems:
        return False
    for pipeline in script.pipelines:
        if pipeline.sep == "&" or any(isinstance(stage, Group) for stage in pipeline.stages):
            return False
    return all(redirect.harmless for cmd in script.commands() for redirect in cmd.redirects)


def _plain(seg: Segment) -> bool:
    """Literal words, no assignment or wrapper in front, nothing that would make Claude look closer."""
    if not seg.literal or seg.start != 0 or not seg.words:
        return False
    return not any("$" in w or "`" in w or ("{" in w and ("," in w or ".." in w)) for w in seg.words)


def _claude_segment(seg: Segment, cwd: str) -> bool:
    if not _plain(seg):
        return False
    argv = list(seg.argv)
    name = argv[0]
    if name in BARE_ONLY:
        return len(argv) == 1
    if name == "cd":
        return len(argv) <= 2 and _paths_inside(argv[1:], cwd)
    covered = _any_args(argv) or _find(argv) or _flag_command(argv, "\n" in seg.text)
    if not covered or not _paths_inside(argv[1:], cwd):
        return False
    return name != "git" or _git_dir_ok(cwd)


def _any_args(argv: list[str]) -> bool:
    from rtk.agent.readonly_data import ANY_ARGS

    if argv[0] == "ls" or argv[0] in ANY_ARGS:
        return True
    if " ".join(argv[:2]) in ANY_ARGS:  # docker ps, docker images
        return not _docker_remote(argv[2:])
    return False


def _find(argv: list[str]) -> bool:
    return argv[0] == "find" and not any(word in FIND_ACTIONS for word in argv[1:])


def _flag_command(argv: list[str], multiline: bool) -> bool:
    from rtk.agent.readonly_data import FLAG_COMMANDS

    for size in (3, 2, 1):
        key = " ".join(argv[:size])
        if len(argv) >= size and key in FLAG_COMMANDS:
            check, double_dash, flags = FLAG_COMMANDS[key]
            if multiline and argv[0] in ("grep", "egrep", "fgrep", "rg"):
                return False
            rest = argv[size:]
            return _flags_ok(rest, flags, double_dash, argv[0]) and not CHECKS[check](rest)
    return False


def _is_flag(word: str) -> bool:
    return len(word) > 1 and word[0] == "-" and word[1] in FLAG_START


def _flags_ok(args: list[str], flags: dict[str, str], double_dash: bool, name: str) -> bool:
    """Claude's flag walk: known flags only, values of the declared type, `--` ends the flags."""
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            if double_dash:
                return True
            i += 1
        elif _is_flag(word):
            step = _flag_step(args, i, flags, name)
            if step is None:
                return False
            i += step
        else:
            i += 1
    return True


def _flag_step(args: list[str], i: int, flags: dict[str, str], name: str) -> int | None:
    """How many words the flag at args[i] takes, or None when Claude would not allow it."""
    word = args[i]
    flag, has_value, value = word.partition("=")
    kind = flags.get(flag)
    if kind is None:
        return 1 if _unknown_flag_ok(flag, flags, name) and not has_value else None
    if kind == "none":
        return None if has_value else 1
    if has_value:
        return 1 if _value_ok(value, kind) else None
    if i + 1 >= len(args) or _is_flag(args[i + 1]):
        return None
    return 2 if _value_ok(args[i + 1], kind) else None


def _unknown_flag_ok(flag: str, flags: dict[str, str], name: str) -> bool:
    """`git -5`, `grep -A5`, and bundles of value-less short flags (`-la`)."""
    if name == "git" and flag[1:].isdigit():
        return True
    if flag.startswith("--") or len(flag) <= 2:
        return False
    if name in ("grep", "egrep", "fgrep", "rg") and flags.get(flag[:2]) in ("number", "string"):
        return flag[2:].isdigit()
    return all(flags.get("-" + ch) == "none" for ch in flag[1:])


def _value_ok(value: str, kind: str) -> bool:
    if kind == "string":
        return not value.startswith("-")
    if kind == "number":
        return value.isdigit() and value.isascii()
    return {"char": len(value) == 1, "{}": value == "{}", "EOF": value == "EOF"}.get(kind, False)


def _git_format(args: list[str]) -> bool:
    """Claude's extra test for git log/show/...: no signature placeholders, no user-defined
    pretty format names (those come from config)."""
    for i, word in enumerate(args):
        if any(mark in word for mark in SIGNATURE_MARKS):
            return True
        for option in ("--format", "--pretty", "--sort"):
            value = args[i + 1] if word == option and i + 1 < len(args) else None
            if word.startswith(option + "="):
                value = word[len(option) + 1:]
            if value is None:
                continue
            if "signature" in value or (option != "--sort" and _named_format(value)):
                return True
    return False


def _named_format(value: str) -> bool:
    if value == "" or "%" in value or value.startswith(("format:", "tformat:")):
        return False
    return value not in PRETTY_BUILTINS


def _list_only(args: list[str]) -> bool:
    """git branch / git tag: a name (not in list mode) creates a branch or tag."""
    if _git_format(args):
        return True
    with_value = {"--contains", "--no-contains", "--points-at", "--sort", "--merged", "--no-merged",
                  "--format", "-n"}
    listing = any(w in ("-l", "--list") or (w[:1] == "-" and w[1:2] != "-" and "=" not in w and "l" in w[1:])
                  for w in args)
    i, ended = 0, False
    while i < len(args):
        word = args[i]
        if word == "--" and not ended:
            ended = True
        elif not ended and word.startswith("-"):
            i += 2 if word in with_value else 1
            continue
        elif not listing:
            return True
        i += 1
    return False


def _gh_target(args: list[str]) -> bool:
    """gh: a URL, a `user@host` or a HOST/OWNER/REPO argument points gh at another host."""
    for word in args:
        target = word
        if word.startswith("-"):
            if "=" not in word:
                continue
            target = word.split("=", 1)[1]
        if "://" in target or "@" in target or target.count("/") >= 2:
            return True
    return False


def _docker_remote(args: list[str]) -> bool:
    for word in args:
        for option in DOCKER_REMOTE:
            attached = len(option) == 2 and word.startswith(option)
            if word == option or word.startswith(option + "=") or attached:
                return True
        letters = word[1:] if word.startswith("-") and not word.startswith("--") else ""
        if len(letters) >= 2 and letters.isalpha() and ("H" in letters or "c" in letters):
            return True
    return False


def _verbose_only(args: list[str]) -> bool:
    return any(word not in ("-v", "--verbose") for word in args)


def _paths_inside(args: Sequence[str], cwd: str) -> bool:
    """Every argument (and flag value) that could be a path stays inside the working directory."""
    root = os.path.realpath(cwd)
    for word in args:
        candidate = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        if candidate.startswith("-") or not candidate:
            continue
        if candidate.startswith(("/", "~")) or ".." in candidate.split("/"):
            return False
        resolved = os.path.realpath(os.path.join(root, candidate))
        if resolved != root and not resolved.startswith(root + os.sep):
            return False
    return True


def _git_dir_ok(cwd: str) -> bool:
    """Claude's bare-repository gate: no HEAD/objects/refs in the directory, `.git` a real directory."""
    if any(os.path.lexists(os.path.join(cwd, name)) for name in ("HEAD", "objects", "refs")):
        return False
    dot_git = os.path.join(cwd, ".git")
    return not os.path.lexists(dot_git) or (os.path.isdir(dot_git) and not os.path.islink(dot_git))


CHECKS = {"": lambda args: False, "git_format": _git_format, "list_only": _list_only,
          "gh_target": _gh_target, "docker_host": _docker_remote, "verbose_only": _verbose_only}
