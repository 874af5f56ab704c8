"""Entry point. Dispatches before importing anything heavy.

`rtk hook` and `rtk rewrite` run before every agent command, and `rtk CMD` before every wrapped
one, so they skip click entirely; only the human-facing subcommands (gain, recall, config, init,
pipe, filters) pay for it.
"""
from __future__ import annotations

import os
import sys

CLICK_COMMANDS = frozenset({"gain", "recall", "config", "init", "uninstall", "pipe", "filters",
                            "hook-audit", "discover", "verify", "trust", "untrust", "session", "--help", "-h",
                            "help"})
HELP_FLAGS = frozenset({"-h", "--help"})
USAGE = ("usage: rtk [--no-tty] [--no-progress] [-v] [run [--filter NAME] --|proxy] COMMAND [ARGS...]; "
         "rtk --help for more")
TERMINAL_FLAGS = {"--no-tty": "no_tty", "--no-progress": "no_progress"}
HOT_PATHS = frozenset({"hook", "rewrite"})  # run before every agent command: no teardown


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    code = _main(args)
    if argv is None and args[:1] and (args[0] in HOT_PATHS or args[0] not in CLICK_COMMANDS):
        _exit_now(code)  # hooks, and `rtk CMD`: wrapped around every agent command
    return code


def _main(args: list[str]) -> int:
    try:
        return _dispatch(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: one line, exit 3, never a traceback
        print(f"rtk: internal error: {type(exc).__name__}: {exc} (set RTK_DEBUG=1 for details)",
              file=sys.stderr)
        if os.environ.get("RTK_DEBUG"):
            raise
        return 3


def _exit_now(code: int) -> None:
    """This run is the whole `rtk hook` / `rtk rewrite` / `rtk CMD` process: skip the interpreter's
    teardown (module and GC clean-up, ~2 ms on every agent command). Every file rtk writes is
    closed by then (recall, the tracking job); what cannot be flushed now (the reader went away)
    could not be flushed at exit either: the exit code stays the same."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    bundle = sys.modules.get("rtk.bundle")  # installed by bin/rtk only
    if bundle is not None:
        bundle.refresh()  # after the output: a run that loaded a module the slow way writes it down
    os._exit(code)


def _terminal_flags(args: list[str]) -> tuple[list[str], dict[str, bool]]:
    """`--no-tty` / `--no-progress` in front of the command: how rtk behaves at a terminal."""
    options: dict[str, bool] = {}
    while args and args[0] in TERMINAL_FLAGS:
        options[TERMINAL_FLAGS[args[0]]] = True
        args = args[1:]
    return args, options


def _dispatch(args: list[str]) -> int:
    if "_RTK_COMPLETE" in os.environ:  # click's shell completion (`_RTK_COMPLETE=bash_source rtk`)
        return _click(args)
    args, terminal = _terminal_flags(args)
    args, verbose = _verbosity(args)
    if not args:
        return _usage()
    head = args[0]
    if head in ("-V", "--version", "version"):
        from rtk import __version__

        print(f"rtk {__version__}")
        return 0
    if head in ("hook", "rewrite", "run", "proxy") and _asks_help(head, args[1:]):
        return _click(args)
    if head == "hook":
        if not args[1:]:
            print("rtk: hook needs a host: rtk hook claude|cursor|gemini|codex|copilot|opencode", file=sys.stderr)
            return 2
        from rtk.agent.hooks import main as hook_main

        return hook_main(args[1:], post=_post_filter)
    if head == "rewrite":
        from rtk.cli.rewrite import main as rewrite_main

        return rewrite_main(args[1:])
    if head in ("run", "proxy"):
        return _run_subcommand(head, args[1:], terminal, verbose)
    if head in CLICK_COMMANDS:
        return _click(args)
    if head.startswith("-"):
        print(f"rtk: unknown option {head} (rtk --help lists the options)", file=sys.stderr)
        return 2
    if verbose:
        _say_filter(args, None)
    if (verb := _near_verb(head)) is not None and not _on_path(head):
        print(f"rtk: {head}: command not found (did you mean `rtk {verb}`?)", file=sys.stderr)
        return 127
    from rtk.run.runner import run_command

    return run_command(args, None, **terminal)


VERBS = (*sorted(CLICK_COMMANDS - HELP_FLAGS), "hook", "rewrite", "run", "proxy", "version")


def _near_verb(word: str) -> str | None:
    """The verb of rtk's that `word` is one typo away from (a letter added, dropped, changed, or two
    neighbours swapped: `gian` -> `gain`), else None. Pure string work: no cost on a real command."""
    if len(word) < 3 or not word.isalpha() and "-" not in word:
        return None
    for verb in VERBS:
        if _one_edit(word, verb):
            return verb
    return None


def _one_edit(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                   and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def _on_path(name: str) -> bool:
    from shutil import which

    return os.sep in name or which(name) is not None


def _post_filter(host: str, done: object, argv: list[str]) -> str | None:
    """The post path's filter, loaded only when a host hands rtk a finished command."""
    from rtk.run.post import filter_finished

    return filter_finished(host, done, argv)  # type: ignore[arg-type]


