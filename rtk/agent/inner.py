"""The commands a command runs, so that a deny rule sees what will really run (issue 35, item 4).

`git -C . push` runs `git push`, `/usr/bin/git push` is git, `find . -exec git push \\;`,
`xargs git push`, `trap 'git push' EXIT`, `sudo git push`, `sh -c 'git push'`, `env -S 'git push'`
and `watch git push` all run `git push`. For each segment rtk reads, `readings` gives these further
readings, each a segment of its own (segments.derived), with whether an allow rule must cover it:

- a *renaming* of the same command (a path read as the program's name, git's global options
  peeled) is matched by deny and ask rules only: the allow rule has already covered the command
  as written;
- a *nested* command (an -exec, xargs' command, a trap or `-c` string, what a wrapper such as
  sudo, env, timeout or nice starts) is matched by deny and ask rules, and must be covered by an
  allow rule too, since the command as written does not say it.

What cannot be read for sure is read in doubt: an uncertain word ends what is known (a deny rule
then matches when it could match any completion, so rtk steps aside), xargs' arguments from stdin
and find's `{}` are uncertain, a wrapper option rtk does not know makes every later word a
possible start of the command, and a string with shell constructs rtk cannot attest adds a
segment of which nothing is known. The permission decision may only get stricter from here.
Standard library only, no `re` or `typing`: this runs on the hook path.
"""
from __future__ import annotations

from rtk.agent.segments import derived

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from rtk.agent.segments import Segment

    Words = tuple[str, ...]
    Flags = tuple[bool, ...]
    Reading = tuple[Segment, bool]

MAX_DEPTH = 4
MAX_READINGS = 64
MAX_CANDIDATES = 8
GIT_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                       "--config-env", "--attr-source", "--exec-path", "--list-cmds"})
GIT_FLAGS = frozenset({"-p", "--paginate", "-P", "--no-pager", "--bare", "--no-replace-objects",
                       "--no-lazy-fetch", "--no-optional-locks", "--no-advice", "--literal-pathspecs",
                       "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--html-path",
                       "--man-path", "--info-path", "--exec-path"})
GIT_HELP = {"-h": "help", "--help": "help", "-v": "version", "--version": "version"}
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "busybox"})
SHELL_VALUE = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})
TRAP_OPTIONS = frozenset({"-l", "-p", "-P"})


class Spec:
    """How a wrapper reads its own options before the command it runs: flags, options taking a
    value, positional words before the command (timeout's duration, flock's file), whether
    `NAME=value` words may follow (env, sudo), and options whose value is a command string."""

    __slots__ = ("assignments", "flags", "positionals", "scripts", "values")

    def __init__(self, flags: str = "", values: str = "", positionals: int = 0, assignments: bool = False,
                 scripts: str = "") -> None:
        self.flags, self.values = frozenset(flags.split()), frozenset(values.split())
        self.positionals, self.assignments = positionals, assignments
        self.scripts = frozenset(scripts.split())


