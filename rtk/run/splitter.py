"""Turns a stream of byte chunks into lines, whatever the chunk boundaries.

Trio gives chunks, not lines. The splitter ends lines at `\n` (and `\r\n`), reduces lone-`\r`
progress redraws to their final state, flushes an unterminated last line at EOF, decodes
invalid UTF-8 with replacement characters, and caps a line's length so a binary or newline-free
stream cannot grow rtk's memory: a line longer than the cap is too long to filter and passes
through byte-identical instead (`parts` hands it over as raw bytes, as they arrive, never held
whole). It also notes whether the stream held invalid UTF-8
(`replaced`), so the pipeline can say once that bytes were changed: an incremental strict
decoder over the raw chunks, skipped for ASCII chunks, so a sequence split across chunks is fine.
"""
from __future__ import annotations

import codecs

MAX_LINE_BYTES = 1024 * 1024  # a minified JSON document is one line: keep it whole up to 1 MiB


class LineSplitter:
    def __init__(self, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self._pending = b""
        self._max = max_line_bytes
        self.replaced = False  # some bytes were not valid UTF-8 and are shown as U+FFFD
        self._strict = codecs.getincrementaldecoder("utf-8")()
        self.passing = False  # inside a line over the cap: its bytes pass through until its newline

    @property
    def room(self) -> int:
        """How many bytes can come before the pending line would be over the cap."""
        return self._max - len(self._pending)

    def parts(self, chunk: bytes) -> list[tuple[bool, bytes]]:
        """`chunk` as (raw, data) pieces in order: raw pieces belong to a line over the cap and
        are printed as they are; the others go to `feed`/`take` and hold no such line."""
        out: list[tuple[bool, bytes]] = []
        while chunk:
            if self.passing:
                newline = chunk.find(b"\n")
                if newline < 0:
                    out.append((True, chunk))
                    return out
                out.append((True, chunk[:newline + 1]))
                self.passing, chunk = False, chunk[newline + 1:]
                continue
            # the pending line is only the splitter's own before the first text piece is handed out
            chunk = self._text_part(chunk, out, self._pending if not out else b"")
        return out

    def _text_part(self, chunk: bytes, out: list[tuple[bool, bytes]], pending: bytes) -> bytes:
        """Append the text piece at the start of `chunk` (and the long line after it, if any);
        what is left to split."""
        newline = chunk.find(b"\n")
        if len(pending) + (newline if newline >= 0 else len(chunk)) > self._max:
            if pending:
                self._pending = b""
            return self._start_passing(pending, chunk, 0, newline, out)
        if len(chunk) <= self._max:  # then no later line of it can be over the cap
            out.append((False, chunk))
            return b""
        pos = newline + 1 if newline >= 0 else len(chunk)
        while pos < len(chunk):
            nxt = chunk.find(b"\n", pos)
            end = nxt if nxt >= 0 else len(chunk)
            if end - pos > self._max:
                out.append((False, chunk[:pos]))
                return self._start_passing(b"", chunk, pos, nxt, out)
            pos = end + 1
        out.append((False, chunk))
        return b""

    def _start_passing(self, head: bytes, chunk: bytes, start: int, newline: int,
                       out: list[tuple[bool, bytes]]) -> bytes:
        """The line from `head` + chunk[start:] is over the cap: it goes out raw up to its newline."""
        self._strict.reset()  # its bytes are not decoded: a sequence cut at its start is not an error
        if newline < 0:
            out.append((True, head + chunk[start:]))
            self.passing = True
            return b""
        out.append((True, head + chunk[start:newline + 1]))
        return chunk[newline + 1:]

    def feed(self, chunk: bytes) -> list[str]:
        lines = self.lines_of(self.take(chunk))
        return lines + self.overflow() if len(self._pending) > self._max else lines

    def take(self, chunk: bytes) -> bytes:
        """The complete lines of what has arrived, as raw bytes ending in `\n` (b"" if none); the
        rest waits for more. For filters that work on bytes; `lines_of` turns them into lines."""
        if not self.replaced:
            self._check(chunk)
        data = self._pending + chunk if self._pending else chunk
        end = data.rfind(b"\n")
        self._pending = data[end + 1:]
        return data[:end + 1]

    def lines_of(self, body: bytes) -> list[str]:
        """`body` (from `take`) as the lines a reader sees."""
        if not body:
            return []
        body = body[:-1]
        if len(body) > self._max:  # a complete line may be over the cap: cut it as if it had streamed
            return [piece for line in body.split(b"\n") for piece in self._pieces(line)]
        return _decode_lines(body)

    def overflow(self) -> list[str]:
        """Pieces of an unterminated line that grew over the cap (memory stays bounded)."""
        return self._cut_overlong() if len(self._pending) > self._max else []

    def flush(self) -> list[str]:
        """The unterminated last line at EOF, if any."""
        self.passing = False
        pending, self._pending = self._pending, b""
        if not self.replaced:
            self._check(b"", final=True)
        if pending.endswith(b"\r"):
            pending = pending[:-1]
        return _decode_shown(pending) if pending else []

    def _check(self, chunk: bytes, final: bool = False) -> None:
        if chunk.isascii() and not final and not self._strict.getstate()[0]:
            return  # nothing pending from the last chunk: ASCII is valid UTF-8
        try:
            self._strict.decode(chunk, final)
        except UnicodeDecodeError:
            self.replaced = True

    def _cut_overlong(self) -> list[str]:
        pieces, self._pending = self._cut(_final_redraw(self._pending))
        return pieces

    def _cut(self, line: bytes) -> tuple[list[str], bytes]:
        """Pieces of the cap's size from the start of `line`, and what is left (at most the cap).
        The cut points depend on the line only, never on where the chunks ended."""
        pieces = []
        while len(line) > self._max:
            cut = self._max
            while cut > self._max - 4 and (line[cut] & 0xC0) == 0x80:
                cut -= 1  # do not split a UTF-8 sequence
            pieces.append(_decode(line[:cut]))
            line = line[cut:]
        return pieces, line

    def _pieces(self, line: bytes) -> list[str]:
        if len(line) <= self._max:
            return _decode_shown(line)
        pieces, rest = self._cut(_final_redraw(line))
        return [*pieces, _decode(rest)]


def _final_redraw(line: bytes) -> bytes:
    """What a terminal shows after `a\\rb\\rc`: the text after the last non-trailing `\\r`."""
    body = line[:-1] if line.endswith(b"\r") else line
    cr = body.rfind(b"\r")
    return line[cr + 1:] if cr >= 0 else line


def _decode_lines(body: bytes) -> list[str]:
    """Complete lines; decoding them in one call is several times faster than line by line."""
    if b"\r" in body:
        return [shown for part in body.split(b"\n") for shown in _decode_shown(part)]
    return body.decode("utf-8", "replace").split("\n")


def _decode_shown(line: bytes) -> list[str]:
    """The line a terminal shows after its redraws, preceded by the state it overwrote last when
    that was another message rather than the same one redrawn: `Rebasing (4/7)\rAuto-merging x`
    is where a rebase stopped, `Receiving objects: 10%\rReceiving objects: 100%` one line."""
    if b"\r" not in line:
        return [_decode(line)]
    body = line[:-1] if line.endswith(b"\r") else line
    cr = body.rfind(b"\r")
    # the last state before the final one, stepping over line erases (`\r` + spaces, `\x1b[K`)
    shown = [s for s in body[:max(cr, 0)].split(b"\r") if s.replace(b"\x1b[K", b"").strip()]
    previous = shown[-1] if cr >= 0 and shown else b""
    final = _decode(line)
    word = _first_word(previous)
    if word and _first_word(body[cr + 1:]) not in (word, b""):
        return [_decode(previous), final]
    return [final]


def _first_word(segment: bytes) -> bytes:
    """The first run of letters: what tells one message from a redraw of the same one."""
    start = next((i for i, b in enumerate(segment) if 97 <= (b | 32) <= 122), -1)
    if start < 0:
        return b""
    end = start
    while end < len(segment) and 97 <= (segment[end] | 32) <= 122:
        end += 1
    return segment[start:end]


def _decode(line: bytes) -> str:
    if b"\r" in line:
        line = _final_redraw(line)
        if line.endswith(b"\r"):
            line = line[:-1]
    try:
        return line.decode()
    except UnicodeDecodeError:
        return line.decode("utf-8", "replace")
