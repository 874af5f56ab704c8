"""The recall store keeps what filters elide: bounded in size, in count and in age."""
from __future__ import annotations

import gzip
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtk import recall
from rtk.cli.recall import narrow
from rtk.recall import RawSpool


def spool_of(directory: Path, chunks: list[bytes], max_bytes: int = 1 << 20, **kw: int) -> RawSpool:
    spool = RawSpool(directory, max_bytes, **kw)
    for chunk in chunks:
        spool.write(chunk)
    return spool


def test_kept_entry_reads_back_byte_identical(tmp_path: Path) -> None:
    raw = b"".join(b"line %d \xff\r\n" % i for i in range(5000))
    entry_id = spool_of(tmp_path, [raw[:100], raw[100:]]).keep("cmd --x", 3)
    entry = recall.resolve(entry_id[:8], tmp_path)
    assert (entry.command, entry.exit_code, entry.size) == ("cmd --x", 3, len(raw))
    assert recall.read(entry, tmp_path) == raw
    assert oct((tmp_path / f"{entry_id}.gz").stat().st_mode & 0o777) == "0o600"


def test_id_depends_only_on_content(tmp_path: Path) -> None:
    first = spool_of(tmp_path, [b"abc", b"def"]).keep("a", 0)
    second = spool_of(tmp_path, [b"abcdef"]).keep("b", 1)
    assert first == second and len(first) >= 8


@settings(max_examples=200, deadline=None)
@given(sizes=st.lists(st.integers(0, 120_000), max_size=12), asked_at=st.integers(0, 12),
       max_bytes=st.sampled_from([1 << 20, 200_000, 100_000]))
def test_the_id_is_the_hash_of_every_byte_however_they_came(sizes: list[int], asked_at: int, max_bytes: int) -> None:
    """Whether the bytes stayed in memory, spilled to a file or rotated, and whenever the id was
    first asked for (the hash starts only then, or at the spill), it is the hash of all of them."""
    import tempfile
    from hashlib import blake2b

    chunks = [bytes([n % 251]) * size for n, size in enumerate(sizes)]
    with tempfile.TemporaryDirectory() as directory:
        spool = RawSpool(directory, max_bytes)
        for n, chunk in enumerate(chunks):
            if n == asked_at:
                assert spool.recall_id == blake2b(b"".join(chunks[:n]), digest_size=6).hexdigest()
            spool.write(chunk)
        whole = blake2b(b"".join(chunks), digest_size=6).hexdigest()
        assert spool.recall_id == whole
        assert spool.keep("cmd", 0) == whole
        if sum(sizes) <= max_bytes:  # (past it the tail is kept, with a marker)
            assert recall.read(recall.resolve(whole, directory), directory) == b"".join(chunks)


def test_gzip_bytes_are_deterministic(tmp_path: Path) -> None:
    entry_id = spool_of(tmp_path, [b"same"]).keep("a", 0)
    first = (tmp_path / f"{entry_id}.gz").read_bytes()
    time.sleep(1.1)
    spool_of(tmp_path, [b"same"]).keep("a", 0)
    assert (tmp_path / f"{entry_id}.gz").read_bytes() == first


def test_past_the_size_cap_the_tail_is_kept_with_a_marker(tmp_path: Path) -> None:
    chunks = [b"%06d\n" % i for i in range(10000)]  # 70,000 bytes through a 8 KiB cap
    entry_id = spool_of(tmp_path, chunks, max_bytes=8192).keep("big", 0)
    data = recall.read(recall.resolve(entry_id, tmp_path), tmp_path)
    first_line, _, body = data.partition(b"\n")
    assert first_line.startswith(b"[rtk: the first ") and b"bytes were dropped" in first_line
    assert len(body) == 8192 and body.endswith(b"009999\n")


def test_big_entries_are_stored_plain_and_streamed(tmp_path: Path) -> None:
    block = os.urandom(1 << 20)
    entry_id = spool_of(tmp_path, [block] * 5, max_bytes=64 << 20).keep("huge", 0)
    assert (tmp_path / f"{entry_id}.raw").stat().st_size == 5 << 20
    assert not (tmp_path / f"{entry_id}.gz").exists()


def test_discard_leaves_nothing(tmp_path: Path) -> None:
    spool_of(tmp_path, [b"x" * 5000], max_bytes=1024).discard()
    assert list(tmp_path.iterdir()) == []


def test_count_and_age_limits_are_applied_when_keeping(tmp_path: Path) -> None:
    ids = [spool_of(tmp_path, [b"entry %d" % i], max_entries=3).keep("c", 0) for i in range(5)]
    assert {e.id for e in recall.entries(tmp_path)} <= set(ids) and len(recall.entries(tmp_path)) == 3
    recall.prune(max_entries=200, retention_days=0, directory=tmp_path)
    assert recall.entries(tmp_path) == [] and not any(tmp_path.glob("*.gz"))


def test_unknown_and_ambiguous_ids(tmp_path: Path) -> None:
    with pytest.raises(recall.RecallError, match="no recall entry zzz"):
        recall.resolve("zzz", tmp_path)
    spool_of(tmp_path, [b"one"]).keep("a", 0)
    spool_of(tmp_path, [b"two"]).keep("b", 0)
    with pytest.raises(recall.RecallError):
        recall.resolve("", tmp_path)


@pytest.mark.parametrize(("pattern", "head", "tail", "expected"), [
    (None, None, None, b"a1\nb2\na3\nb4"),
    (rb"^a", None, None, b"a1\na3\n"),
    (None, 2, None, b"a1\nb2\n"),
    (None, None, 1, b"b4\n"),
    (rb"b", None, 1, b"b4\n"),
    (None, 0, None, b""),
])
def test_narrowing(pattern: bytes | None, head: int | None, tail: int | None, expected: bytes) -> None:
    import re

    compiled = re.compile(pattern) if pattern else None
    assert narrow(b"a1\nb2\na3\nb4", compiled, head, tail) == expected