def _click(args: list[str]) -> int:
    from rtk import collect_garbage_again
    from rtk.cli.group import main as cli_main

    collect_garbage_again()  # the verbs for people may read a whole history or output

    return cli_main(args)


def _asks_help(head: str, rest: list[str]) -> bool:
    """`rtk run --help`, `rtk hook -h`: the verb's own help (its options come before the command)."""
    options = rest[:1] if head in ("proxy", "hook") else rest  # proxy and hook take no options
    takes_value = False
    for word in options:
        if word in HELP_FLAGS:
            return True
        if not takes_value and (word == "--" or not word.startswith("-")):
            return False
        takes_value = word in ("-f", "--filter", "--host")  # run's and rewrite's valued options
    return False


def _verbosity(args: list[str]) -> tuple[list[str], int]:
    """`-v` / `-vv` / `--verbose` before the command: say on stderr which filter serves it."""
    level = 0
    while args and (args[0] == "--verbose" or (len(args[0]) > 1 and args[0].strip("v") == "-")):
        level += 1 if args[0] == "--verbose" else len(args[0]) - 1
        args = args[1:]
    return args, level


def _say_filter(args: list[str], forced: str | None) -> None:
    from rtk import config
    from rtk.run.runner import choose_filter

    print(f"rtk: {choose_filter(args, forced, config.load())} filter for {args[0]}", file=sys.stderr)


def _run_subcommand(kind: str, args: list[str], terminal: dict[str, bool], verbose: int = 0) -> int:
    """`rtk run [--filter NAME] -- CMD...` and `rtk proxy CMD...`, parsed without click."""
    from rtk.run.runner import run_command

    if kind == "proxy":
        args, more = _terminal_flags(args)
        return run_command(args, filter_name="passthrough", **terminal, **more) if args else _usage()
    terminal = dict(terminal)
    forced = None
    while args and args[0] != "--":
        if args[0] in TERMINAL_FLAGS:
            terminal[TERMINAL_FLAGS[args[0]]] = True
            args = args[1:]
        elif args[0] in ("--filter", "-f"):
            forced, args = (args[1], args[2:]) if len(args) > 1 and args[1] != "--" else ("", args[1:])
        elif args[0].startswith("--filter="):
            forced, args = args[0].split("=", 1)[1], args[1:]
        else:
            break
    if forced == "":
        print("rtk: run: --filter needs a filter name (`rtk filters` lists them; see rtk run --help)",
              file=sys.stderr)
        return 2
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        return _usage()
    from rtk.filters.registry import REGISTRY

    if forced is not None and forced not in REGISTRY:
        print(f"rtk: unknown filter '{forced}' (known: {', '.join(REGISTRY)})", file=sys.stderr)
        return 2
    if verbose:
        _say_filter(args, forced)
    return run_command(args, filter_name=forced, **terminal)


def _usage() -> int:
    print(f"rtk: {USAGE}", file=sys.stderr)  # one `rtk:` line, like every usage error
    return 2


if __name__ == "__main__":
    sys.exit(main())
