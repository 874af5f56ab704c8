"""--tb=line: each failure is its message lines (E lines, a diff, captured output), then one
`path:line: message` crash line.

The crash line keeps its place and words, its path as pytest printed it (absolute). Failures
in a row crashing on the same line with the same message and no message lines of their own
(seven tests hitting one broken helper) print it once, `(x7)`: the line is held until the next
different one. An E line the crash line repeats goes.
"""
from __future__ import annotations

from rtk.filters.pytest import patterns as p
from rtk.filters.pytest.block import Block, Caps


class LineMode:
    def __init__(self, caps: Caps) -> None:
        self._caps = caps
        self._block: Block | None = None
        self._crash: tuple[str, int] = ("", 0)  # the held crash line, how many failures printed it
        self.elided = False

    @staticmethod
    def is_crash(line: str) -> bool:
        m = p.LOCATION_RE.match(line)
        return m is not None and bool(m.group(3)) and not m.group(3).startswith("in ")

    def detail(self, line: str) -> None:
        """A message line of the next failure."""
        if line.strip():
            if self._block is None:
                self._block = Block("", self._caps, indented_is_message=True)
            self._block.add(line)

    def crash(self, crash: str) -> list[str]:
        details = self._close_block(crash=crash)
        if not details and self._crash[0] == crash:
            self._crash = (crash, self._crash[1] + 1)
            return []
        out = self._flush_crash()
        out.extend(details)
        self._crash = (crash, 1)
        return out

    def close(self) -> list[str]:
        out = self._flush_crash()
        out.extend(self._close_block())
        return out

    def _flush_crash(self) -> list[str]:
        crash, count = self._crash
        self._crash = ("", 0)
        if not count:
            return []
        return [f"{crash} (x{count})" if count > 1 else crash]

    def _close_block(self, crash: str = "") -> list[str]:
        block, self._block = self._block, None
        if block is None:
            return []
        lines = block.render()
        self.elided = self.elided or block.elided
        crash = p.ADDRESS_RE.sub("", crash)  # the E lines lost their addresses (block.py)
        return [t for t in lines if not (t.startswith("E ") and t[1:].strip() in crash)]
