"""git log (medium format), git show, git log -p: one line per commit, patches via diff.py.

Keeps: per commit its short hash, decorations, date (YYYY-MM-DD; `git log` says each day once,
`2026-08-05:` above that day's commits), author name, `(merge)` for merges and the full subject
(the message's first paragraph), then trailer-like body lines (`BREAKING CHANGE`, `Fixes #12`,
`Closes #3`, `Reverts`) and a merge's second paragraph (GitHub writes the pull request's title
there). `git show` and a log that asked for each commit's detail (`--stat`, `-p`, `--name-status`,
`--pretty=medium`) keep the whole message (blank lines dropped; past BODY_LINES lines a count). Patches (`-p`, `show`) go through the diff filter; `--stat`,
`--name-status` and the other lists print as git printed them (a diffstat without its column
padding, stat.py). With `--graph` each commit line keeps its date and graph columns, and the
lines that fork or merge (`|/`, `|\\`) stay in place (graph.py). Over 50 commits: the first 50
and `... N more commits` (content elided: recall), unless the command asked for more (`-n 200`,
`-200`, `--max-count=200`): every one of those is printed.
Drops: the other body lines of a plain `git log`, e-mail addresses, the time of day, the `Merge:` parents line, a
signed tag's signature block (`[pgp signature: 17 lines not shown]`): all content (elided: the recall hint).
Unknown header lines and any line outside a commit pass through.
"""
from __future__ import annotations

from rtk.filters.base import FilterContext, Line, Stream, elision_marker
from rtk.filters.git.common import NOTHING, GitFilter, out
from rtk.filters.git.diff import DiffParser, new_parser, one_file_hint
from rtk.filters.git.graph import Graph, asked_count
from rtk.filters.git.log_lines import author_name, commit_line, date_value, is_trailer, short_date
from rtk.filters.git.stat import compact_stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from rtk.filters.base import Filter

SUBJECT_LINES = 3
BODY_LINES = 60  # a message's body lines printed, when the command asked for bodies
# Flags that ask for each commit's detail (its files, its patch): the message is part of it.
DETAIL_FLAGS = frozenset(("--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--raw",
                          "--summary", "--dirstat", "--compact-summary", "--patch-with-stat", "-p",
                          "--patch", "-u", "--cc", "--pretty=medium", "--format=medium"))


class Commit:
    def __init__(self, sha: str, rest: str) -> None:
        self.sha, self.rest = sha, rest.strip()
        self.merge = False
        self.author = self.date = ""
        self.extra: list[str] = []
        self.subject: list[str] = []
        self.subject_done = False
        self.shown = False
        self.paragraph = 0  # the message's paragraph being read (0: the subject)
        self.body = 0  # body lines read (not blank, not trailers)
        self.graph = ""  # the graph columns printed before `commit` (`| * `) with --graph
        self.forks: list[str] = []  # graph lines of this commit that fork or merge (`|/`)

    def line(self, with_date: bool = True) -> str:
        parts = [self.graph + self.sha[:7]]
        if self.rest:
            parts.append(self.rest)
        parts += [p for p in (self.date if with_date else "", self.author) if p]
        if self.merge:
            parts.append("(merge)")
        subject = " ".join(self.subject) if len(self.subject) <= SUBJECT_LINES else self.subject[0]
        return " ".join(parts) + (f": {subject}" if subject else ":")


