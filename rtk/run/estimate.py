"""A cheap stand-in for a BPE token count (cl100k), for comparing two renderings of one output.

Close to the pre-tokenizer of BPE encodings: a word with its leading space, up to three digits
(no space: ` 20` is two pieces), a run of punctuation with its leading space, a run of
whitespace; each piece is at least one token. That is the regex `PIECE_PATTERN`, whose matches
`pieces()` counts without `re` for short texts: the pipeline asks on nearly every run (is the
filtered form of a short output clearly smaller?), and importing `re` costs more than a `git
status` takes. Long texts go to the compiled regex; a property test holds the two equal.
"""
from __future__ import annotations

from rtk.filters.base import LazyPattern

PIECE_PATTERN = r" ?[^\W\d_]+|\d{1,3}| ?[^\w\s]+|\s+"
SHORT_TEXT = 16 * 1024  # past this the regex is cheaper than its import

LETTER, DIGIT, SPACE, PUNCT, NONE = "L", "D", "S", "P", "_"  # `_` is \w but in no piece
_ASCII_CLASSES = {
    code: (SPACE if ch.isspace() else DIGIT if ch.isdecimal() else LETTER if ch.isalnum()
           else NONE if ch == "_" else PUNCT)
    for code, ch in ((code, chr(code)) for code in range(128))
}
_PIECES = LazyPattern(PIECE_PATTERN)


def pieces(text: str) -> int:
    """How many matches `PIECE_PATTERN` finds in `text` (re.findall's count)."""
    if len(text) > SHORT_TEXT:
        return _regex_pieces(text)
    classes = text.translate(_ASCII_CLASSES) if text.isascii() else "".join(map(_class_of, text))
    count, i, end = 0, 0, len(classes)
    while i < end:
        kind = classes[i]
        if kind == NONE:
            i += 1
            continue
        if kind == SPACE and text[i] == " " and i + 1 < end and classes[i + 1] in (LETTER, PUNCT):
            i += 1  # one plain space opens the word or punctuation run after it
            kind = classes[i]
        j = i + 1
        while j < end and classes[j] == kind:
            j += 1
        count += (j - i + 2) // 3 if kind == DIGIT else 1
        i = j
    return count


def _class_of(ch: str) -> str:
    """The regex's view of one character: `\\s`, `\\d`, other `\\w`, `_`, or none of them."""
    if ch.isspace():
        return SPACE
    if ch.isalnum():
        return DIGIT if ch.isdecimal() else LETTER
    return NONE if ch == "_" else PUNCT


def _regex_pieces(text: str) -> int:
    return len(_PIECES.get().findall(text))
