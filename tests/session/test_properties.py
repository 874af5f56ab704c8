"""Properties of session memory over random sequences of runs, edits and boundaries in several
contexts (two sessions; in one the main agent and two subagents):

- a line that refers back (a repeat, a re-read, an unchanged failure) names a call of the same
  context, made since the last boundary, that showed exactly that output or that failure;
- so an edit that changes the output is never called unchanged, contexts never see each other's
  references, and after a boundary nothing refers back.

Outputs are generated: a reader's (no volatile words: every byte counts) and a test runner's in
pytest's filtered shape (failure blocks, a summary with a random duration, object addresses).
Runner texts hold no digits of their own, so only the generated durations and addresses are volatile.
"""
from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk.session import boundary
from rtk.session.identity import Context
from rtk.session.memory import Memory

CONTEXTS = [Context("claude", "s1"), Context("claude", "s1", "a1"), Context("claude", "s1", "a2"),
            Context("claude", "s2")]
COMMANDS = [(["git", "status"], "git"), (["git", "diff"], "git"), (["pytest", "-q"], "pytest")]
REFERENCE = re.compile(r"(?:printed exactly what call|unchanged since call) (\d+)")
WORDS = st.text(alphabet="abcdefghij _-.:=()'", min_size=20, max_size=60)
EXAMPLES = itertools.count()
# long enough that a line referring back is shorter than the output (else the output is printed)
READER_TEXT = st.text(alphabet="abc0123456789 \n.:", min_size=250, max_size=600)


@st.composite
def runner_output(draw: st.DrawFn) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Failures: (id, body lines); ids and bodies without digits."""
    count = draw(st.integers(0, 4))
    return tuple((f"t.py::test_{draw(st.text(alphabet='abcdef', min_size=1, max_size=3))}_{'x' * i}",
                  tuple(draw(st.lists(WORDS, min_size=2, max_size=5)))) for i in range(count))


@st.composite
def edited(draw: st.DrawFn, old: tuple[tuple[str, tuple[str, ...]], ...]) -> object:
    """A fix or a new bug: each failure kept, changed (one body line) or gone; perhaps a new one."""
    out = []
    for test_id, body in old:
        fate = draw(st.sampled_from(["keep", "keep", "change", "gone"]))
        if fate == "change":
            at = draw(st.integers(0, len(body) - 1))
            body = (*body[:at], draw(WORDS), *body[at + 1:])
        if fate != "gone":
            out.append((test_id, body))
    return tuple(out) + draw(runner_output()) if draw(st.booleans()) else tuple(out)


def render(command: int, content: object, rng: st.DrawFn) -> str:
    if COMMANDS[command][1] != "pytest":
        return str(content)
    lines = []
    for test_id, body in content:  # type: ignore[attr-defined]
        lines += [f"FAILED {test_id}", *(f"E   {text} at 0x{rng(st.integers(0x100000, 0xffffff)):x}"
                                          for text in body)]
    seconds = rng(st.floats(0.01, 99, allow_nan=False)).__round__(2)
    lines.append(f"pytest: {len(content)} failed, 3 passed in {seconds}s")  # type: ignore[arg-type]
    return "\n".join(lines) + "\n"


RUN = st.tuples(st.just("run"), st.integers(0, len(CONTEXTS) - 1), st.integers(0, len(COMMANDS) - 1))
OPS = st.one_of(
    RUN, RUN, RUN,
    st.tuples(st.just("edit"), st.integers(0, len(COMMANDS) - 1)),
    st.tuples(st.just("boundary"), st.sampled_from(["claude|s1", "claude|s2"])),
)


class Model:
    """Per context: its call count and, since the last boundary, what each call showed."""

    def __init__(self) -> None:
        self.calls = {c.key: 0 for c in CONTEXTS}
        self.shown: dict[str, dict[int, tuple[int, object, set[str]]]] = {c.key: {} for c in CONTEXTS}

    def boundary(self, session_key: str) -> None:
        for key in self.shown:
            if key.startswith(session_key + "|"):
                self.shown[key] = {}


def _failure_texts(text: str) -> dict[str, str]:
    """Each failure block (first line -> the block with addresses and durations aside)."""
    blocks: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("FAILED "):
            current = line
            blocks[current] = ""
        elif line.startswith("E ") and current:
            blocks[current] += re.sub(r"0x[0-9a-f]+", "#", line) + "\n"
        else:
            current = None
    return blocks


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_references_point_at_what_the_same_context_was_shown_since_its_boundary(data: st.DataObject,
                                                                                  tmp_path: Path) -> None:
    os.environ["XDG_DATA_HOME"] = str(tmp_path / f"d{next(EXAMPLES)}")  # a store of its own per example
    model = Model()
    contents: list[object] = [data.draw(READER_TEXT), data.draw(READER_TEXT), data.draw(runner_output())]
    for op in data.draw(st.lists(OPS, min_size=5, max_size=40)):
        if op[0] == "edit":
            old = contents[op[1]]
            contents[op[1]] = data.draw(edited(old) if COMMANDS[op[1]][1] == "pytest" else READER_TEXT)
        elif op[0] == "boundary":
            boundary.mark(op[1], "test")
            model.boundary(op[1])
        else:
            _run(model, CONTEXTS[op[1]], op[2], contents[op[2]], data.draw)


def _run(model: Model, context: Context, command: int, content: object, draw: st.DrawFn) -> None:
    argv, filter_name = COMMANDS[command]
    text = render(command, content, draw)
    memory = Memory(context, argv, filter_name, cwd="/p")
    memory.raw(text.encode())
    out = memory.apply([(line, 1) for line in text.splitlines()], "abcdef012345", False, 1)
    printed = "\n".join(line for line, _ in out)
    model.calls[context.key] += 1
    call = model.calls[context.key]
    shown = model.shown[context.key]
    failures = _failure_texts(text)
    for match in REFERENCE.finditer(printed):
        earlier = int(match[1])
        assert earlier in shown, f"call {call} of {context.key} refers to call {earlier}, not shown since a boundary"
        was_command, was_content, was_failures = shown[earlier]
        if printed.startswith("[rtk: `"):  # an exact repeat
            assert (was_command, was_content) == (command, content), "an output that changed called unchanged"
        else:
            line = printed[:match.start()].rsplit("\n", 1)[-1].rsplit("  [", 1)[0]
            assert failures[line] in was_failures, "a failure that changed called unchanged"
    if not printed.startswith("[rtk: `"):
        full = {failures[line] for line in printed.splitlines() if line in failures}
        shown[call] = (command, content, full)
