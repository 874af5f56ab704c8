"""The git filter: one family filter per subcommand, chosen from the argv as typed.

git runs exactly as typed (one process, no injected flags); the filter parses git's English
output. `status` -> status.py, `log` and `show` -> log.py (patches through diff.py), `diff` ->
diff.py, `blame` -> blame.py, `ls-files` -> find's path list, the write commands -> write.py. Output formats that are already compact or that we do
not parse (`-s`, `--porcelain`, `--oneline`, `--format`, `--stat`, `--name-only`, `--graph`,
`--word-diff`, ...) and `git branch` listings (`diff --stat` drops its column padding, stat.py; `log --stat`/`--name-status` and `--graph` go to
log.py, which keeps the lists and the graph as printed) pass through unchanged; so does anything that does
not look like git's English output. Errors and conflicts are always printed verbatim.
"""
from __future__ import annotations

from rtk.filters.git.common import PassFilter, has_flag

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from rtk.filters.base import Filter, FilterContext

OPTS_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace",
                             "--super-prefix", "--config-env", "--exec-path", "--list-cmds"})
STATUS_RAW = ("-s", "--short", "--porcelain", "-z", "--null", "-v", "--verbose", "--column")
PATCH_RAW = ("--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--raw",
             "--summary", "--dirstat", "--compact-summary", "--check", "-z", "--word-diff",
             "--word-diff-regex", "--color-words", "--binary", "--patch-with-stat",
             "--patch-with-raw", "--output", "--ext-diff")
# `log`/`show` print these between commits (a diffstat, a list of names): the log filter keeps
# them as git printed them and still shortens each commit's header.
LOG_LISTS = frozenset(("--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--raw",
                       "--summary", "--dirstat", "--compact-summary", "--patch-with-stat"))
LOG_RAW = tuple(f for f in PATCH_RAW if f not in LOG_LISTS) + (
                       "--oneline", "--format", "--left-right", "--cherry-mark",
                       "--children", "--parents", "--pretty=oneline", "--pretty=short",
                       "--pretty=full", "--pretty=fuller", "--pretty=email", "--pretty=raw",
                       "--pretty=reference", "--pretty=format", "--pretty=tformat")
STAT_LISTS = ("--stat", "--compact-summary", "--patch-with-stat")  # diffstat lines: their padding goes
BLAME_RAW = ("--porcelain", "-p", "--line-porcelain", "--incremental", "-s", "-e", "--show-email",
             "-t", "-c", "--date", "--color-lines", "--color-by-age")
# `ls-files` options that print more than a path per line (stage, tags, line endings, a format)
LS_FILES_RAW = ("-s", "--stage", "-u", "--unmerged", "-z", "-t", "-v", "-f", "--debug", "--eol",
                "--format", "-k", "--killed", "--resolve-undo")
WRITE = frozenset(["add", "commit", "push", "pull", "fetch", "checkout", "switch", "stash", "merge", "rebase",
                   "cherry-pick", "revert"])


def split_argv(argv: Sequence[str]) -> tuple[str, list[str]]:
    """git's subcommand and the words after it, stepping over global options."""
    i = 1
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "-":
        i += 2 if argv[i] in OPTS_WITH_VALUE else 1
    if i >= len(argv):
        return "", []
    return argv[i], list(argv[i + 1:])


def _pretty_raw(args: Sequence[str]) -> bool:
    """`--pretty=X`/`--format=X` other than medium, or a bare `--pretty` format string."""
    for arg in args:
        if arg == "--":
            break
        if arg.startswith(("--pretty=", "--format=")) and arg.split("=", 1)[1] != "medium":
            return True
    return has_flag(args, LOG_RAW)


def _stash_patch(sub: str, args: Sequence[str]) -> bool:
    """`git stash show -p [stash@{n}]` prints a patch: the diff filter reads it."""
    return sub == "stash" and args[:1] == ["show"] and has_flag(args, ("-p", "--patch"))


def _shows_blob(args: Sequence[str]) -> bool:
    """`git show HEAD:path` prints a file, not a commit."""
    return any(":" in a and not a.startswith("-") for a in args)


def create(ctx: FilterContext) -> Filter:
    """Only the chosen subcommand's module is imported: the run waits for it after git exits."""
    sub, args = split_argv(ctx.argv)
    if sub == "status" and not has_flag(args, STATUS_RAW):
        from rtk.filters.git import status

        return status.create(ctx)
    if (sub == "diff" or _stash_patch(sub, args)) and not has_flag(args, PATCH_RAW):
        from rtk.filters.git import diff

        return diff.create(ctx)
    if sub == "diff" and has_flag(args, STAT_LISTS):
        from rtk.filters.git.stat import StatFilter

        return StatFilter(ctx)
    if sub in ("log", "show") and not _pretty_raw(args) and not (sub == "show" and _shows_blob(args)):
        from rtk.filters.git import log

        return log.create(ctx, by_day=sub == "log")
    if sub == "blame" and not has_flag(args, BLAME_RAW):
        from rtk.filters.git import blame

        return blame.create(ctx)
    if sub == "ls-files" and not has_flag(args, LS_FILES_RAW):
        from rtk.filters.find.filter import FindFilter

        return FindFilter(ctx, errors=("fatal: ", "error: ", "warning: "))  # grouped by directory
    if sub in WRITE:
        from rtk.filters.git.write import WriteFilter

        return WriteFilter(ctx, sub, args)
    return PassFilter(ctx)