WRAPPERS: dict[str, Spec] = {
    "env": Spec("-i --ignore-environment -0 --null -v --debug --ignore-signal --default-signal --block-signal"
                " --list-signal-handling", "-u --unset -C --chdir -S --split-string -P", assignments=True,
                scripts="-S --split-string"),
    "nice": Spec("", "-n --adjustment"),
    "nohup": Spec(), "noglob": Spec(), "nocorrect": Spec(), "builtin": Spec(), "unbuffer": Spec("-p"),
    "time": Spec("-p --portability -v --verbose -q --quiet -a --append", "-f --format -o --output"),
    "timeout": Spec("--preserve-status --foreground -v --verbose", "-s --signal -k --kill-after", 1),
    "command": Spec("-p -v -V"),
    "exec": Spec("-c -l", "-a"),
    "stdbuf": Spec("", "-i -o -e --input --output --error"),
    "ionice": Spec("-t --ignore", "-c --class -n --classdata"),
    "setsid": Spec("-c --ctty -f --fork -w --wait"),
    "taskset": Spec("-a --all-tasks -c --cpu-list", "", 1),
    "chrt": Spec("-a --all-tasks -b --batch -d --deadline -f --fifo -i --idle -o --other -r --rr -R"
                 " --reset-on-fork -v --verbose", "-T --sched-runtime -P --sched-period -D --sched-deadline", 1),
    "flock": Spec("-s --shared -x -e --exclusive -u --unlock -n --nb --nonblock -o --close -F --no-fork"
                  " --verbose", "-w --wait --timeout -E --conflict-exit-code -c --command", 1,
                  scripts="-c --command"),
    "chroot": Spec("--skip-chdir", "--userspec --groups", 1),
    "sudo": Spec("-A --askpass -b --background -E --preserve-env -H --set-home -i --login -K -k"
                 " --remove-timestamp --reset-timestamp -n --non-interactive -P --preserve-groups -S --stdin"
                 " -s --shell -B --bell -N --no-update", "-u --user -g --group -C --close-from -D --chdir"
                 " -h --host -p --prompt -R --chroot -r --role -t --type -T --command-timeout -U --other-user",
                 assignments=True),
    "doas": Spec("-n -s", "-u -C"),
    "su": Spec("-l --login -m -p --preserve-environment -P --pty", "-c --command -s --shell -g --group"
               " -G --supp-group -w --whitelist-environment", scripts="-c --command"),
    "runuser": Spec("-l --login -m -p --preserve-environment", "-c --command -s --shell -g --group"
                    " -G --supp-group -u --user", scripts="-c --command"),
    "watch": Spec("-b --beep -c --color -C --no-color -d --differences -e --errexit -g --chgexit -p"
                  " --precise -t --no-title -w --no-wrap -x --exec -r --no-rerun", "-n --interval -q --equexit"),
}
STRING_RUNNERS = frozenset({"watch", "su", "runuser"})  # the rest of the words is one shell string


def readings(segments: Iterable[Segment]) -> list[Reading]:
    """Every further reading of the segments: (segment, whether an allow rule must cover it)."""
    out: list[Reading] = []
    for seg in segments:
        if seg.words and seg.start < len(seg.words):
            _expand(seg.words[seg.start:], seg.certain[seg.start:], 0, out)
        if len(out) > MAX_READINGS:
            out.append((_unknown(), True))
            break
    return out


