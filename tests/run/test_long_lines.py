"""A line too long to filter (over the splitter's 1 MiB cap) passes through byte-identical, never
held whole and never cut (issue 35, item 3: a newline was inserted every MiB, silently)."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.base import Line, Stream
from rtk.run.pipeline import OutputPipeline, Writer
from rtk.run.splitter import LineSplitter
from tests.conftest import rtk_executable

CAP = 64  # a small cap for the unit tests: the same code paths as 1 MiB


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.integers(0, 3 * CAP), min_size=1, max_size=8), cuts=st.lists(st.integers(1, 5 * CAP),
                                                                                         max_size=12),
       final_newline=st.booleans())
def test_parts_give_every_byte_once_and_long_lines_raw(lines: list[int], cuts: list[int],
                                                       final_newline: bool) -> None:
    data = b"\n".join(bytes([97 + i % 26]) * n for i, n in enumerate(lines)) + (b"\n" if final_newline else b"")
    splitter = LineSplitter(CAP)
    raw, text = bytearray(), []
    pos = 0
    for size in [*cuts, len(data)]:
        chunk, pos = data[pos:pos + size], pos + size
        for is_raw, piece in splitter.parts(chunk):
            if is_raw:
                raw += piece
            else:
                text += splitter.feed(piece)
    text += splitter.flush()
    long = [bytes([97 + i % 26]) * n for i, n in enumerate(lines) if n > CAP]
    short = [bytes([97 + i % 26]) * n for i, n in enumerate(lines) if n <= CAP]
    assert bytes(raw).split(b"\n")[:len(long)] == long  # whole, in order, uncut
    assert len(raw) == sum(len(x) for x in long) + min(len(long), raw.count(b"\n"))
    assert [t.encode() for t in text] == short[:len(text)] and len(text) >= len(short) - 1


class Holds:
    """A filter that holds every line until the end (as the content filter does for short files)."""

    lossless = True

    def __init__(self) -> None:
        self.held: list[Line] = []
        self.elided = False

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        self.held.append(Line(f"kept: {line}", stream))
        return []

    def finish(self, exit_code: int) -> Iterable[Line]:
        held, self.held = self.held, []
        return held

    def progress(self) -> dict[str, int]:
        return {}


def _run(filt: Holds, data: bytes, hold: float | None) -> None:
    pipeline = OutputPipeline(filt, Writer(), None, filter_name="t", command="c", hold_seconds=hold)
    for start in range(0, len(data), 100_000):
        pipeline.feed(data[start:start + 100_000], Stream.STDOUT)
    pipeline.finish(0)


def test_a_long_line_in_a_short_output_prints_the_whole_output_raw(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    data = b"one\ntwo\n" + b"x" * (3 << 20) + b"\nthree\n"
    _run(Holds(), data, None)
    assert capfdbinary.readouterr().out == data


def test_what_a_filter_held_comes_out_before_the_long_line(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    head = b"".join(b"line %d\n" % i for i in range(100))  # past the hold: filtered output streams
    long = b"y" * (2 << 20) + b"\n"
    _run(Holds(), head + long + b"after\n", None)
    out = capfdbinary.readouterr().out
    assert out == b"".join(b"kept: line %d\n" % i for i in range(100)) + long + b"after\n"


def _md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


@pytest.mark.parametrize("newline", [b"\n", b""])
def test_a_100_mb_single_line_passes_rtk_byte_identical(newline: bytes, tmp_path: Path) -> None:
    """Through a real run (a fast child) and through `rtk pipe`: ~1 s each."""
    line = b"QUJD" * 25_000_000 + newline  # 100 MB, as a base64 blob would be
    env = {**os.environ, "RTK_TRACK": "0"}
    code = f"import sys; sys.stdout.buffer.write(b'QUJD' * 25_000_000 + {newline!r}); sys.exit(3)"
    run = subprocess.run([*rtk_executable(), sys.executable, "-c", code], capture_output=True, env=env,
                         timeout=120, check=False)
    assert run.returncode == 3 and len(run.stdout) == len(line) and _md5(run.stdout) == _md5(line)
    piped = subprocess.run([*rtk_executable(), "pipe", "-f", "generic"], input=line, capture_output=True,
                           env=env, timeout=120, check=False)
    assert piped.returncode == 0 and len(piped.stdout) == len(line) and _md5(piped.stdout) == _md5(line)


def test_rtk_cat_of_a_file_with_a_long_line_keeps_it_whole(tmp_path: Path) -> None:
    data = b"# header\n" + b"z" * (3 << 20) + b"\nend\n"
    path = tmp_path / "blob.txt"
    path.write_bytes(data)
    result = subprocess.run([*rtk_executable(), "cat", str(path)], capture_output=True, timeout=60, check=False)
    assert result.returncode == 0 and result.stdout == data


def test_a_long_line_under_a_host_budget_is_no_crash() -> None:
    """Under Claude Code (CLAUDECODE=1) the pipeline writes through the host budget's writer."""
    code = "import sys; sys.stdout.write('a\\n' + 'z' * (3 << 20) + '\\nend\\n'); sys.exit(4)"
    env = {**os.environ, "CLAUDECODE": "1", "RTK_TRACK": "0"}
    result = subprocess.run([*rtk_executable(), sys.executable, "-c", code], capture_output=True, env=env,
                            timeout=60, check=False)
    assert result.returncode == 4 and b"internal error" not in result.stderr and b"Traceback" not in result.stderr
    assert result.stdout.startswith(b"a\nzzz")
