"""git beyond the default forms: log --graph, --stat/--name-status lists, -n counts; diff budget folds, long lines; blame; a stopped rebase -i."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from rtk.filters.base import FilterContext, Stream
from rtk.filters.git import create
from rtk.filters.git.diff import LOCATOR_BASE
from rtk.filters.git.graph import Graph, asked_count
from rtk.filters.git.stat import compact_stat
from tests.filters.line_replay import raw_lines


def run(command: str, lines: Sequence[str], limits: dict[str, int] | None = None) -> tuple[object, list[str]]:
    """`limits` set a compact budget: the patch's whole-print size is then 1 line (sized.py)."""
    limits = {"git_diff_whole_lines": 1, **limits} if limits else {}
    filt = create(FilterContext(tuple(command.split()), True, limits))
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    return filt, out + [ln.text for ln in filt.finish(0)]


def commit(sha: str, subject: str, graph: str = "", rest: str = "", fork: str = "") -> list[str]:
    cont = graph.replace("*", "|")
    return [f"{graph}commit {sha * 40}", f"{fork or cont}Author: A U Thor <a@example.com>",
            f"{cont}Date:   Mon Aug 3 11:52:44 2026 -0600", cont.rstrip(), f"{cont}    {subject}",
            *([f"{cont}{rest}"] if rest else []), cont.rstrip()]


@pytest.mark.parametrize(("argv", "count"), [
    ("git log -n 200", 200), ("git log -n5", 5), ("git log -30", 30), ("git log --max-count=7", 7),
    ("git log --max-count 9", 9), ("git log", 0), ("git log -- -5", 0), ("git log -p", 0),
])
def test_asked_count_reads_every_spelling(argv: str, count: int) -> None:
    assert asked_count(argv.split()) == count


def test_a_log_asked_for_more_than_the_cap_prints_every_commit() -> None:
    lines = [line for n in range(8) for line in commit(f"{n}", f"subject {n}")]
    _, capped = run("git log", lines, limits={"git_log_max_commits": 3})
    _, asked = run("git log -n 8", lines, limits={"git_log_max_commits": 3})
    assert capped[-1] == "... 5 more commits"
    assert [text.split(": ", 1)[1] for text in asked[1:]] == [f"subject {n}" for n in range(8)]


def test_graph_columns_are_kept_on_the_commit_line_and_forks_stay() -> None:
    lines = [*commit("a", "tip", graph="* "), *commit("b", "side", graph="| * ", fork="|/  "),
             *commit("c", "base", graph="* ")]
    _, out = run("git log --graph", lines)
    assert out == ["* aaaaaaa 2026-08-03 A U Thor: tip", "| * bbbbbbb 2026-08-03 A U Thor: side", "|/",
                   "* ccccccc 2026-08-03 A U Thor: base"]


def test_graph_splits_only_graph_columns() -> None:
    graph = Graph()
    assert graph.split("| * commit abc") == ("commit abc", [])
    assert graph.split("|/  Author: x") == ("Author: x", ["|/"])
    assert graph.split("|       body") == ("    body", [])
    assert graph.split("not graph") == ("not graph", [])


def test_log_stat_keeps_the_lists_and_shortens_the_header() -> None:
    lines = [*commit("d", "docs", rest="")[:-1], "---", " docs/a.md | 2 +-", " 1 file changed, 1 insertion(+), 1 deletion(-)",
             "", *commit("e", "names"), "M\tsrc/a.py", "R100\told.py\tnew.py"]
    _, out = run("git log --stat", lines)
    assert out == ["2026-08-03:", "ddddddd A U Thor: docs", "docs/a.md | 2 +-",
                   " 1 file changed, 1 insertion(+), 1 deletion(-)", "eeeeeee A U Thor: names",
                   "M\tsrc/a.py", "R100\told.py\tnew.py"]


