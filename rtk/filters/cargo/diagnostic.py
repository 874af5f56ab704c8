"""rustc diagnostics: one block (`error[E0308]: ...` up to the blank line), shortened and grouped.

A block keeps its header (level, code, message), every `-->`/`:::` location, every label, and
every `help:`/`note:`/`= ...` line. Only the code frame shrinks (see `frame.py`): each label becomes
one `line:col mark text` line, source lines and unlabelled markers go, a suggestion keeps its new
(`|`/`+`/`~`) lines, not the old (`-`) ones. Without a recall store the frame keeps its marked
source lines and marker lines as rustc printed them.
Repeats of a lint (same level and message once the backticked names are masked) are folded into
their first occurrence: the first is printed whole, the others become one line per distinct
message (`warning: unexpected `cfg` condition name: `x` [unexpected_cfgs] (3 more): a.rs:1:2, ...`),
printed at the next flush point (end of a crate's build); a file with many places gets its own
line (`places.py`). An error repeated word for word at another place is folded the same way
(`RepeatedErrors`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rtk.filters.cargo import places
from rtk.filters.cargo.frame import ELLIPSIS_RE, FrameCompactor

HEADER_RE = re.compile(r"^(error|warning)(\[[A-Z]+\d+\])?: (.*)$")
LOCATION_RE = re.compile(r"^\s*(?:-->|:::) (\S.*)$")
SOURCE_RE = re.compile(r"^\s*\d+\s*(\||[+~-]) ?(.*)$")
GUTTER_RE = re.compile(r"^\s*\|(.*)$")
BACKTICKS_RE = re.compile(r"`[^`]*`")
MARKS_ONLY_RE = re.compile(r"^[\s|^_/\\+~-]*$")
LINT_RES = (
    re.compile(r"#\[(?:warn|deny|forbid)\(([\w:]+)\)\]"),
    re.compile(r"`-[DW] ([\w:-]+)` implied by"),
    re.compile(r"rust-clippy/\S*#(\w+)"),
)
LINT_HINTS = ("#[deny(", "#[forbid(", "implied by `-D", "rust-clippy/")
RUSTC_HASH_RE = re.compile(r"/rustc/[0-9a-f]{40}/")
# clippy's docs link, dropped when the block names its lint another way (`#[warn(clippy::x)]`,
# `-D clippy::x implied by ...`): the link is the same for every use of the lint.
CLIPPY_LINK_RE = re.compile(r"^\s*= help: for further information visit https://rust-lang\.github\.io/rust-clippy/")
# rustc's pointer to its book under `unexpected cfg` lints: the same page for every one of them
DOCS_LINK_RE = re.compile(r"^\s*= note: see <https://doc\.rust-lang\.org/[^>\s]*> for more information about ")
NAMED_LINT_RE = re.compile(r"#\[(?:warn|deny|forbid)\(clippy::|`-[DW] clippy::")
MAX_BLOCK_LINES = 2000


@dataclass
class Diagnostic:
    """The lines of one diagnostic while it is being read."""

    level: str
    code: str
    title: str
    lines: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, header: str) -> Diagnostic | None:
        match = HEADER_RE.match(header)
        if match is None:
            return None
        level, code, title = match.groups()
        return cls(level, code or "", title, [header])

    @property
    def location(self) -> str | None:
        for line in self.lines[1:]:
            match = LOCATION_RE.match(line)
            if match:
                return match.group(1)
        return None

    @property
    def is_lint(self) -> bool:
        if self.level == "warning":
            return True
        return not self.code and any(hint in line for line in self.lines for hint in LINT_HINTS)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.level, self.code, BACKTICKS_RE.sub("`…`", self.title)

    def lint_name(self) -> str:
        for line in self.lines:
            for pattern in LINT_RES:
                match = pattern.search(line)
                if match:
                    return match.group(1).replace("-", "_")
        return ""

    def render(self, keep_code: bool = False) -> tuple[list[str], bool]:
        """The kept lines, and whether code (not just frame decoration) was dropped."""
        lines = self.lines
        named = any(NAMED_LINT_RE.search(line) for line in lines)
        if named:
            lines = [line for line in lines if not CLIPPY_LINK_RE.match(line)]
        else:
            lines = [_short_link(line) for line in lines]
        if keep_code:
            return _render_whole(lines), False
        lines = [line for line in lines if not DOCS_LINK_RE.match(line)]
        compactor = FrameCompactor()
        kept = [out for line in lines for out in compactor.feed(line)] + compactor.close()
        return [RUSTC_HASH_RE.sub("/rustc/…/", line) for line in kept], compactor.dropped_code


def _short_link(line: str) -> str:
    """clippy's docs link, the only line naming the lint, as the lint's name (the page is the
    same for every use of it)."""
    match = CLIPPY_LINK_RE.match(line)
    if match is None or "#" not in line:
        return line
    return f"{line[:line.index('=')]}= note: lint clippy::{line.rsplit('#', 1)[1]}"


def _render_whole(lines: list[str]) -> list[str]:
    """Without a recall store: the frame keeps its code, only gutters and decoration go."""
    kept: list[str] = []
    for i, line in enumerate(lines):
        verdict = _frame_verdict(line, lines[i + 1] if i + 1 < len(lines) else "")
        if verdict is not False:
            kept.append(RUSTC_HASH_RE.sub("/rustc/…/", line))
    return kept


def _frame_verdict(line: str, following: str) -> bool | None:
    """None: keep the line. False: drop, it is decoration. True: drop, it is a line of code."""
    if ELLIPSIS_RE.match(line):
        return False
    source = SOURCE_RE.match(line)
    if source:
        return _source_verdict(source.group(1), source.group(2), following)
    gutter = GUTTER_RE.match(line)
    if gutter is None:
        return None
    rest = gutter.group(1)
    if not rest.strip(" |"):
        return False
    if "^" in rest or not MARKS_ONLY_RE.match(rest):
        return None
    return False


def _source_verdict(kind: str, code: str, following: str) -> bool | None:
    if kind in "+~":
        return None
    if kind == "-":
        return True
    if code.startswith("/") or _is_marker_line(following):
        return None
    return True


def _is_marker_line(line: str) -> bool:
    gutter = GUTTER_RE.match(line)
    return gutter is not None and bool(gutter.group(1).strip(" |"))


@dataclass
class Group:
    """A lint seen before: its first title, and where it appeared again since the last flush."""

    diag: Diagnostic
    lint: str
    seen: set[str] = field(default_factory=set)
    pending: list[tuple[str, str]] = field(default_factory=list)
    printed: bool = True  # the first occurrence was printed whole

    def render(self) -> list[str]:
        """One line per distinct message: its text, its lint, how many and every location.

        Messages that differ only in a backticked name (`unexpected cfg condition name: X`) each
        keep their own line, so no name is lost."""
        by_title: dict[str, list[str]] = {}
        for location, title in self.pending:
            by_title.setdefault(title, []).append(location)
        lint = f" [{self.lint}]" if self.lint else ""
        out = []
        for title, locations in by_title.items():
            n = len(locations)
            count = f" ({n} more)" if self.printed and title == self.diag.title else f" (x{n})" if n > 1 else ""
            out += places.lines(f"{self.diag.level}{self.diag.code}: {title}{lint}{count}", locations)
        self.pending = []
        return out


class Grouper:
    """Remembers which lints were printed, folds their repeats into location lists.

    `fold_first`: the first occurrence is folded too (a `cargo test` run, where a warning is
    context, not the task): every warning becomes one counted line with its locations."""

    def __init__(self, fold_first: bool = False) -> None:
        self._groups: dict[tuple[str, str, str], Group] = {}
        self._fold_first = fold_first

    def absorb(self, diag: Diagnostic) -> bool:
        """Fold `diag` into an earlier one of its kind (True), or remember it as the first (False).

        The same lint at the same place again (one file compiled into two targets) is folded
        without a trace: it says nothing new.
        """
        location = diag.location
        group = self._groups.get(diag.key)
        # a lint denied by `-D warnings` names itself in its first error only: its repeats are
        # known by their message
        if location is None or not (diag.is_lint or group is not None):
            return False
        fold_first = self._fold_first and diag.level == "warning"
        if group is None:
            group = Group(diag, diag.lint_name(), {f"{location} {diag.title}"}, printed=not fold_first)
            self._groups[diag.key] = group
            if not fold_first:
                return False
            group.pending.append((location, diag.title))
            return True
        if f"{location} {diag.title}" not in group.seen:
            group.seen.add(f"{location} {diag.title}")
            group.pending.append((location, diag.title))
        return True

    def is_repeat(self, diag: Diagnostic) -> bool:
        group = self._groups.get(diag.key)
        return group is not None and f"{diag.location} {diag.title}" in group.seen

    def flush(self) -> list[str]:
        out: list[str] = []
        for group in self._groups.values():
            if group.pending:
                out.extend(group.render())
        return out

    def per_lint(self) -> list[str]:
        """A passing `cargo test`: one counted line per lint, every distinct message with all its
        locations (`warning [unexpected_cfgs] x41: unexpected `cfg` condition name: `a` (src/lib.rs:64:13,
        src/error.rs:28:12); ...`)."""
        by_lint: dict[tuple[str, str], dict[str, list[str]]] = {}
        for group in self._groups.values():
            messages = by_lint.setdefault((group.diag.level, group.lint or group.diag.title), {})
            for location, title in group.pending:
                messages.setdefault(title, []).append(location)
            group.pending = []
        out = []
        for (level, lint), messages in by_lint.items():
            if messages:
                out += _lint_lines(f"{level} [{lint}] x{sum(map(len, messages.values()))}", messages)
        return out


def _lint_lines(head: str, messages: dict[str, list[str]]) -> list[str]:
    """One line for a lint and its messages (`head: title (places); title (places)`), or, when a
    file has many places, the head and one line per message with its places grouped under it."""
    if not any(places.split(spots)[1] for spots in messages.values()):
        return [f"{head}: " + "; ".join(f"{title} ({', '.join(spots)})" for title, spots in messages.items())]
    out = [f"{head}:"]
    for title, spots in messages.items():
        out += places.lines(f"  {title}", spots, indent="    ")
    return out



class RepeatedErrors:
    """Errors said again word for word at another place (a forgotten dependency: `unresolved
    import` in every module): the first is printed whole, the others only add their place.

    Two errors are the same when all their printed lines but the primary `-->` location are:
    a label or note that differs (`expected u32, found usize`) keeps the error whole."""

    def __init__(self) -> None:
        self._first: set[tuple[str, ...]] = set()
        self._pending: dict[tuple[str, ...], list[str]] = {}

    def absorb(self, diag: Diagnostic, rendered: list[str]) -> bool:
        location = diag.location
        if diag.level != "error" or location is None:
            return False
        at = next((i for i, line in enumerate(rendered) if LOCATION_RE.match(line)), None)
        if at is None:
            return False
        signature = tuple(line.strip() for line in rendered[:at] + rendered[at + 1:])  # gutters vary
        if signature not in self._first:
            self._first.add(signature)
            return False
        self._pending.setdefault(signature, []).append(location)
        return True

    def flush(self) -> list[str]:
        out: list[str] = []
        for signature, spots in self._pending.items():
            out += places.lines(f"{signature[0]} ({len(spots)} more, the same labels and help)", spots)
        self._pending = {}
        return out
