"""`rtk pipe`: filter stdin as the runner would filter a command's output.

This is how fixtures are replayed and how people try a filter on a saved log. No clocks: the
hold-back decision depends on the content only, so replay is deterministic.

`--cmd "COMMAND LINE"` picks the filter the runner would use for that line after a hook's
rewrite: a hook puts `rtk` after the env assignments and transparent wrappers
(`RUST_BACKTRACE=1 rtk cargo test`, `timeout 60 rtk pytest`), so those are peeled here too, with
the hooks' own wrapper table.
"""
from __future__ import annotations

import os
import shlex
import sys

from rtk import config
from rtk.filters.base import Stream
from rtk.filters.registry import REGISTRY
from rtk.run.pipeline import Writer

READ_SIZE = 256 * 1024


class PipeError(Exception):
    """Bad arguments: one line for the user."""


def pick_filter(filter_name: str | None, command_line: str | None) -> tuple[str, list[str]]:
    if (filter_name is None) == (command_line is None):
        raise PipeError("give exactly one of -f NAME or --cmd \"COMMAND LINE\"")
    if filter_name is not None:
        if filter_name not in REGISTRY and filter_name != "passthrough":
            raise PipeError(f"unknown filter '{filter_name}' (known: {', '.join(REGISTRY)})")
        return filter_name, [filter_name]
    try:
        argv = runner_argv(shlex.split(command_line or ""))
    except ValueError as exc:
        raise PipeError(f"cannot parse --cmd: {exc}") from None
    if not argv:
        raise PipeError("--cmd is empty" if not (command_line or "").strip() else
                        f"--cmd names no command: {command_line!r}")
    from rtk.run.runner import choose_filter

    return choose_filter(argv, None, config.load()), argv


def runner_argv(words: list[str]) -> list[str]:
    """What follows `rtk` once a hook rewrote `words`: env assignments and wrappers peeled."""
    from rtk.agent.rewrite import WRAPPERS
    from rtk.shell.words import is_assignment

    i = 0
    while i < len(words) and is_assignment(words[i]):
        i += 1
    while i < len(words) and (peel := WRAPPERS.get(os.path.basename(words[i]))) is not None:
        after = peel(words, i + 1)
        if after is None:
            break  # used in a way the hooks do not look through: they would not rewrite past it
        i = after
    return words[i:]


def run_pipe(filter_name: str | None, command_line: str | None, exit_code: int) -> None:
    from rtk.filters.budget import failing_limit, host_limit, host_of
    from rtk.run.pipeline import build_pipeline

    name, argv = pick_filter(filter_name, command_line)
    writer = Writer()
    cfg = config.load()
    pipeline = build_pipeline(argv, name, cfg, writer, hold_seconds=None,
                              char_limit=host_limit(os.environ, cfg.limits),
                              failing_limit=failing_limit(os.environ, cfg.limits),
                              maps=host_of(os.environ) == "claude")
    fd = sys.stdin.fileno()
    while chunk := os.read(fd, READ_SIZE):
        pipeline.feed(chunk, Stream.STDOUT)
        if 1 in writer.broken:
            break
    pipeline.finish(exit_code)