def test_an_interactive_rebase_stopped_at_an_edit_says_its_step() -> None:
    _, out = run("git rebase -i HEAD~5", ["Rebasing (3/5)", "Stopped at 74d5dfe9...  Drop node 20",
                                          "You can amend the commit now, with"])
    assert out == ["Rebasing (3/5)", "Stopped at 74d5dfe9...  Drop node 20", "You can amend the commit now, with"]


def test_hunks_past_the_budget_are_one_line_of_where_they_start() -> None:
    lines = ["diff --git a/big.py b/big.py", "--- a/big.py", "+++ b/big.py", "@@ -1,50 +1,50 @@ def big():"]
    lines += [f"{'-+'[i % 2]}line {i}" for i in range(100)]  # alternating: nothing to fold, the budget runs out
    for n in range(1, 6):
        lines += [f"@@ -{n * 100 + 1},3 +{n * 100 + 1},3 @@ def f{n}():", f"-old {n}", f"+new {n}"]
    _, out = run("git diff", lines, limits={"git_diff_budget_base": 4, "git_diff_budget_scale": 1})
    assert out[0].startswith("big.py (+55 -55, ") and out[1] == "@@ -1,50 +1,50 @@ def big():"
    folded = [text for text in out if text.startswith("... ") and "hunks not shown (at lines" in text]
    assert len(folded) == 1 and "101: def f1():; 201: def f2():; 301: def f3():; 401: def f4():; 501)" in folded[0]
    for start in range(101, 502, 100):  # every hunk is located: its header, or the folded line
        assert any(text.startswith(f"@@ -{start},") for text in out) or f" {start}" in folded[0]


def test_a_repeated_fork_column_prints_once() -> None:
    lines = ["| * commit " + "b" * 40, "|/  Author: A <a@b>", "|/  Date:   Mon Aug 3 11:52:44 2026 -0600", "|/",
             "|/      side", "|/"]
    _, out = run("git log --graph", lines)
    assert out == ["| * bbbbbbb 2026-08-03 A: side", "|/"]


def test_a_deleted_file_is_its_line_alone() -> None:
    lines = ["diff --git a/old.py b/old.py", "deleted file mode 100644", "index 1234567..0000000",
             "--- a/old.py", "+++ /dev/null", "@@ -1,30 +0,0 @@", *(f"-line {i}" for i in range(30))]
    filt, out = run("git diff", lines)
    assert out[0] == "old.py (deleted, -30)" and not any(text.startswith(("@@", "-", "... ")) for text in out)
    assert filt.elided


def test_a_run_past_the_budget_folds_into_the_file_count_without_a_marker() -> None:
    lines = ["diff --git a/a.py b/a.py", "--- a/a.py", "+++ b/a.py", "@@ -1,50 +1,50 @@",
             *(f"{'-+'[i % 2]}x {i}" for i in range(100)),
             "diff --git a/gen.py b/gen.py", "--- a/gen.py", "+++ b/gen.py", "@@ -0,0 +1,40 @@",
             *(f"+gen {i}" for i in range(40))]
    _, out = run("git diff", lines, limits={"git_diff_budget_base": 4, "git_diff_budget_scale": 1})
    at = out.index("gen.py (+40, not shown)")  # nothing of it printed: its one line says so
    assert out[at + 1:] == ["[folded: `git diff -- PATH` shows one file whole]"]


def test_a_very_long_changed_line_keeps_its_start() -> None:
    long = "var a=" + "x" * 5000
    lines = ["diff --git a/b.min.js b/b.min.js", "--- a/b.min.js", "+++ b/b.min.js", "@@ -1 +1 @@", f"-{long}", f"+{long}y"]
    filt, out = run("git diff", lines)
    assert out[2] == f"-{long[:239]} ... [4,767 more characters]"
    assert out[3].endswith(" ... [4,768 more characters]") and filt.elided


