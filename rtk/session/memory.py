"""One call's session memory: the run path and the post path hand it the raw output as it arrives
and, at the end, the lines they are about to print; it gives back what to print instead.

- an exact repeat (same argv and cwd, same output with the tool's volatile words aside, same exit
  code) of a call this context was shown: one line naming that call and the recall id;
- a re-read of a file and range unchanged since it was shown: one line (path, range, call, hash);
  a changed one prints whole, after a line saying it changed since call N;
- a rerun of a test, build or lint command: each failure block identical to one shown before
  keeps its first line (the id) and says since which call; new and changed blocks print in full,
  counts and summaries always print; ids failing last time and not now are named.

Anything that goes wrong gives back the lines unchanged (fails open). Nothing is decided when
the raw output exceeds MAX_RAW (it is not held) or the output was folded to the host's limit.
"""
from __future__ import annotations

import os
import sys
import time

from rtk.session import boundary, items, store, volatile, wording
from rtk.session.reads import bash_read

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtk.session.identity import Context
    from rtk.session.store import State
    from rtk.session.wording import Shown

    Lines = list[tuple[str, object]]

MAX_RAW = 8 * 1024 * 1024
MAX_IDS = 300


class Memory:
    def __init__(self, context: Context, argv: list[str], filter_name: str, cwd: str | None = None) -> None:
        self.context, self.argv, self.filter_name = context, list(argv), filter_name
        self.cwd = cwd or os.getcwd()
        self.chunks: list[bytes] = []
        self.size = 0
        self.exit_code = 0
        self.raw_printed = False  # the pipeline printed the raw output (it was no larger)
        self.read = bash_read(self.argv, self.cwd)
        self.kind = ""  # what the last apply did, for accounting and tests
        self.recall: str | Callable[[], str | None] | None = None

    def raw(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.size <= MAX_RAW:
            self.chunks.append(chunk)
        else:
            self.chunks = []

    def apply(self, lines: Lines, recall: str | Callable[[], str | None] | None, folded: bool,
              tag: object) -> Lines:
        """`recall`: this run's recall id, or a function keeping the raw output and giving its id
        (called only when a line will name it)."""
        if self.size > MAX_RAW:
            return lines
        try:
            return self._apply(lines, recall, folded, tag)
        except Exception as exc:  # noqa: BLE001 - memory never costs an output
            try:
                print(f"rtk: session memory skipped ({type(exc).__name__}: {exc})", file=sys.stderr)
            except (OSError, ValueError):
                pass
            return lines

    def _apply(self, lines: Lines, recall: str | Callable[[], str | None] | None, folded: bool,
               tag: object) -> Lines:
        now = time.time()
        raw = volatile.normalised(b"".join(self.chunks), self.filter_name)
        digest = volatile.fingerprint(raw, f"exit {self.exit_code}")
        key = self._key()
        with store.Locked(self.context.key) as state:
            reason = boundary.transcript_moved(state, self.context.transcript)
            if reason:
                boundary.clear(state, reason, now)
            state["calls"] += 1
            call = state["calls"]
            earlier = state["shown"].get(key)
            same = earlier is not None and earlier[store.DIGEST] == digest
            line = self._repeat_line(earlier, digest, "0" * 12) if same else None  # its length
            if line is not None and len(line) < _chars(lines):
                out = [(self._repeat_line(earlier, digest, _recall_id(recall)), tag)]  # type: ignore[arg-type]
            else:
                # a first run, a changed output, or a repeat shorter than the line saying so
                self.recall = recall  # a delta's note names it
                out = lines if line is not None else self._fresh(state, lines, earlier, call, now, folded, tag)
                self.kind = "short" if line is not None else self.kind
                kept = recall if isinstance(recall, str) else None
                store.remember(state, key, call, now, digest, kept, tuple(self._ids(lines, folded))[:MAX_IDS])
            store.log(state, call, now, self.kind, self._command(), _chars(lines), _chars(out))
        return out

    def _key(self) -> str:
        if self.read is not None:
            return f"read|{self.read[0]}|{self.read[1]}"
        return "cmd|" + self.cwd + "|" + "\0".join(self.argv)

    def _repeat_line(self, earlier: Shown, digest: str, recall_id: str | None) -> str:
        self.kind = "repeat"
        if self.read is not None:
            self.kind = "reread"
            return wording.reread(self.read[0], self.read[1], earlier, digest, recall_id)
        timings = self.filter_name in volatile.RUNNERS
        return wording.repeat(self._command(), self.exit_code, earlier, recall_id, timings)

    def _fresh(self, state: State, lines: Lines, earlier: Shown | None, call: int, now: float,
               folded: bool, tag: object) -> Lines:
        self.kind = "first" if earlier is None else "changed"
        out = lines
        spec = items.SPECS.get(self.filter_name)
        if spec is not None and not folded and not self.raw_printed:
            out = self._deltas(state, lines, spec, earlier, call, now, tag)
        if self.read is not None and earlier is not None:
            out = [(wording.changed(self.read[0], earlier), tag), *out]
        return out

    def _deltas(self, state: State, lines: Lines, spec: items.Spec, earlier: Shown | None, call: int,
                now: float, tag: object) -> Lines:
        seen = state["items"].setdefault(f"{self.filter_name}|{self.cwd}", {})
        out: Lines = []
        marked: dict[int, float] = {}  # the calls the marks refer to, with their times
        after_items = 0
        parts = items.split([text for text, _ in lines], spec)
        tags = iter(stream for _, stream in lines)
        for item_id, texts in parts:
            streams = [next(tags) for _ in texts]
            if item_id is None or len(texts) < 2:
                out.extend(zip(texts, streams))
                after_items = len(out) if item_id is not None else after_items
                continue
            fp = volatile.text_fingerprint("\n".join((item_id, *texts)))  # the id holds a diff's file
            before = seen.get(fp)
            marker = wording.unchanged_item(texts[0], before[0]) if before else ""
            if before is not None and before[0] < call and len(marker) < sum(len(t) + 1 for t in texts):
                out.append((marker, streams[0]))
                marked[before[0]] = before[1]
                after_items = len(out)
                continue
            seen.pop(fp, None)
            seen[fp] = (call, now)
            out.extend(zip(texts, streams))
            after_items = len(out)
        gone = self._gone(earlier, {i for i, _ in parts if i is not None}) if spec.failures else []
        notes = [wording.no_longer_failing(gone, earlier[0])] if gone else []  # type: ignore[index]
        if marked:
            hinted = any(text.startswith(wording.RECALL_HINT) for text, _ in lines)
            notes.append(wording.unchanged_note(marked, None if hinted else _recall_id(self.recall)))
        if notes:  # after the last failure, before the counts
            out[after_items:after_items] = [(note, tag) for note in notes]
        if not notes or _chars(out) >= _chars(lines):
            return lines  # nothing to say, or saying it costs more than the output itself
        self.kind = "delta"
        return out

    def _ids(self, lines: Lines, folded: bool) -> list[str]:
        spec = items.SPECS.get(self.filter_name)
        if spec is None or folded or self.raw_printed:
            return []
        return [i for i, _ in items.split([text for text, _ in lines], spec) if i is not None]

    def _gone(self, earlier: Shown | None, now_ids: set[str]) -> list[str]:
        if earlier is None:
            return []
        return [i for i in earlier[4] if i not in now_ids]  # store.IDS

    def _command(self) -> str:
        from rtk import redact
        from rtk.shell.quote import join_words

        return join_words(redact.argv(self.argv))


def _recall_id(recall: str | Callable[[], str | None] | None) -> str | None:
    return recall() if callable(recall) else recall


def _chars(lines: Lines) -> int:
    return sum(len(text) + 1 for text, _ in lines)

