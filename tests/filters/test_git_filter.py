"""Unit tests of the git filter's pieces: dispatch, status, log, diff and write-command parsing."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from rtk.filters.base import FilterContext, Stream
from rtk.filters.find.filter import FindFilter
from rtk.filters.git import create
from rtk.filters.git.caps import CappedList, folder_of
from rtk.filters.git.common import PassFilter
from rtk.filters.git.diff import DiffFilter
from rtk.filters.git.filter import split_argv
from rtk.filters.git.log import LogFilter
from rtk.filters.git.log_lines import short_date
from rtk.filters.git.status import StatusFilter
from rtk.filters.git.write import WriteFilter


def run(command: str, lines: Sequence[str], exit_code: int = 0, recall: bool = True,
        limits: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    """`limits` set a compact budget: the patch's whole-print size is then 1 line (sized.py)."""
    limits = {"git_diff_whole_lines": 1, **limits} if limits else {}
    filt = create(FilterContext(tuple(command.split()), recall, limits))
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    out += [ln.text for ln in filt.finish(exit_code)]
    return filt, out


@pytest.mark.parametrize(("argv", "sub", "rest"), [
    ("git status", "status", []),
    ("git -C /tmp/x -c a=b --no-pager log -n 3", "log", ["-n", "3"]),
    ("git --git-dir /r/.git --work-tree=/r diff HEAD", "diff", ["HEAD"]),
    ("git", "", []),
])
def test_split_argv_steps_over_global_options(argv: str, sub: str, rest: list[str]) -> None:
    assert split_argv(argv.split()) == (sub, rest)


@pytest.mark.parametrize(("argv", "kind"), [
    ("git status", StatusFilter), ("git status -s", PassFilter), ("git status --porcelain=v2", PassFilter),
    ("git log -n 5", LogFilter), ("git log --oneline", PassFilter), ("git log --format=%H", PassFilter),
    ("git log --pretty=medium", LogFilter), ("git log --graph", LogFilter), ("git log -p", LogFilter),
    ("git show HEAD", LogFilter), ("git show HEAD:setup.py", PassFilter), ("git show --stat", LogFilter),
    ("git log --graph --oneline", PassFilter), ("git log --name-status", LogFilter),
    ("git stash show -p stash@{1}", DiffFilter), ("git stash show --stat", WriteFilter),
    ("git diff", DiffFilter), ("git diff --stat", PassFilter), ("git diff --name-only", PassFilter),
    ("git -C repo push origin main", WriteFilter), ("git branch -a", PassFilter),
    ("git ls-files", FindFilter), ("git ls-files -s", PassFilter), ("git ls-files --format=%(path)", PassFilter),
])
def test_dispatch_by_subcommand_and_format(argv: str, kind: type) -> None:
    filt = create(FilterContext(tuple(argv.split())))
    assert isinstance(getattr(filt, "inner", filt), kind)  # a patch's filter is sized (sized.py)


STATUS = [
    "On branch main",
    "Your branch is ahead of 'origin/main' by 2 commits.",
    '  (use "git push" to publish your local commits)',
    "",
    "Changes to be committed:",
    '  (use "git restore --staged <file>..." to unstage)',
    "\trenamed:    old.py -> new.py",
    "\tnew file:   a.py",
    "",
    "Changes not staged for commit:",
    "\tmodified:   b.py",
    "",
    "Untracked files:",
    "\ttmp/",
    "",
]


def test_status_groups_files_and_drops_hints() -> None:
    filt, out = run("git status", STATUS)
    assert out == ["branch main, ahead of origin/main by 2", "staged:", "R old.py -> new.py", "A a.py",
                   "unstaged:", "M b.py", "untracked:", "tmp/"]
    assert not filt.elided


def test_status_clean_is_one_line() -> None:
    _, out = run("git status", ["On branch main", "Your branch is up to date with 'origin/main'.", "",
                                "nothing to commit, working tree clean"])
    assert out == ["clean (branch main, up to date with origin/main)"]


def test_status_streams_each_file_as_it_arrives() -> None:
    filt = create(FilterContext(("git", "status")))
    for line in STATUS[:5]:
        filt.feed(line, Stream.STDOUT)
    assert [ln.text for ln in filt.feed("\tnew file:   a.py", Stream.STDOUT)] == ["A a.py"]


