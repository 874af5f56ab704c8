"""Words back into one shell command line, as `shlex.join` writes it.

`shlex` compiles a regex at import; the run path names every command it records (recall
entries, the status line), so it quotes with string methods instead. A property test holds
`join_words` equal to `shlex.join`.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def quote_word(word: str) -> str:
    """`shlex.quote`: the word itself when no character needs quoting, else single-quoted."""
    if not word:
        return "''"
    if SAFE.issuperset(word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def join_words(words: Iterable[str]) -> str:
    return " ".join(quote_word(word) for word in words)
