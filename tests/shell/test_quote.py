"""`join_words` writes what `shlex.join` writes (recall entries and the status line name commands)."""
from __future__ import annotations

import shlex

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.shell.quote import join_words, quote_word


@settings(max_examples=3000)
@given(st.lists(st.text(max_size=12) | st.sampled_from(["", "'", "a b", "--x=1", "é", "$HOME", "a'b"]),
                max_size=6))
def test_join_words_is_shlex_join(words: list[str]) -> None:
    assert join_words(words) == shlex.join(words)


def test_quote_examples() -> None:
    assert quote_word("git") == "git" and quote_word("") == "''"
    assert quote_word("it's") == "'it'\"'\"'s'" and quote_word("é") == "'é'"
