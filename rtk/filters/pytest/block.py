"""One failure or error block of pytest's FAILURES / ERRORS sections, reduced to what explains it.

Kept: traceback locations (`path:line: ...`), the failing source line of each entry (`>` lines in
long style, the line under `path:line: in func` in short style, the line under `File ...` in native
style), every `E` line (native: the exception lines), chained-exception separators, the block's
own column-0 text (`ImportError while importing test module ...`, `file x.py, line 3`,
`[XPASS(strict)] ...`) and the last lines of each captured stdout/stderr/log section.
Dropped: source context, `locals` lines, `_ _ _` separators, caret lines, blank lines.
Caps (None = keep all, used when recall is off): E lines per block, captured lines per section,
traceback lines per run of frames (head + tail); each cut leaves a marker where it happened.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

from rtk.filters.base import elision_marker
from rtk.filters.pytest import ediff
from rtk.filters.pytest import patterns as p
from rtk.filters.pytest.chained import condense_chained
from rtk.filters.pytest.longlines import cut_long_diff_lines
from rtk.filters.pytest.restated import drop_restated_values

NO_SRC, KEEP_SRC, SKIP_SRC, CONTINUATION = 0, 1, 2, 3
LOCALS_CHARS = 200  # a -l local's repr longer than this keeps its two ends
HOLD_FACTOR = 10  # E lines held per block before the diff in them is compacted, times the cap


@dataclass(frozen=True)
class Caps:
    e_lines: int | None = 40
    captured: int | None = 20
    tb_head: int | None = 4
    tb_tail: int = 8
    continuation: int = 0  # lines of a multi-line failing statement kept after its `>` line
    line_chars: int | None = 400  # an error line longer than this keeps its two ends (-vv reprs)
    locals: bool = False  # -l/--showlocals: the locals after a frame's source are kept (cut to LOCALS_CHARS)

    def later(self) -> Caps:
        """The caps of a failure past the first few of a run: half the E lines and half the
        captured output (its last lines), so that a run with a hundred failures stays readable."""
        return replace(self, e_lines=None if self.e_lines is None else max(self.e_lines // 2, 1),
                       captured=None if self.captured is None else max(self.captured // 2, 1))


class _Capture:
    def __init__(self, name: str, cap: int | None) -> None:
        self.name = name
        self.lines: deque[str] = deque(maxlen=cap)
        self.total = 0
        self.digest = 0  # of every line, kept or not: tells two captures apart whatever the cap

    def render(self) -> list[str]:
        out = [f"{self.name}:"]
        dropped = self.total - len(self.lines)
        if dropped:
            out.append(elision_marker(dropped, "lines", f"earlier {self.name} output"))
        out.extend(self.lines)
        return out


class Block:
    """Feed it the lines after a `___ title ___` header; `render()` when the block has ended."""

    def __init__(self, title: str, caps: Caps, indented_is_message: bool = False) -> None:
        self.title = title
        self._indented_is_message = indented_is_message
        self._doctest = title.startswith("[doctest] ")
        self._example = ""  # doctest: the last numbered source line, the failing example
        self._source_at = -1  # --tb=line doctest: where in `out` the numbered source line is
        self._group = False  # inside an ExceptionGroup's `+`/`|` rendering
        self.caps = caps
        self.out: list[str] = []
        self.elided = False
        self.first_file: str | None = None
        self.first_func: str | None = None
        self._def_name: str | None = None
        self._native = False
        self._want_src = NO_SRC
        self._continued = 0
        self._e_kept = 0
        self._e_dropped = 0
        self._tb_head: list[str] = []
        self._tb_tail: deque[str] = deque(maxlen=caps.tb_tail)
        self._tb_dropped = 0
        self._captures: list[_Capture] = []
        self.first_error = -1  # index in `out` of the first E line
        self.body_len = 0      # lines of `out` before the captured output
        # True when an indented line would be dropped anyway (source context): callers may skip
        # add() for such lines, which is most of a long traceback.
        self.quiet = False
        self.seeking_def = True  # quiet lines holding `def ` must still reach add()

    def add(self, line: str) -> None:
        if self._captures:
            self._add_captured(line)
            return
        if self._doctest:
            self._add_doctest(line)
            return
        self._add(line)
        self.quiet = (self._want_src == NO_SRC and not self._native and not self._indented_is_message
                      and not self._captures and not self._group)
        self.seeking_def = self._def_name is None and self.first_file is None

    def _add(self, line: str) -> None:
        first = line[:1]
        if first == " " or first == "\t":
            self._add_indented(line)
        elif first == "E" and (len(line) == 1 or line[1] == " "):
            self._add_error(line)
        elif first == ">":
            self._want_src, self._continued = CONTINUATION, 0
            if line[1:].strip() not in p.BLOCK_NOISE:
                self._add_tb("> " + line[1:].strip())
        elif first and not self._native:
            self._add_column0(line)
        elif first:
            self._add_native_message(line)

    def _add_group(self, line: str) -> None:
        """An ExceptionGroup, printed by Python inside `+`/`|` borders: all of it is the error,
        but for the `Traceback (most recent call last):` lines, carets and closing borders."""
        body = line.strip()
        self._group = body[:1] in ("+", "|")
        if not self._group:
            self._add_indented(line)
            return
        content = body.lstrip("|+ ")
        if content and content != p.NATIVE_START and not p.CARET_RE.match(content) and content.strip("-"):
            self._add_error(line.rstrip())

    def _add_doctest(self, line: str) -> None:
        """`070 source` lines are the docstring up to the failing example; the rest (Expected:,
        Got:, the values, UNEXPECTED EXCEPTION, the location) is the error message."""
        if p.DOCTEST_SOURCE_RE.match(line):
            self.elided = self.elided or bool(self._example)  # the docstring before the example
            self._example = line.rstrip()
            return
        if (m := p.CAPTURE_RE.match(line)) is not None:
            self._captures.append(_Capture(m.group(1), self.caps.captured))
            return
        if self._example:
            self._add_tb(self._example)
            self._example = ""
        if line.strip():
            self._add_error(line.rstrip())

    def _add_indented(self, line: str) -> None:
        if self._group or (line[2:3] == "+" and p.GROUP_START in line):
            self._add_group(line)
        elif self._indented_is_message:
            if p.NATIVE_HINT_RE.match(line) is None:  # --tb=line: difflib carets, rerun hints
                self._add_error(line)
        elif self._native and (m := p.NATIVE_FILE_RE.match(line)):
            # pytest's and pluggy's own frames are plumbing, not part of the failure
            plumbing = p.PLUMBING_RE.search(m.group(1)) is not None
            self._want_src = SKIP_SRC if plumbing else KEEP_SRC
            if not plumbing:
                self._note_first(m.group(1), m.group(3))
                self._add_tb(line.strip())
        elif "^" in line and p.CARET_RE.match(line):
            return
        elif self._want_src == CONTINUATION:
            # the rest of a multi-line failing statement: the `>` line names it, the location
            # line below says where; the recall store keeps the whole statement
            if line.strip():
                self._continued += 1
                if self._continued <= self.caps.continuation:
                    self._add_tb("  " + line.strip())
                else:
                    self.elided = True
        elif self._want_src:
            keep, self._want_src = self._want_src == KEEP_SRC, NO_SRC
            if keep:
                self._add_tb("> " + line.strip())
        elif self._native and line.strip():
            self._add_native_message(line)
        elif line.strip():  # source context around the failing line: the recall store has it
            self.elided = True
            if self._def_name is None and self.first_file is None and "def " in line and (m := p.DEF_RE.match(line)):
                self._def_name = m.group(1)

    def _add_column0(self, line: str) -> None:
        first = line[0]
        if ":" in line and (m := p.LOCATION_RE.match(line)) is not None:
            message = m.group(3) or ""
            short_style = message.startswith("in ")
            if short_style and p.PLUMBING_RE.search(m.group(1)):
                self._want_src = SKIP_SRC  # pytest's, pluggy's or importlib's own frame: plumbing
                return
            self._note_first(m.group(1), message[3:] if short_style else self._def_name)
            self._want_src = KEEP_SRC if short_style else NO_SRC
            self._add_tb(line.rstrip())
        elif line == p.NATIVE_START:
            self._native = True
        elif first == "-" and (m := p.CAPTURE_RE.match(line)) is not None:
            self._flush_tb()
            self._captures.append(_Capture(m.group(1), self.caps.captured))
        elif self._indented_is_message and first.isdigit() and p.DOCTEST_SOURCE_RE.match(line):
            self._add_doctest_source(line.rstrip())
        elif " =" in line and p.LOCALS_RE.match(line) is not None:
            self._add_local(line.rstrip())
        elif not self._is_noise(line, first):
            self._add_other(line.rstrip())

    def _add_local(self, line: str) -> None:
        """`name = repr`: a test function's arguments (before its source) go, as do the locals
        unless -l asked for them (after a frame's source line)."""
        if not self.caps.locals or not (self.out or self._tb_head):
            self.elided = True
            return
        if self.caps.line_chars is not None and len(line) > LOCALS_CHARS:
            line = self._shortened(line, LOCALS_CHARS)
        self._add_other(line)

    def _add_doctest_source(self, line: str) -> None:
        """--tb=line prints a failing doctest's docstring up to the failing example, one numbered
        line each: the last one is the example, the others are its context."""
        if self.out and self._source_at == len(self.out) - 1:
            self.out[-1] = line
            self.elided = True
        else:
            self._add_other(line)
            self._source_at = len(self.out) - 1

    @staticmethod
    def _is_noise(line: str, first: str) -> bool:
        """Separators between entries, pytest's hints, xdist worker lines."""
        return ((first == "_" and p.ENTRY_SEP_RE.match(line) is not None)
                or line in p.BLOCK_NOISE
                or (first in "[g" and p.XDIST_HEADER_RE.match(line) is not None))

    def _add_native_message(self, line: str) -> None:
        if p.NATIVE_HINT_RE.match(line) is not None:
            return  # difflib's caret lines and pytest's rerun hints, unprefixed in --tb=native
        if line in p.CHAIN_LINES or line == p.NATIVE_START:
            self._add_other(line)
        elif (m := p.CAPTURE_RE.match(line)) is not None:
            self._flush_tb()
            self._captures.append(_Capture(m.group(1), self.caps.captured))
        else:
            self._add_error(line.rstrip())

    def _note_first(self, path: str, func: str | None) -> None:
        if self.first_file is None:
            self.first_file, self.first_func = path, func

    def _add_error(self, line: str) -> None:
        self._flush_tb()
        self._want_src = NO_SRC
        cap = self.caps.e_lines
        if cap is not None and self._e_kept >= cap * HOLD_FACTOR:  # held: the diff is compacted first
            self._e_dropped += 1
            return
        if self.first_error < 0:
            self.first_error = len(self.out)
        self._e_kept += 1
        line = line.rstrip()
        line = line.removesuffix(p.RERUN_HINT)  # `Skipping 318 identical leading characters in diff, use -v ...`
        if self.caps.line_chars is not None:
            line = p.ADDRESS_RE.sub("", line)
            if len(line) > self.caps.line_chars:
                line = self._shortened(line, self.caps.line_chars)
        self.out.append(line)

    def _shortened(self, line: str, limit: int) -> str:
        """-vv prints whole values in `assert '...' == '...'`; the diff under it says what differs."""
        self.elided = True
        head, tail = limit * 2 // 3, limit // 3
        return f"{line[:head]} ...[{len(line) - head - tail:,} chars]... {line[-tail:]}"

    def _add_other(self, line: str) -> None:
        self._flush_tb()
        self.out.append(line)

    def _add_tb(self, line: str) -> None:
        head = self.caps.tb_head
        if head is None or len(self._tb_head) < head:
            self._tb_head.append(line)
            return
        if len(self._tb_tail) == self._tb_tail.maxlen:
            self._tb_dropped += 1
        self._tb_tail.append(line)

    def _flush_tb(self) -> None:
        self.out.extend(self._tb_head)
        if self._tb_dropped:
            self.elided = True
            self.out.append(elision_marker(self._tb_dropped, "traceback lines"))
        self.out.extend(self._tb_tail)
        self._tb_head.clear()
        self._tb_tail.clear()
        self._tb_dropped = 0

    def _add_captured(self, line: str) -> None:
        if (m := p.CAPTURE_RE.match(line)) is not None:
            self._captures.append(_Capture(m.group(1), self.caps.captured))
            return
        capture = self._captures[-1]
        capture.total += 1
        capture.lines.append(line.rstrip())
        capture.digest = hash((capture.digest, capture.lines[-1]))

    def captured_key(self) -> int:
        """Equal for two blocks whose captured output is the same, each line of it."""
        return hash(tuple((c.name, c.total, c.digest) for c in self._captures))

    def error_tail(self) -> int:
        """Where the part shared by failures with the same cause starts: the `>` line before the
        first E line (short style: the location line above it too). -1 when there is no E line."""
        start = self.first_error
        if start > 0 and self.out[start - 1].startswith("> "):
            start -= 1
            if start > 0 and _names_a_frame_first(self.out[start - 1]):
                start -= 1  # short and native style: the location comes before its `>` line
        return start

    def render(self) -> list[str]:
        self._flush_tb()
        if self.caps.line_chars is not None:
            first = self.out[self.first_error] if self.first_error >= 0 else ""
            self.out, long_cut = cut_long_diff_lines(self.out)
            self.out, chain_cut = condense_chained(self.out)
            self.elided = self.elided or long_cut or chain_cut
            if chain_cut:
                self.first_error = _index_of_first_error(self.out, first, self.first_error)
        out = self.out
        cap = self.caps.e_lines
        if cap is not None and self.first_error >= 0:
            compacted, cut = ediff.compact(out)
            compacted, restated = ediff.drop_restated(compacted)
            compacted, values = drop_restated_values(compacted)
            cut = cut or restated or values
            compacted, capped = ediff.cap_e_lines(compacted, cap, self._e_dropped)
            if cut or capped or len(compacted) != len(out):
                self.first_error = _index_of_first_error(compacted, out[self.first_error], self.first_error)
                self.elided = self.elided or cut or bool(capped)
                out = self.out = compacted
        self.body_len = len(out)
        for capture in self._captures:
            while capture.lines and not capture.lines[-1]:
                capture.lines.pop()
                capture.total -= 1
            if capture.lines:
                self.elided = self.elided or capture.total > len(capture.lines)
                out.extend(capture.render())
        return out


def _index_of_first_error(lines: list[str], first: str, near: int) -> int:
    """Where the first error line is after the E-line diff was compacted (it is never dropped)."""
    found = [i for i, text in enumerate(lines) if text == first]
    return min(found, key=lambda i: abs(i - near)) if found else -1


def own_frame(frames: list[str]) -> list[str]:
    """The test's own traceback entry: up to and including its first `path:line:` location."""
    for i, text in enumerate(frames):
        if text.startswith('File "') or p.LOCATION_RE.match(text) is not None:
            before = _names_a_frame_first(text)
            end = i + 2 if before and frames[i + 1:i + 2] and frames[i + 1].startswith("> ") else i + 1
            return frames[:end]
    return frames


def _names_a_frame_first(text: str) -> bool:
    """`path:12: in func` (short style) or `File "path", line 12, in func` (native): a location
    printed before its source line, not after it as in long style."""
    if text.startswith('File "'):
        return True
    m = p.LOCATION_RE.match(text)
    return m is not None and (m.group(3) or "").startswith("in ")