def test_blame_names_each_commit_once_per_run_and_keeps_every_line() -> None:
    lines = ["95ad276ca (Douglas Christopher Wilson 2015-06-18 23:00:20 -0400  1) /*!",
             "95ad276ca (Douglas Christopher Wilson 2015-06-18 23:00:20 -0400  2)  * express",
             "^7b5ed507 lib/old.js (Tj Holowaychuk 2011-10-07 13:13:32 -0700 3) exports.x = (a) => a;",
             "95ad276ca (Douglas Christopher Wilson 2015-06-18 23:00:20 -0400  4) ",
             "fatal: file lib/x.js has only 4 lines"]
    filt, out = run("git blame -L 1,5 lib/express.js", lines)
    assert out == ["95ad276ca Douglas Christopher Wilson 2015-06-18", "1) /*!", "2)  * express",
                   "^7b5ed507 lib/old.js Tj Holowaychuk 2011-10-07", "3) exports.x = (a) => a;",
                   "95ad276ca Douglas Christopher Wilson 2015-06-18", "4) ", "fatal: file lib/x.js has only 4 lines"]
    assert filt.failure_seen


def test_blame_porcelain_passes_through() -> None:
    from rtk.filters.git.common import PassFilter

    assert isinstance(create(FilterContext(("git", "blame", "--porcelain", "x"))), PassFilter)


def test_a_rebase_step_erased_before_the_stop_message_is_still_said() -> None:
    from tests.filters.fixture_cases import replay

    raw = b"Rebasing (3/5)\r\r" + b" " * 80 + b"\rStopped at 74d5dfe9...  Drop node 20\nYou can amend the commit now, with\n"
    printed = replay("git rebase -i HEAD~5", raw, 0)
    assert printed.splitlines()[:2] == ["Rebasing (3/5)", "Stopped at 74d5dfe9...  Drop node 20"]


def test_a_signed_tags_signature_is_one_line() -> None:
    lines = ["tag v1", "Tagger: A <a@b>", "Date:   Tue May 13 07:53:02 2025 -0700", "", "release v1",
             "-----BEGIN PGP SIGNATURE-----", "", "iQIzBAABCAAd", "=jMzL", "-----END PGP SIGNATURE-----",
             *commit("f", "release v1")]
    filt, out = run("git show v1", lines)
    assert out == ["tag v1", "Tagger: A <a@b>", "Date:   Tue May 13 07:53:02 2025 -0700", "release v1",
                   "[pgp signature: 5 lines not shown]", "fffffff 2026-08-03 A U Thor: release v1"]
    assert filt.elided


def test_hunk_locators_stay_within_a_budget_of_their_own() -> None:
    lines = []
    for n in range(150):  # 150 files of 5 hunks each: 750 hunks, far past both budgets
        lines += [f"diff --git a/f{n}.py b/f{n}.py", f"--- a/f{n}.py", f"+++ b/f{n}.py"]
        for h in range(5):
            lines += [f"@@ -{h * 50 + 1},3 +{h * 50 + 1},3 @@ def g{h}():", f"-old {n} {h}", f"+new {n} {h}"]
    _, out = run("git diff", lines)
    located = [text.split(" at line", 1)[1] for text in out if "hunks not shown at line" in text]
    listed = sum(text.count(",") + 1 for text in located)
    assert listed <= LOCATOR_BASE + 2 * 750 ** 0.5 + 6 + 5  # the budget, a resumed run, one line's last entry
    assert out[-2] == "f149.py (+5 -5, 5 hunks not shown)"
    assert all(f"f{n}.py (+5 -5" in "\n".join(out) for n in range(150))


def test_a_lockfile_prints_a_few_lines_says_it_is_generated_and_leaves_the_budget_alone() -> None:
    lock = ["diff --git a/web/package-lock.json b/web/package-lock.json", "--- a/web/package-lock.json",
            "+++ b/web/package-lock.json"]
    for h in range(30):
        lock += [f"@@ -{h * 40 + 1},4 +{h * 40 + 1},4 @@", f'-  "version": "1.{h}.0",', f'+  "version": "1.{h}.1",']
    src = ["diff --git a/src/a.py b/src/a.py", "--- a/src/a.py", "+++ b/src/a.py", "@@ -1,2 +1,2 @@",
           "-old", "+new"]
    filt, out = run("git diff", lock + src)
    assert out[0] == "web/package-lock.json (generated, +30 -30, 54 not shown)"
    assert sum(text[:1] in "+-" for text in out[:out.index("src/a.py (+1 -1)")]) == 6
    assert "... 27 hunks not shown" in out  # no start lines: the hint shows the file whole
    assert out[-4:-1] == ["@@ -1,2 +1,2 @@", "-old", "+new"] and filt.elided