def _expand(words: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    if not words or not certain[0] or depth > MAX_DEPTH or len(out) > MAX_READINGS:
        return
    name = words[0].rsplit("/", 1)[-1]
    if name != words[0] and name:
        words = (name, *words[1:])
        out.append((derived(words, certain), False))  # `/usr/bin/git push` is git
    reader = READERS.get(name)
    if reader is not None:
        reader(words, certain, depth, out)
    elif name in WRAPPERS:
        _wrapper(name, words, certain, depth, out)


def _nested(words: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    """A command another one starts: a reading that allow rules must cover too, read further."""
    if words:
        out.append((derived(words, certain), True))
        _expand(words, certain, depth + 1, out)


def _unknown() -> Segment:
    """A command of which nothing is known: every deny and ask rule could match it."""
    return derived(("?",), (False,))


def _git(words: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    i = 1
    while i < len(words) and words[i].startswith("-"):
        word = words[i]
        if not certain[i]:
            out.append((derived(words[:1] + words[i:], (True, False) + certain[i + 1:]), True))
            return
        if word in GIT_HELP:
            out.append((derived(("git", GIT_HELP[word], *words[i + 1:]), (True, True, *certain[i + 1:])), False))
            return
        name, eq, value = word.partition("=")
        if word in GIT_FLAGS:
            i += 1
        elif name in GIT_VALUE:
            value = value if eq else (words[i + 1] if i + 1 < len(words) else "")
            if name in ("-c", "--config-env") and value.lower().startswith("alias."):
                out.append((derived(words[:1] + words[i:], (True, False) + certain[i + 1:]), True))
                return  # an alias defined here may run anything
            i += 1 if eq else 2
        else:  # git refuses an option it does not know; read what follows in doubt
            out.append((derived(words[:1] + words[i:], (True, False) + certain[i + 1:]), True))
            return
    rest, known = words[i:], certain[i:]
    if i > 1:
        out.append((derived(("git", *rest), (True, *known)), False))
    _git_runs(rest, known, depth, out)


def _git_runs(rest: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    """Subcommands that run commands of their own: `submodule foreach`, `rebase --exec`, `bisect run`."""
    if rest[:2] == ("submodule", "foreach"):
        i = 2
        while i < len(rest) and rest[i] in ("--recursive", "--quiet", "-q"):
            i += 1
        _script(" ".join(rest[i:]), all(certain[i:]), depth, out)
    elif rest[:2] == ("bisect", "run"):
        _nested(rest[2:], certain[2:], depth, out)
    elif rest[:1] == ("rebase",):
        for k, word in enumerate(rest):
            if word in ("-x", "--exec") and k + 1 < len(rest):
                _script(rest[k + 1], certain[k + 1], depth, out)
            elif word.startswith("--exec="):
                _script(word[7:], certain[k], depth, out)
            elif word.startswith("-x") and len(word) > 2:
                _script(word[2:], certain[k], depth, out)


def _find(words: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    i = 1
    while i < len(words):
        if words[i] not in FIND_EXEC:
            i += 1
            continue
        j = i + 1
        while j < len(words) and words[j] != ";" and not (words[j] == "+" and words[j - 1] == "{}"):
            j += 1
        inner = words[i + 1:j]
        _nested(inner, tuple(c and "{}" not in w for w, c in zip(inner, certain[i + 1:j], strict=True)),
                depth, out)
        i = j + 1


XARGS_VALUE = frozenset({"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "--max-lines", "-n",
                         "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var",
                         "--replace", "--eof"})
XARGS_FLAGS = frozenset({"-0", "--null", "-p", "--interactive", "-r", "--no-run-if-empty", "-t", "--verbose",
                         "-x", "--exit", "-o", "--open-tty", "--show-limits", "-e", "-i", "-l"})


def _xargs(words: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    i, replace = 1, ""
    while i < len(words) and words[i].startswith("-") and words[i] != "-":
        word = words[i]
        name, eq, value = word.partition("=")
        if word == "--":
            i += 1
            break
        if not certain[i]:
            return _candidates(words, certain, i, depth, out)
        if name in XARGS_VALUE:
            value = value if eq else (words[i + 1] if i + 1 < len(words) else "")
            i += 1 if eq else 2
        elif not word.startswith("--") and word[:2] in XARGS_VALUE:
            name, value, i = word[:2], word[2:], i + 1  # -I{} -n1
        elif word[:2] in ("-e", "-i", "-l") or name in XARGS_FLAGS:
            name, value, i = word[:2] if not word.startswith("--") else name, word[2:], i + 1
        else:
            return _candidates(words, certain, i, depth, out)
        if name in ("-I", "--replace", "-i"):
            replace = value or "{}"
    inner = words[i:] or ("echo",)
    flags = certain[i:] or (True,)
    if replace:
        flags = tuple(c and replace not in w for w, c in zip(inner, flags, strict=True))
    _nested((*inner, "..."), (*flags, False), depth, out)  # the arguments read from stdin follow
    return None


def _trap(words: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    i = 1
    while i < len(words) and words[i] in TRAP_OPTIONS:
        i += 1
    if i < len(words) and words[i] == "--":
        i += 1
    if len(words) - i >= 2 and words[i] not in ("-", ""):
        _script(words[i], certain[i], depth, out)


def _eval(words: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    _script(" ".join(words[1:]), all(certain[1:]), depth, out)


def _shell(words: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    """`bash -c SCRIPT`: the script's commands (a script file or stdin is not on the line)."""
    has_c, i = False, 1
    while i < len(words):
        word = words[i]
        if word in ("--", "-"):
            i += 1
            break
        if word in SHELL_VALUE:
            i += 2
            continue
        if not word.startswith(("-", "+")):
            break
        has_c |= not word.startswith("--") and "c" in word[1:]
        i += 1
    if has_c and i < len(words):
        _script(words[i], certain[i], depth, out)


def _wrapper(name: str, words: Words, certain: Flags, depth: int, out: list[Reading]) -> None:
    spec = WRAPPERS[name]
    i = 1
    while i < len(words) and words[i].startswith("-") and words[i] != "-":
        word = words[i]
        option, eq, value = word.partition("=")
        if word == "--":
            i += 1
            break
        if not certain[i]:
            return _candidates(words, certain, i, depth, out)
        if option in spec.values:
            value = value if eq else (words[i + 1] if i + 1 < len(words) else "")
            if option in spec.scripts:
                _script(value, certain[min(i + (0 if eq else 1), len(words) - 1)], depth, out)
            i += 1 if eq else 2
        elif option in spec.flags or _short_cluster(word, spec) or (name == "nice" and word[1:].lstrip("-").isdigit()):
            i += 1
        else:
            return _candidates(words, certain, i, depth, out)
    while spec.assignments and i < len(words) and "=" in words[i] and not words[i].startswith("="):
        i += 1
    i += spec.positionals
    if i >= len(words):
        return None
    if name in STRING_RUNNERS and not (name == "watch" and ("-x" in words or "--exec" in words)):
        _script(" ".join(words[i:]), all(certain[i:]), depth, out)
    if name == "sudo" and any(w in ("-s", "--shell", "-i", "--login") for w in words[1:i]):
        _script(" ".join(words[i:]), all(certain[i:]), depth, out)
    _nested(words[i:], certain[i:], depth, out)
    return None


def _short_cluster(word: str, spec: Spec) -> bool:
    """`-ik`: every letter a flag; `-uroot`: an option with its value attached."""
    if word.startswith("--") or len(word) < 2:
        return False
    if word[:2] in spec.values:
        return True
    return all(f"-{letter}" in spec.flags for letter in word[1:])


def _candidates(words: Words, certain: Flags, start: int, depth: int, out: list[Reading]) -> None:
    """An option rtk does not know: any later word may be where the command starts."""
    found = 0
    for j in range(start, len(words)):
        if not words[j].startswith("-") and found < MAX_CANDIDATES:
            out.append((derived(words[j:], certain[j:]), True))
            found += 1
    if found == MAX_CANDIDATES:
        out.append((_unknown(), True))


def _script(text: str, certain: bool, depth: int, out: list[Reading]) -> None:
    """A shell string (`trap`, `-c`, `eval`): its commands, each a nested reading."""
    if not certain:
        out.append((_unknown(), True))
        return
    if depth > MAX_DEPTH:
        out.append((_unknown(), True))
        return
    from rtk.agent.segments import of_command
    from rtk.shell.parse import parse

    script = parse(text)
    if script.problems:
        out.append((_unknown(), True))  # substitutions, keywords, heredocs: not attested
    for command in script.commands():
        seg = of_command(command, text, None)
        out.append((seg, True))
        _expand(seg.words[seg.start:], seg.certain[seg.start:], depth + 1, out)
    for inner in script.substitutions:
        _script(inner, True, depth + 1, out)


READERS: dict[str, Callable[[Words, Flags, int, list[Reading]], None]] = {
    "git": _git, "find": _find, "xargs": _xargs, "trap": _trap, "eval": _eval,
    **dict.fromkeys(SHELLS, _shell),
}
