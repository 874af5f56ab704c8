"""A write rtk makes on the run path that fails costs only what it would have stored (issue 35,
item 1): the output and the exit status stay the command's, with one `rtk:` line per store lost.

Two ways in: a real tmpfs filled to the brim holding the data dir (root only: skipped with the
reason elsewhere), and injected errors (ENOSPC, EDQUOT, EIO, EROFS) at every write call, which
run everywhere.
"""
from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rtk import recall
from rtk.filters.base import Line, Stream
from rtk.recall import RawSpool
from rtk.run.pipeline import OutputPipeline, Writer
from rtk.track import accounting
from tests.conftest import rtk_executable

ERRNOS = [errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS]
BIG = b"".join(b"line %06d of an output long enough to leave memory for the disk\n" % i for i in range(9000))


class DropHalf:
    """A filter that elides every other line, so the run wants a recall copy."""

    lossless = False

    def __init__(self) -> None:
        self.elided = False
        self.failure_seen = True
        self.count = 0

    def feed(self, line: str, stream: Stream) -> list[Line]:
        self.count += 1
        if self.count % 2:
            return [Line(line, stream)]
        self.elided = True
        return []

    def finish(self, exit_code: int) -> list[Line]:
        return []

    def progress(self) -> dict[str, int]:
        return {}


class FailingFile:
    """A spool file whose every write fails with `code` (the disk filled up mid-run)."""

    def __init__(self, code: int) -> None:
        self.code, self.closed = code, False

    def write(self, data: bytes) -> int:
        raise OSError(self.code, os.strerror(self.code))

    writelines = write

    def close(self) -> None:
        self.closed = True


def _pipeline(tmp_path: Path) -> tuple[OutputPipeline, RawSpool]:
    spool = RawSpool(tmp_path / "recall", 1 << 26)
    return OutputPipeline(DropHalf(), Writer(), spool, filter_name="t", command="cmd", hold_seconds=None), spool


