"""Every `[limits]` key a filter reads, its default and where it applies: what `rtk config` shows.

The filters read their limits with `ctx.limit(key, default)` where the value is used; this table
says the same defaults once more for people, and tests/filters/test_limits_catalogue.py checks
that the two never drift apart (a key read but not listed here, or listed with another default,
fails the suite).
"""
from __future__ import annotations

from typing import NamedTuple

from rtk.filters.budget import CLAUDE_CODE_FAILING_LIMIT, CLAUDE_CODE_LIMIT, CODEX_LIMIT


class Limit(NamedTuple):
    default: int
    applies: str


LIMITS: dict[str, Limit] = {
    "claude_code_max_chars": Limit(CLAUDE_CODE_LIMIT, "under Claude Code, all rtk prints for one command "
                                   "(past it Claude shows a ~2 KB preview)"),
    "claude_code_failing_max_chars": Limit(CLAUDE_CODE_FAILING_LIMIT, "under Claude Code, all rtk prints for a "
                                           "failing command (Claude keeps the first and last 5,000 chars)"),
    "codex_max_chars": Limit(CODEX_LIMIT, "under Codex, all rtk prints for one command (Codex cuts ~10 KB)"),
    "content_max_lines": Limit(2000, "cat/head/tail/sed -n: lines printed whole before folding"),
    "content_max_bytes": Limit(100 * 1024, "cat/head/tail/sed -n: bytes printed whole before folding"),
    "content_head_lines": Limit(200, "cat/head/tail/sed -n: lines kept from the start of a folded file"),
    "content_tail_lines": Limit(100, "cat/head/tail/sed -n: lines kept from the end of a folded file"),
    "diff_max_hunk_lines": Limit(150, "diff: changed lines of one hunk before it is cut"),
    "diff_keep_hunk_lines": Limit(100, "diff: changed lines kept of a cut hunk"),
    "diff_max_lines": Limit(4000, "diff: kept lines in all (later hunks are only counted)"),
    "diff_max_files": Limit(2000, "diff -r: files named"),
    "diff_max_notes": Limit(2000, "diff -r: 'Only in' and 'differ' lines kept"),
    "find_max_paths": Limit(1000, "find/fd/rg --files/git ls-files: paths listed (grouped by directory) before the middle is counted"),
    "find_tail_paths": Limit(200, "find/fd/rg --files/git ls-files: paths kept from the end of a long listing"),
    "git_diff_whole_lines": Limit(500, "git diff: a diff this long or shorter prints whole"),
    "git_diff_budget_base": Limit(40, "git diff: changed lines kept per hunk (base)"),
    "git_diff_budget_scale": Limit(2, "git diff: how the per-hunk budget grows with the hunk"),
    "git_log_max_commits": Limit(50, "git log: commits listed"),
    "git_status_max_files": Limit(250, "git status/commit/pull: files counted before the rest is summed"),
    "git_status_show_files": Limit(100, "git status/commit/pull: files named per section"),
    "grep_max_line": Limit(400, "grep/rg: characters kept of one matching line"),
    "grep_max_per_file": Limit(60, "grep/rg: matches kept per file"),
    "grep_tail_per_file": Limit(15, "grep/rg: matches kept from the end of a file's run"),
    "grep_grouped": Limit(0, "grep/rg: 1 groups matches under their file name"),
    "json_max_chars": Limit(4096, "jq/curl: characters of JSON before it becomes a schema"),
    "ls_max_entries": Limit(400, "ls: entries listed per directory"),
    "ls_tail_entries": Limit(60, "ls: entries kept from the end of a long directory"),
    "pytest_e_lines": Limit(40, "pytest: 'E' lines kept per failure"),
    "pytest_captured_lines": Limit(20, "pytest: captured output lines kept per failure"),
    "ruff_diff_budget": Limit(1500, "ruff format --diff: diff lines kept"),
    "tree_max_lines": Limit(500, "tree: lines listed before the middle is counted"),
    "tree_tail_lines": Limit(100, "tree: lines kept from the end"),
}
# set by rtk itself from the host's window (claude_code_max_chars / codex_max_chars), not by users
INTERNAL = frozenset({"output_max_chars"})
