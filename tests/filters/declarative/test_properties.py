"""Properties of the engine, checked on generated input (hypothesis)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.declarative.stages import Window, lines_marker
from tests.filters.declarative.helpers import one, run

LIMIT = st.one_of(st.none(), st.integers(min_value=0, max_value=8))


def reference(lines: list[str], head: int | None, tail: int | None, cap: int | None) -> list[str]:
    """The Rust rtk's head/tail/max arithmetic on a whole list (src/core/toml_filter.rs)."""
    total, out = len(lines), list(lines)
    if head is not None and tail is not None:
        if total > head + tail:
            out = lines[:head] + [lines_marker(total - head - tail)] + (lines[total - tail:] if tail else [])
    elif head is not None and total > head:
        out = lines[:head] + [lines_marker(total - head)]
    elif tail is not None and total > tail:
        out = [lines_marker(total - tail)] + (lines[total - tail:] if tail else [])
    if cap is not None and len(out) > cap:
        out = out[:cap] + [lines_marker(len(out) - cap)]
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=30), LIMIT, LIMIT, LIMIT)
def test_the_streamed_window_equals_the_whole_list_arithmetic(count: int, head: int | None,
                                                             tail: int | None, cap: int | None) -> None:
    lines = [f"line {i}" for i in range(count)]
    window = Window(head, tail, cap)
    out = [kept for line in lines for kept in window.feed(line)] + window.finish()
    assert out == reference(lines, head, tail, cap)


SPEC = one('strip_ansi = true\nstrip_lines_matching = ["^#"]\nreplace = [{ pattern = "\\\\d+", replacement = "N" }]\n'
           'collapse = {}\ngroup = { pattern = "^(?P<key>[a-c]):(?P<item>.*)$", max_items = 3 }\n'
           'head_lines = 5\ntail_lines = 5\n')


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abc:#0123 \x1b[m\u00e9", max_size=12), max_size=60), st.integers(0, 3))
def test_same_input_same_output_and_kept_lines_come_from_the_input(lines: list[str], code: int) -> None:
    first, _ = run(SPEC, lines, code)
    second, _ = run(SPEC, lines, code)
    assert first == second
    assert len(first) <= len(lines) + 2 * len({line[:1] for line in lines}) + 2