def test_gz_entries_are_plain_gzip(tmp_path: Path) -> None:
    entry_id = spool_of(tmp_path, [b"hello\n"]).keep("a", 0)
    assert gzip.decompress((tmp_path / f"{entry_id}.gz").read_bytes()) == b"hello\n"


def test_prune_ranks_by_mtime_without_reading_and_spares_the_entry_just_kept(tmp_path: Path) -> None:
    kept = spool_of(tmp_path, [b"fresh"]).keep("a", 0)
    old = spool_of(tmp_path, [b"stale"]).keep("b", 0)
    (tmp_path / "broken.json").write_text("{not json")  # unreadable metadata still ages out
    week_ago = time.time() - 7 * 86400
    for name in (f"{kept}.json", f"{old}.json", "broken.json"):
        os.utime(tmp_path / name, (week_ago, week_ago))
    recall.prune(max_entries=200, retention_days=1, directory=tmp_path, keep=kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"{kept}.json", f"{kept}.gz"])


def test_a_kept_entry_reads_back_through_gzip(tmp_path: Path) -> None:
    entry_id = spool_of(tmp_path, [b"line one\n", b"line two\n"]).keep("c", 0)
    assert gzip.decompress((tmp_path / f"{entry_id}.gz").read_bytes()) == b"line one\nline two\n"
    assert recall.read(recall.resolve(entry_id, tmp_path), tmp_path) == b"line one\nline two\n"


# -- issue 35: a total size cap; `rtk recall` reads only the regular files rtk wrote -------------

def test_the_store_is_held_under_its_total_size_oldest_first(tmp_path: Path) -> None:
    ids = []
    for n in range(6):
        data = os.urandom(3000)  # incompressible: each entry takes ~3 KB on disk
        ids.append(spool_of(tmp_path, [data], max_total=10_000).keep(f"run {n}", 0))
        os.utime(tmp_path / f"{ids[-1]}.json", (1_000_000 + n, time.time() - 100 + n))
    recall.prune(200, 14, tmp_path, max_total=10_000)
    left = {e.id for e in recall.entries(tmp_path)}
    assert left == set(ids[-3:])  # 3 x ~3 KB fit under 10 KB; the oldest went first
    total = sum(p.stat().st_size for p in tmp_path.iterdir() if not p.name.startswith("."))
    assert total <= 10_000


def test_the_entry_just_kept_stays_even_over_the_cap(tmp_path: Path) -> None:
    entry_id = spool_of(tmp_path, [os.urandom(5000)], max_total=1000).keep("big", 0)
    assert [e.id for e in recall.entries(tmp_path)] == [entry_id]


def test_max_total_bytes_is_a_config_key_with_a_default() -> None:
    from rtk import config

    assert config.load().get("recall", "max_total_bytes") == recall.DEFAULT_MAX_TOTAL


def _planted(tmp_path: Path, make: str) -> recall.Entry:
    entry_id = spool_of(tmp_path, [b"the real output\n"]).keep("cmd", 0)
    stored = tmp_path / f"{entry_id}.gz"
    stored.unlink()
    target = tmp_path / "secret.txt"
    target.write_bytes(b"not rtk's\n")
    if make == "symlink":
        (tmp_path / f"{entry_id}.raw").symlink_to(target)
    elif make == "fifo":
        os.mkfifo(tmp_path / f"{entry_id}.raw")
    elif make == "hardlink":
        os.link(target, tmp_path / f"{entry_id}.raw")
    elif make == "directory":
        (tmp_path / f"{entry_id}.raw").mkdir()
    return recall.resolve(entry_id, tmp_path)


@pytest.mark.parametrize("make", ["symlink", "fifo", "hardlink", "directory"])
def test_recall_refuses_what_rtk_did_not_write(make: str, tmp_path: Path) -> None:
    entry = _planted(tmp_path, make)
    with pytest.raises(recall.RecallError):
        recall.read(entry, tmp_path)  # a FIFO would block forever if it were opened for reading


def test_recall_refuses_a_file_of_another_owner(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("giving a file to another owner needs root")
    entry_id = spool_of(tmp_path, [b"out\n"]).keep("cmd", 0)
    os.chown(tmp_path / f"{entry_id}.gz", 65534, 65534)
    with pytest.raises(recall.RecallError, match="not written by rtk"):
        recall.read(recall.resolve(entry_id, tmp_path), tmp_path)


def test_a_symlinked_metadata_file_is_not_an_entry(tmp_path: Path) -> None:
    store = tmp_path / "store"
    entry_id = spool_of(store, [b"out\n"]).keep("cmd", 0)
    meta = store / f"{entry_id}.json"
    (tmp_path / "elsewhere.json").write_bytes(meta.read_bytes())
    meta.unlink()
    meta.symlink_to(tmp_path / "elsewhere.json")
    assert entry_id not in {e.id for e in recall.entries(store)}


def test_rtk_recall_of_a_planted_symlink_is_one_line_exit_1(tmp_path: Path) -> None:
    import subprocess

    from tests.conftest import rtk_executable

    store = tmp_path / "rtk-home" / "data" / "rtk" / "recall"
    entry = _planted(store, "symlink")
    result = subprocess.run([*rtk_executable(), "recall", entry.id], capture_output=True, timeout=60,
                            check=False)
    assert result.returncode == 1 and result.stdout == b""
    assert b"symlink" in result.stderr and len(result.stderr.splitlines()) == 1