@pytest.mark.parametrize(("line", "compact"), [
    (" src/click/utils.py    |  2 +-", "src/click/utils.py | 2 +-"),
    (" src/click/globals.py  |  0", "src/click/globals.py | 0"),
    (" .../src/transforms/transformExpression.ts    | 12 ++++++------", ".../src/transforms/transformExpression.ts | 12 ++++++------"),
    (" img.png               | Bin 0 -> 1204 bytes", "img.png | Bin 0 -> 1204 bytes"),
    (" a | b.txt | 3 ++-", "a | b.txt | 3 ++-"),
    (" 4 files changed, 2 insertions(+), 81 deletions(-)", None),
    ("src/a.py | 2 +-", None), (" x | 2 +- y", None), (" | 2 +-", None), (" the cost | 12 dollars", None),
])
def test_compact_stat_drops_only_the_padding(line: str, compact: str | None) -> None:
    assert compact_stat(line) == compact


def test_diff_stat_is_compacted_until_a_patch_starts() -> None:
    _, out = run("git diff --stat -p", [" a.py   | 2 +-", " 1 file changed, 1 insertion(+), 1 deletion(-)", "",
                                        "diff --git a/a.py b/a.py", "@@ -1,2 +1,2 @@", " keep  | 1 +", "-x", "+y"])
    assert out == ["a.py | 2 +-", " 1 file changed, 1 insertion(+), 1 deletion(-)", "", "diff --git a/a.py b/a.py",
                   "@@ -1,2 +1,2 @@", " keep  | 1 +", "-x", "+y"]


def test_the_budget_counts_a_long_line_as_the_short_lines_it_costs() -> None:
    def printed(width: int) -> int:
        lines = ["diff --git a/a.md b/a.md", "--- a/a.md", "+++ b/a.md", "@@ -1,200 +1,200 @@"]
        lines += [f"{'-+'[i % 2]}{str(i).ljust(width, 'x')}" for i in range(400)]  # alternating: no runs to fold
        _, out = run("git diff", lines, limits={"git_diff_budget_base": 20, "git_diff_budget_scale": 1})
        return sum(text[:1] in "+-" for text in out)

    short, long = printed(40), printed(250)  # 250 characters: 3 units of the budget
    assert 20 + 400 ** 0.5 - 1 <= short <= 20 + 400 ** 0.5 and long <= short / 3 + 2


def test_log_stat_keeps_each_message_and_a_merge_keeps_its_pull_request_title() -> None:
    """Issue 33: `--stat` asks for each commit's detail, and GitHub puts a PR's title in the merge's body."""
    raw = raw_lines("git", "log_stat_pflag_merge_prs")
    _, out = run("git log --stat -n 12", raw)
    assert "    Reflects the maintainer's preferred workflow using the GitHub UI" in out
    assert "    docs: add release process documentation" in out
    _, plain = run("git log -n 12", raw)
    assert "    docs: add release process documentation" in plain  # the merge's PR title, always
    assert "    Reflects the maintainer's preferred workflow using the GitHub UI" not in plain


def test_a_message_past_its_budget_says_how_many_lines_it_left_out() -> None:
    body = [f"    line {i}" for i in range(70)]
    lines = ["commit " + "a" * 40, "Author: A <a@b>", "Date:   Mon Aug 3 11:52:44 2026 -0600", "",
             "    subject", "    ", *body, "", " a.py | 1 +"]
    filt, out = run("git show --stat", lines)
    assert out[1:3] == ["    line 0", "    line 1"] and "    ... 10 more lines of the message" in out
    assert filt.elided