def test_status_caps_a_long_group_with_folder_counts() -> None:
    files = [f"\tgen/f{i}.py" for i in range(270)] + ["\tdocs/x.md"]
    filt, out = run("git status", ["On branch main", "Untracked files:", *files])
    assert out[2:102] == [f"gen/f{i}.py" for i in range(100)]
    assert out[102] == "... 171 more files (gen/: 170, docs/: 1)"
    assert filt.elided


def test_status_keeps_every_file_when_recall_is_off() -> None:
    files = [f"\tgen/f{i}.py" for i in range(300)]
    filt, out = run("git status", ["On branch main", "Untracked files:", *files], recall=False)
    assert len(out) == 302 and not filt.elided


def test_status_in_another_language_passes_through() -> None:
    french = ["Sur la branche main", "Modifications qui ne seront pas validées :",
              '  (utilisez "git add <fichier>..." pour mettre à jour)', "\tmodifié :         a.py"]
    _, out = run("git status", french)
    assert out == french


def test_status_error_is_verbatim_and_recognised() -> None:
    filt, out = run("git status", ["fatal: not a git repository (or any of the parent directories): .git"], 128)
    assert out == ["fatal: not a git repository (or any of the parent directories): .git"]
    assert filt.failure_seen


def test_capped_list_prints_held_entries_when_under_the_cap() -> None:
    capped = CappedList(2, 4)
    printed = [t for i in range(4) for t in capped.add(f"f{i}", f"f{i}")]
    assert printed == ["f0", "f1"] and capped.close() == ["f2", "f3"]
    assert folder_of("a/b/c.py") == "a/b/" and folder_of("x.py") == "./"


def commit(sha: str, subject: str, body: Sequence[str] = (), merge: bool = False) -> list[str]:
    head = [f"commit {sha}"] + (["Merge: 1111111 2222222"] if merge else [])
    return [*head, "Author: Ada Lovelace <ada@example.com>", "Date:   Thu Aug 20 09:12:10 2026 -0700", "",
            f"    {subject}", *(["    ", *(f"    {b}" for b in body)] if body else []), ""]


def test_log_one_line_per_commit_keeps_trailers_only() -> None:
    lines = commit("a" * 40, "Fix the parser", ["Long explanation.", "Fixes #12"]) + \
        commit("b" * 40, "Merge pull request #3", merge=True)
    filt, out = run("git log", lines)
    assert out == ["2026-08-20:", "aaaaaaa Ada Lovelace: Fix the parser", "    Fixes #12",
                   "bbbbbbb Ada Lovelace (merge): Merge pull request #3"]
    assert filt.elided


def test_log_says_each_day_once_above_its_commits_and_show_keeps_the_date_inline() -> None:
    lines = commit("a" * 40, "one") + commit("b" * 40, "two") + \
        [ln.replace("Aug 20", "Aug 19") for ln in commit("c" * 40, "three")]
    _, out = run("git log", lines)
    assert out == ["2026-08-20:", "aaaaaaa Ada Lovelace: one", "bbbbbbb Ada Lovelace: two",
                   "2026-08-19:", "ccccccc Ada Lovelace: three"]
    _, shown = run("git show", commit("a" * 40, "one"))
    assert shown == ["aaaaaaa 2026-08-20 Ada Lovelace: one"]


def test_log_caps_commits() -> None:
    lines = [ln for i in range(5) for ln in commit(f"{i:040x}", f"subject {i}")]
    filt, out = run("git log", lines, limits={"git_log_max_commits": 3})
    assert out[-1] == "... 2 more commits" and len(out) == 5 and filt.elided


@pytest.mark.parametrize(("date", "short"), [
    ("Thu Aug 20 09:12:10 2026 -0700", "2026-08-20"), ("Mon Jan 5 01:02:03 2015 +0100", "2015-01-05"),
    ("2026-08-20 09:12:10 -0700", "2026-08-20"), ("3 days ago", "3 days ago"),
])
def test_short_date(date: str, short: str) -> None:
    assert short_date(date) == short


