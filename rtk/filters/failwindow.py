"""A failing run's window: Claude Code shows a failing command's output whole only up to ~11,000
chars; past that the model gets its first and last 5,000 chars and `... [N characters truncated]
...` between (measured on 2.1.337, spec/post-path.md). A 14-failure `pytest -q` lost the error
lines of 8 failures that way. So under that host a failing run's rtk form fits `limit` (10,000)
chars, in the order an agent fixing tests needs it: every failing id and their count first,
then as many failure bodies as fit (first failures first), then the summary and the recall hint.

Which lines open a failure is the filter's knowledge: it gives `failure_head(line) -> bool`
(pytest: `FAILED id`, `ERROR at setup of id`). A head ending with `:` lists more ids on the
indented lines after it (`FAILED 2 more tests (same as above):`). Lines written before the first
head are the prefix (banners), lines after `summary_starts()` the summary (the filter's closing
lines). Memory stays bounded: ids, bodies, prefix and summary each keep at most the window.
"""
from __future__ import annotations

from rtk.filters.base import deque, plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

Item = tuple[str, object]
PREFIX_SHARE, SUMMARY_SHARE = 0.10, 0.25  # of the window, at most, before the first head / for the summary
IDS_SHARE = 0.6  # of the room, when the ids alone would overflow it
MIN_PART = 400  # chars left for a body below which a cut one is not worth its marker


class FailWindow:
    """Lines in (`add`), at the end the window's form (`render`) or None when it has nothing to add."""

    def __init__(self, limit: int, failure_head: Callable[[str], bool], marker_tag: object = None) -> None:
        self.limit = limit
        self.is_head = failure_head
        self.marker_tag = marker_tag
        self.chars = 0
        self.prefix: list[Item] = []
        self.prefix_chars = 0
        self.prefix_left_out = 0  # lines before the first failure past PREFIX_SHARE
        self.ids: list[Item] = []  # every block's head and the ids it lists
        self.ids_chars = 0
        self.ids_left_out = 0
        self.failures = 0
        self.bodies: list[tuple[list[Item], int]] = []  # the first blocks (lines, lines not kept)
        self.body_chars = 0
        self.with_body = 0  # blocks with more than their ids, kept or not
        self.dropped = 0  # lines of the block being read past the window
        self.block: list[Item] | None = None  # the block being read (None before the first head)
        self.listing = False  # the head ended with `:` and its indented lines are ids
        self.summary: deque[Item] = deque()
        self.summary_chars = 0
        self.in_summary = False

    def sure(self) -> bool:
        """Whether everything added so far stands first in the form whatever comes (the prefix)."""
        return self.block is None and not self.in_summary and self.prefix_chars <= self.limit * PREFIX_SHARE

    def summary_starts(self) -> None:
        self._end_block()
        self.in_summary = True

    def add(self, text: str, tag: object = None) -> None:
        self.chars += len(text) + 1
        if self.in_summary:
            self._add_summary((text, tag))
        elif self.is_head(text):
            self._end_block()
            self.block, self.listing, self.dropped = [(text, tag)], text.endswith(":"), 0
            self.failures += not self.listing  # `FAILED 2 more tests (same as above):` counts its list
            self._add_id((text, tag))
        elif self.block is None:
            self.prefix_chars += len(text) + 1
            if self.prefix_chars <= self.limit * PREFIX_SHARE:
                self.prefix.append((text, tag))
            else:
                self.prefix_left_out += 1
        else:
            if self.listing and text.startswith("  ") and text[2:3] != " ":
                self.failures += 1
                self._add_id((text, tag))
            else:
                self.listing = False
            if self.body_chars + _size(self.block) <= self.limit:
                self.block.append((text, tag))
            else:
                self.dropped += 1

    def _add_id(self, item: Item) -> None:
        if self.ids_chars + len(item[0]) + 1 <= self.limit:
            self.ids.append(item)
            self.ids_chars += len(item[0]) + 1
        else:
            self.ids_left_out += 1

    def _add_summary(self, item: Item) -> None:
        self.summary.append(item)
        self.summary_chars += len(item[0]) + 1
        while self.summary_chars > self.limit * SUMMARY_SHARE and len(self.summary) > 1:
            self.summary_chars -= len(self.summary.popleft()[0]) + 1

    def _end_block(self) -> None:
        block, self.block = self.block, None
        if block is None or (len(block) == 1 and not self.dropped) or _listing_only(block):
            return
        self.with_body += 1
        if self.body_chars <= self.limit:
            self.bodies.append((block, self.dropped))
            self.body_chars += _size(block)

    def render(self, hint: str | None, recall_id: str | None = None) -> list[Item] | None:
        """The window's form when the output is over the window and names its failures, else None."""
        self._end_block()
        if self.chars <= self.limit or not self.ids:
            return None
        summary = [item for item in self.summary if item[0] != hint]
        prefix = self.prefix + ([(f"... {self.prefix_left_out:,} more lines before the first failure",
                                  self.marker_tag)] if self.prefix_left_out else [])
        tail = [*summary, *([(hint, self.marker_tag)] if hint else [])]
        room = self.limit - _size(prefix) - _size(tail) - 300
        if self.ids_left_out or self.ids_chars > room:  # not all fit anyway: leave room for the first bodies
            room = int(room * IDS_SHARE)
        ids = self._ids_within(room, recall_id)
        room = self.limit - _size(prefix) - _size(tail) - _size(ids) - 200
        bodies, shown = self._bodies_within(room)
        out = [*prefix, *ids, *bodies]
        if self.with_body > shown:
            more = plural(self.with_body - shown, "more failure")
            out.append((f"[rtk: the bodies of {more} are left out to fit the host's window for a failing command]",
                        self.marker_tag))
        return [*out, *tail]

    def _ids_within(self, room: int, recall_id: str | None) -> list[Item]:
        text = f"[rtk: {plural(self.failures, 'failure')}: every id first, then the bodies that fit the host's window]"
        head = (text, self.marker_tag)
        ids = self._within(self.ids, room - len(head[0]) - 80)
        left = len(self.ids) - len(ids) + self.ids_left_out
        where = f"rtk recall {recall_id}" if recall_id else "not kept"
        more = [(f"... {plural(left, 'more failing id')} ({where})", self.marker_tag)] if left else []
        return [head, *ids, *more]

    def _bodies_within(self, room: int) -> tuple[list[Item], int]:
        """Whole blocks with a body, in order, while they fit; the first that does not is cut
        when enough room is left, so one long first failure does not hide all the others."""
        out: list[Item] = []
        shown = 0
        for block, dropped in self.bodies:
            size = _size(block)
            if size <= room and not dropped:
                out.extend(block)
                room -= size
                shown += 1
                continue
            if room >= MIN_PART:
                part = self._within(block, room - 120)
                out.extend(part)
                out.append((f"... {len(block) + dropped - len(part):,} more lines of this failure",
                            self.marker_tag))
                shown += 1
            break
        return out, shown

    @staticmethod
    def _within(items: list[Item], room: int) -> list[Item]:
        out: list[Item] = []
        for item in items:
            room -= len(item[0]) + 1
            if room < 0:
                break
            out.append(item)
        return out


def _listing_only(block: list[Item]) -> bool:
    """A head listing more ids (`FAILED 2 more tests (same as above):`) and nothing else."""
    return block[0][0].endswith(":") and all(text.startswith("  ") for text, _ in block[1:])


def _size(items: list[Item]) -> int:
    return sum(len(text) + 1 for text, _ in items)