class LogFilter(GitFilter):
    def __init__(self, ctx: FilterContext | None = None, by_day: bool = False, whole: bool = False) -> None:
        super().__init__(ctx)
        self.commit: Commit | None = None
        self.state = "outside"  # outside | header | message | patch
        self.signature = 0  # lines of a tag's signature block read so far
        self.commits = 0
        self.diff: DiffParser = new_parser(self.ctx, whole)
        cap = self.ctx.limit("git_log_max_commits", 50) if self.ctx.recall_enabled else 1 << 60
        self.cap = max(cap, asked_count(self.ctx.argv))
        self.graph = Graph() if "--graph" in self.ctx.argv else None
        # `git log`: the date once above each day's commits (`2026-08-05:` costs the tokens of the
        # one date it replaces); a graph keeps it on each line, where its columns are.
        self.by_day = by_day and self.graph is None
        self.day: str | None = None
        self.keep_body = not by_day or any(word in DETAIL_FLAGS or word.startswith("-U") for word in self._flags())

    def _flags(self) -> tuple[str, ...]:
        argv = self.ctx.argv
        return argv[:argv.index("--")] if "--" in argv else argv

    def starts(self, text: str) -> bool:
        if self.graph is not None:
            text = self.graph.strip_commit(text)
        return commit_line(text) is not None or DiffParser.starts(text) or text.startswith("tag ")

    def parse(self, text: str, line: str, stream: Stream) -> Iterable[Line]:
        if self.graph is None:
            return self._parse(text, line, stream)
        body, structure = self.graph.split(text)
        if structure and self.commit is not None and not self.commit.shown:
            forks = self.commit.forks
            forks.extend(fork for fork in structure if not forks or forks[-1] != fork)
            structure = []
        return [*out(*structure), *self._parse(body, body, stream)]

    def _parse(self, text: str, line: str, stream: Stream) -> Iterable[Line]:
        if (commit := commit_line(text)) is not None:
            return self._new_commit(*commit)
        if self.commits > self.cap:
            return NOTHING
        if self.state == "patch" or DiffParser.starts(text):
            return self._patch(text, line, stream)
        text = text.rstrip()
        if self.state == "header":
            return self._header(text, line, stream)
        if self.state == "message":
            return self._message(text, line, stream)
        if self.signature or (text.startswith("-----BEGIN ") and text.endswith(" SIGNATURE-----")):
            return self._signature(text)
        if not text:
            return NOTHING
        compact = compact_stat(text)
        return [Line(line, stream) if compact is None else Line(compact, stream)]

    def _signature(self, text: str) -> list[Line]:
        """A signed tag's armoured signature: one line says it is there (`git tag -v` checks it)."""
        self.signature += 1
        if not (text.startswith("-----END ") and text.endswith(" SIGNATURE-----")):
            return []
        count, self.signature = self.signature, 0
        self.elided = True
        return out(f"[{text[9:-5].lower()}: {count} lines not shown]")

    def _new_commit(self, sha: str, rest: str) -> list[Line]:
        done = self.flush()
        self.commits += 1
        self.state = "header"
        if self.commits > self.cap:
            self.commit = None
            return done
        self.commit = Commit(sha, rest)
        self.commit.graph = self.graph.prefix if self.graph is not None else ""
        return done

    def _header(self, text: str, line: str, stream: Stream) -> list[Line]:
        commit = self.commit
        assert commit is not None
        if not text:
            self.state = "message"
        elif text.startswith("Merge: "):
            commit.merge = self.elided = True  # the parents' hashes: content (recall), as the rest below
        elif (author := author_name(text)) is not None:
            commit.author = author
            self.elided = self.elided or not text.endswith(author)  # the e-mail address
        elif (date := date_value(text)) is not None:
            commit.date = short_date(date)
            self.elided = self.elided or commit.date != date  # the time of day and the zone
        else:
            commit.extra.append(line)
        return []

    def _message(self, text: str, line: str, stream: Stream) -> list[Line]:
        commit = self.commit
        assert commit is not None
        if not text:
            if line.startswith("    "):
                commit.paragraph += bool(commit.subject)
                return self._end_subject() if commit.subject else []
            self.state = "between"
            return [*self._end_subject(), *self._end_body()]
        if not line.startswith("    "):
            self.state = "between"
            return [*self._end_subject(), *self._end_body(), *([] if text == "---" else [Line(line, stream)])]
        if not commit.subject_done:
            commit.subject.append(text.strip())
            return self._end_subject() if len(commit.subject) > SUBJECT_LINES else []
        if is_trailer(text):
            return out(text)
        if self.keep_body or (commit.merge and commit.paragraph == 1):
            return self._body_line(commit, text)
        self.elided = True
        return []

    def _body_line(self, commit: Commit, text: str) -> list[Line]:
        commit.body += 1
        if commit.body <= BODY_LINES:
            return out(text)
        self.elided = True
        return []

    def _end_body(self) -> list[Line]:
        """A message longer than BODY_LINES says how many of its lines were left out."""
        commit = self.commit
        if commit is None or commit.body <= BODY_LINES:
            return []
        hidden, commit.body = commit.body - BODY_LINES, 0
        return out(f"    {elision_marker(hidden, 'lines of the message')}")

    def _end_subject(self) -> list[Line]:
        commit = self.commit
        if commit is None or commit.shown:
            return []
        commit.subject_done = commit.shown = True
        if len(commit.subject) > SUBJECT_LINES:
            self.elided = True
        return out(*self._day_line(commit), commit.line(with_date=not self.by_day), *commit.forks, *commit.extra)

    def _day_line(self, commit: Commit) -> list[str]:
        if not self.by_day or not commit.date or commit.date == self.day:
            return []
        self.day = commit.date
        return [f"{commit.date}:"]

    def _patch(self, text: str, line: str, stream: Stream) -> list[Line]:
        head = self._end_subject()
        self.state = "patch"
        kept = self.diff.feed(text)
        self.elided = self.elided or self.diff.elided
        if kept is None:
            self.state = "between"
            return [*head, *out(*self.diff.close()), *([Line(line, stream)] if text.strip() else [])]
        return [*head, *out(*kept)]

    def flush(self) -> list[Line]:
        lines = [*self._end_subject(), *self._end_body(), *out(*self.diff.close())]
        self.elided = self.elided or self.diff.elided
        return lines

    def finish(self, exit_code: int) -> Iterable[Line]:
        lines = list(super().finish(exit_code))
        if self.commits > self.cap:
            self.elided = True
            lines += out(elision_marker(self.commits - self.cap, "commits"))
        if self.diff.folded and self.mode == "parse":
            lines += out(one_file_hint(self.ctx.argv))
        return lines

    def progress(self) -> dict[str, int]:
        return {"commits": self.commits}


def prints_patches(argv: tuple[str, ...]) -> bool:
    """`git log -p` (`--patch`, `-u`, `-U3`, `--cc`): a log that prints patches."""
    words = argv[:argv.index("--")] if "--" in argv else argv
    return any(w in ("-p", "--patch", "-u", "--cc") or w.startswith(("-U", "--unified")) for w in words)


def create(ctx: FilterContext, by_day: bool = False) -> Filter:
    """Patches (`-p`, `show`) printed whole while they are ones an agent reads (sized.py)."""
    if not ctx.recall_enabled or (by_day and not prints_patches(ctx.argv)):
        return LogFilter(ctx, by_day)
    from rtk.filters.git.sized import SizedPatch

    return SizedPatch(lambda whole: LogFilter(ctx, by_day, whole))