DIFF = [
    "diff --git a/src/a.py b/src/a.py", "index 1111111..2222222 100644", "--- a/src/a.py", "+++ b/src/a.py",
    "@@ -1,9 +1,9 @@ def f():", " one", " two", " three", "-four", "+FOUR", " five", " six", " seven",
    "diff --git a/img.png b/img.png", "new file mode 100644", "index 0000000..3333333",
    "Binary files /dev/null and b/img.png differ",
]


def test_diff_names_files_with_counts_and_trims_context() -> None:
    filt, out = run("git diff", DIFF)
    assert out == ["src/a.py (+1 -1)", "@@ -1,9 +1,9 @@ def f():", " three", "-four", "+FOUR", " five",
                   "img.png (new, binary)"]
    assert filt.elided  # context lines left out: the recall hint says where they are (issue 34)


def test_diff_asked_for_context_keeps_every_context_line() -> None:
    filt, out = run("git diff -U3", DIFF)
    assert out[:9] == ["src/a.py (+1 -1)", "@@ -1,9 +1,9 @@ def f():", " one", " two", " three", "-four", "+FOUR",
                       " five", " six"] and not filt.elided


def test_a_medium_diff_prints_every_changed_line() -> None:
    """Issue 33: 400 changed lines in 20 files, runs of 20 added lines among them, print whole."""
    lines = []
    for n in range(20):
        lines += [f"diff --git a/f{n}.py b/f{n}.py", f"--- a/f{n}.py", f"+++ b/f{n}.py", "@@ -1,5 +1,25 @@"]
        lines += [" ctx", *(f"+add {n} {i}" for i in range(20)), " ctx"]
    _, out = run("git diff", lines)
    assert [text for text in out if text[:1] == "+"] == [text for text in lines if text[:1] == "+" and text[:3] != "+++"]
    assert not any(text.startswith("[folded") for text in out)


def test_diff_folds_a_long_run_of_additions_to_its_first_and_last_lines() -> None:
    hunk = ["diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -0,0 +1,20 @@", *(f"+line {i}" for i in range(20))]
    filt, out = run("git diff HEAD~1", hunk, limits={"git_diff_budget_base": 4})
    assert out[:7] == ["x (+20)", "@@ -0,0 +1,20 @@", "+line 0", "+line 1", "+line 2", "+line 3",
                       "... 14 more added lines"]
    assert out[7:9] == ["+line 18", "+line 19"]
    assert out[-1] == "[folded: `git diff HEAD~1 -- PATH` shows one file whole]" and filt.elided


def test_diff_budget_grows_slowly_and_every_file_and_hunk_stays_named() -> None:
    lines = []
    for n in range(60):  # 60 files, each one hunk of 10 alternating changes (no pure runs)
        lines += [f"diff --git a/f{n}.py b/f{n}.py", f"--- a/f{n}.py", f"+++ b/f{n}.py", f"@@ -1,5 +1,5 @@ def f{n}():"]
        lines += [f"{'-+'[i % 2]}v{n}_{i}" for i in range(10)]
    filt, out = run("git diff", lines, limits={"git_diff_budget_base": 20, "git_diff_budget_scale": 2})
    changed = [text for text in out if text[:1] in "+-"]
    assert 20 < len(changed) <= 20 + 2 * 600 ** 0.5 + 1
    assert all(any(text.startswith(f"f{n}.py (+5 -5") for text in out) for n in range(60))
    for n in range(60):  # each hunk keeps its header, or is one line saying where it starts
        at = next(i for i, text in enumerate(out) if text.startswith(f"f{n}.py (+5 -5"))
        assert out[at] == f"f{n}.py (+5 -5, not shown at line 1: def f{n}():)" or \
            out[at + 1] == f"@@ -1,5 +1,5 @@ def f{n}():"
    assert "f59.py (+5 -5, not shown at line 1: def f59():)" in out and filt.elided


def test_diff_without_recall_keeps_every_line() -> None:
    hunk = ["diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -0,0 +1,20 @@", *(f"+line {i}" for i in range(20))]
    filt, out = run("git diff", hunk, recall=False)
    assert out[2:] == [f"+line {i}" for i in range(20)] and not filt.elided


def test_diff_rename_header() -> None:
    _, out = run("git diff", ["diff --git a/old.py b/new.py", "similarity index 100%",
                              "rename from old.py", "rename to new.py"])
    assert out == ["old.py -> new.py (renamed 100%)"]