@pytest.mark.parametrize("code", ERRNOS)
def test_a_spool_write_that_fails_costs_only_the_recall_copy(
        code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    monkeypatch.setattr(recall, "_open_private", lambda path: FailingFile(code))
    pipeline, spool = _pipeline(tmp_path)
    for start in range(0, len(BIG), 65536):
        pipeline.feed(BIG[start:start + 65536], Stream.STDOUT)
    outcome = pipeline.finish(1)
    out, err = capfdbinary.readouterr()
    expected = b"".join(line + b"\n" for line in BIG.split(b"\n")[:-1][::2])
    assert out == expected  # every kept line, and no hint naming an entry that does not exist
    assert outcome.recall_id is None and spool.problem == os.strerror(code)
    assert err.decode().splitlines() == [f"rtk: the raw output was not kept ({os.strerror(code)}); nothing to recall"]
    assert not [p for p in (tmp_path / "recall").iterdir()]  # nothing half-written stays


@pytest.mark.parametrize("code", ERRNOS)
@pytest.mark.parametrize("where", ["_write_entry", "_atomic_write"])
def test_storing_the_entry_that_fails_leaves_no_hint_and_no_debris(
        code: int, where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    real = getattr(recall, where)

    def half_then_fail(path: str, *args: object, **kwargs: object) -> None:
        real(path, *args, **kwargs)  # the file lands, then the disk fills: it must go again
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(recall, where, half_then_fail)
    pipeline, _ = _pipeline(tmp_path)
    pipeline.feed(BIG, Stream.STDOUT)
    assert pipeline.finish(0).recall_id is None
    out, err = capfdbinary.readouterr()
    assert b"rtk recall" not in out and b"not kept" in err
    assert not [p.name for p in (tmp_path / "recall").iterdir() if not p.name.startswith(".spool")]


@pytest.mark.parametrize("code", ERRNOS)
def test_stdout_on_a_full_disk_is_silenced_but_still_drained(code: int, monkeypatch: pytest.MonkeyPatch,
                                                             capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    real_write = os.write

    def write(fd: int, data: bytes) -> int:
        if fd == 1:
            raise OSError(code, os.strerror(code))
        return real_write(fd, data)

    writer = Writer()
    monkeypatch.setattr(os, "write", write)
    writer.write_bytes(b"a\n", Stream.STDOUT)
    writer.write_bytes(b"b\n", Stream.STDOUT)
    monkeypatch.undo()
    assert 1 in writer.failed and 1 not in writer.broken  # not "reader gone": no SIGPIPE for the child
    assert capfdbinary.readouterr().err.count(b"cannot write the output") == 1


@pytest.mark.parametrize("code", ERRNOS)
def test_a_tracking_spool_or_job_that_fails_is_one_line(code: int, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    queue = tmp_path / "queue"
    accountant = accounting.Accountant(["cmd"], "t", queue, 90)
    accountant.raw(b"x" * (accounting.INLINE_MAX + 10))  # spilled to a file
    real_fdopen = os.fdopen

    def fdopen(fd: int, *args: object, **kwargs: object) -> object:
        handle = real_fdopen(fd, *args, **kwargs)  # type: ignore[call-overload]
        handle.write = FailingFile(code).write
        return handle

    monkeypatch.setattr(os, "fdopen", fdopen)
    accountant.finish(accounting.RunRecord(["cmd"], "t", 0, 1, "/", 0.0, 10, 10))
    monkeypatch.undo()
    err = capfdbinary.readouterr().err
    assert len(err.splitlines()) <= 1 and b"Traceback" not in err
    assert not list(queue.iterdir()) or all(p.name == "worker.lock" for p in queue.iterdir())


# -- a real tmpfs filled to the brim ------------------------------------------------------------

@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root on Linux; the injected-error tests cover the same writes")
    where = tmp_path / "full"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                             capture_output=True, check=False)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.decode().strip()}); "
                    "the injected-error tests cover the same writes")
    try:
        (where / "rtk").mkdir()
        with open(where / "filler", "wb") as filler:
            try:
                while True:
                    filler.write(b"\0" * 65536)
                    filler.flush()
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _rtk(args: list[str], data_home: Path, stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home)}
    return subprocess.run([*rtk_executable(), *args], stdout=stdout, stderr=subprocess.PIPE,
                          env=env, timeout=60, check=False)


@pytest.mark.parametrize("code", [0, 1])
def test_full_data_disk_keeps_the_output_and_the_exit_status(code: int, full_disk: Path, tmp_path: Path) -> None:
    source = tmp_path / "big.txt"
    source.write_bytes(BIG * 2)  # 1.2 MB: well past the 256 KiB the spool keeps in memory
    result = _rtk(["sh", "-c", f"cat {source}; exit {code}"], full_disk)
    assert result.returncode == code
    assert result.stdout == BIG * 2 or result.stdout.startswith(BIG[:1000])
    assert len(result.stdout) >= len(BIG)
    assert b"internal error" not in result.stderr and b"Traceback" not in result.stderr
    cat = _rtk(["cat", str(source)], full_disk)
    assert cat.returncode == 0 and b"internal error" not in cat.stderr
    assert b"rtk recall" not in cat.stdout  # nothing was kept: no hint naming a missing entry
    assert all(line.startswith(b"rtk: ") for line in cat.stderr.splitlines())


def test_stdout_on_the_full_disk_keeps_the_exit_status(full_disk: Path, tmp_path: Path) -> None:
    with open(full_disk / "out.txt", "wb") as out:
        result = _rtk(["sh", "-c", "head -c 3000000 /dev/zero | tr '\\0' 'a'; echo; exit 3"], tmp_path, out.fileno())
    assert result.returncode == 3
    assert b"cannot write the output" in result.stderr and b"internal error" not in result.stderr
