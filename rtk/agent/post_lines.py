"""Which command lines take the post path: the host ran the line, and what it printed is the
output of exactly one command rtk routes, so that command's filter can replace it.

A line qualifies when the rewrite engine would put `rtk` in front of exactly one simple command
and nothing else on the line prints (`cd x && git status` qualifies, `git status && git log -1`
does not: their merged output is not one tool's). Pipes, redirects and substitutions are left as
they are (the host's output is then not the routed command's own). The READERS scope is the
commands that only read (git status/diff/log/show/..., ls, tree, find, grep/rg, cat/head/tail/
`sed -n`, wc, diff, jq/curl, ps): a host may run them without asking, and Claude Code's post hook
fires only for successful commands, which is all a reader's output needs. Runners (tests,
builds, linters, package managers) keep the rewrite there, since their failing output could not
be replaced after the fact. This is rtk's own split of its filters by what they do, not a copy of
any host's permission rules. Standard library only (the hook path).
"""
from __future__ import annotations

import os

from rtk.agent.hosts.base import EVERY, READERS
from rtk.filters.registry import classify
from rtk.shell import parse as shell

READER_FILTERS = frozenset({"ls", "tree", "find", "grep", "content", "wc", "diff", "json", "ps"})
GIT_READS = frozenset({"status", "diff", "log", "show", "branch", "blame", "stash", "tag", "remote",
                       "shortlog", "reflog", "describe", "rev-parse", "ls-files", "ls-tree", "grep",
                       "cat-file", "whatchanged", "range-diff", "count-objects", "worktree", "rev-list"})
GIT_WRITING_FORMS = {"stash": frozenset({"list", "show"}), "worktree": frozenset({"list"}),
                     "remote": frozenset({"-v", "--verbose", "show", "get-url"})}
GIT_VALUE_OPTIONS = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                               "--config-env", "--super-prefix"})
QUIET = frozenset({"cd", "export", "set", "unset", "true", ":"})  # print nothing beside the command


def routed_argv(command: str, scope: str | None) -> list[str] | None:
    """The argv of the one command whose output the host captured, when the line takes the post
    path for a host of `scope` (READERS or EVERY); None leaves the output as it is."""
    if scope not in (READERS, EVERY):
        return None
    from rtk.agent.rewrite import analyze

    found = analyze(command)
    if found.problems or found.disabled or len(found.insertions) != 1 or found.rtk_seen:
        return None
    script = shell.parse(command)
    if script.substitutions or any(len(p.stages) != 1 for p in script.pipelines):
        return None
    loud = [list(seg.argv) for seg in found.segments
            if seg.argv and os.path.basename(seg.argv[0]) not in QUIET]
    if len(loud) != 1:
        return None
    argv = loud[0]
    return argv if scope == EVERY or reads(argv) else None


def reads(argv: list[str]) -> bool:
    """The command only reads: a reader filter serves it, and for git a reading subcommand."""
    match = classify(argv)
    if match is None:
        return False
    if match.filter == "git":
        return _git_reads(argv)
    return match.filter in READER_FILTERS


def _git_reads(argv: list[str]) -> bool:
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in GIT_VALUE_OPTIONS else 1
    if i >= len(argv) or argv[i] not in GIT_READS:
        return False
    forms = GIT_WRITING_FORMS.get(argv[i])
    if forms is None:
        return argv[i] != "branch" or _lists_branches(argv[i + 1:])
    rest = argv[i + 1:]
    return (not rest and argv[i] != "stash") or (bool(rest) and rest[0] in forms)


def _lists_branches(args: list[str]) -> bool:
    """`git branch`, `-a`, `-vv`, `--list x`: lists; a bare name or -d/-m/-c/-D/-M changes branches."""
    listing = {"-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--list", "-l",
               "--merged", "--no-merged", "--contains", "--no-contains", "--show-current"}
    return all(arg in listing or arg.startswith(("--sort=", "--format=", "--color")) for arg in args[:1]) \
        and not any(arg in ("-d", "-D", "-m", "-M", "-c", "-C", "--delete", "--move", "--copy") for arg in args)
