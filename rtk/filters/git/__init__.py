"""git: status, log, diff/show, ls-files and the write commands, each reduced to what an agent acts on.

git runs exactly as typed; the filter parses git's English output (see `filter.py` for which
subcommand goes where) and passes through anything else, errors and conflicts verbatim.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

GIT_OPTS_WITH_VALUE = ("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                       "--config-env", "--exec-path", "--list-cmds")
SUBCOMMANDS = ("status", "log", "diff", "show", "add", "commit", "push", "pull", "fetch", "checkout",
               "switch", "branch", "stash", "merge", "blame", "ls-files")
# Served when run through rtk, but never rewritten by a hook: it may open an editor or a conflict
# session the agent has to see exactly (spec/rewrite.md: `git rebase main` -> exit 1); `revert`
# opens an editor for its message, `cherry-pick` stops on conflicts like a rebase.
NOT_REWRITTEN = ("rebase", "cherry-pick", "revert")

SERVES = Serves(
    "git",
    "git [global options] status|log|diff|show|add|commit|push|pull|fetch|checkout|switch"
    "|branch|stash|merge|blame|ls-files|cherry-pick|revert|rebase",
    (
        Words(("git",), SUBCOMMANDS, options_with_value=GIT_OPTS_WITH_VALUE),
        Words(("git",), NOT_REWRITTEN, options_with_value=GIT_OPTS_WITH_VALUE, rewrite=False),
    ),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.git.filter import create as build

    return build(ctx)