def test_log_patch_goes_through_the_diff_parser() -> None:
    lines = commit("c" * 40, "Change a") + DIFF[:13]
    _, out = run("git log -p", lines)
    assert out[:3] == ["2026-08-20:", "ccccccc Ada Lovelace: Change a", "src/a.py (+1 -1)"]


def test_commit_is_one_ok_line_with_created_files() -> None:
    filt, out = run("git commit -m x", ["[main 1a2b3c4] Add things", " 2 files changed, 20 insertions(+), 4 deletions(-)",
                                        " create mode 100644 src/new.py"])
    assert out == ["ok commit [main 1a2b3c4] Add things (2 files, +20 -4)", "create src/new.py"]
    assert not filt.failure_seen


def test_push_names_the_remote_branch() -> None:
    _, out = run("git push origin main", ["To /srv/origin.git", "   1a2b3c4..5d6e7f8  main -> main"])
    assert out == ["ok push main -> origin/main (1a2b3c4..5d6e7f8)"]


def test_push_rejection_is_verbatim_and_recognised() -> None:
    raw = [" ! [rejected]        main -> main (fetch first)", "error: failed to push some refs to 'x'",
           "hint: Updates were rejected because the remote contains work that you do"]
    filt, out = run("git push origin main", ["To x", *raw], 1)
    assert out == raw and filt.failure_seen


def test_failed_commit_prints_status_verbatim() -> None:
    raw = ["On branch main", "", "nothing to commit, working tree clean"]
    filt, out = run("git commit -m x", raw, 1)
    assert out == raw and filt.failure_seen


def test_checkout_drops_detached_head_advice() -> None:
    raw = ["Note: switching to 'HEAD~1'.", "", "You are in 'detached HEAD' state. You can look around, make",
           "  git switch -", "Turn off this advice by setting config variable advice.detachedHead to false",
           "", "HEAD is now at 1a2b3c4 Subject"]
    _, out = run("git checkout HEAD~1", raw)
    assert out == ["ok HEAD is now at 1a2b3c4 Subject"]


def test_log_keeps_unknown_header_lines_after_the_commit_line() -> None:
    lines = ["commit " + "d" * 40, "Reflog: HEAD@{0} (Ada <ada@example.com>)", "Author: Ada <ada@example.com>",
             "Date:   Thu Aug 20 09:12:10 2026 -0700", "", "    Subject", ""]
    _, out = run("git log -g", lines)
    assert out == ["2026-08-20:", "ddddddd Ada: Subject", "Reflog: HEAD@{0} (Ada <ada@example.com>)"]


def test_a_stopped_rebase_says_where_it_stopped() -> None:
    filt, out = run("git rebase main", ["Rebasing (1/7)", "Rebasing (4/7)", "Auto-merging src/click/decorators.py",
                                        "CONFLICT (content): Merge conflict in src/click/decorators.py",
                                        "error: could not apply f14aa670... feature change 3"], exit_code=1)
    assert out == ["Auto-merging src/click/decorators.py", "Rebasing (4/7)",
                   "CONFLICT (content): Merge conflict in src/click/decorators.py",
                   "error: could not apply f14aa670... feature change 3"]
    assert filt.failure_seen


def test_a_rebase_that_ends_well_does_not_print_its_progress() -> None:
    _, out = run("git rebase main", ["Rebasing (1/2)", "Rebasing (2/2)",
                                     "Successfully rebased and updated refs/heads/feature."])
    assert out == ["ok rebased refs/heads/feature"]


@pytest.mark.parametrize(("argv", "hint"), [
    (("git", "diff", "8.2.0", "8.2.1"), "[folded: `git diff 8.2.0 8.2.1 -- PATH` shows one file whole]"),
    (("git", "diff", "HEAD", "--", "src/"), "[folded: `git diff HEAD -- PATH` shows one file whole]"),
    (("git", "log", "-p", "-20"), "[folded: `git log -p -20 -- PATH` shows one file whole]"),
])
def test_the_fold_hint_names_the_command_as_typed_limited_to_one_path(argv: tuple[str, ...], hint: str) -> None:
    from rtk.filters.git.diff import one_file_hint

    assert one_file_hint(argv) == hint
