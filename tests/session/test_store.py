"""The store: 0600 files in a 0700 directory under rtk's data dir, bounded, pruned when idle; an
unreadable file is an empty memory (output shown again, never a wrong reference)."""
from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from rtk.session import store
from rtk.session.identity import Context, note_rewrite


def test_files_are_private_and_in_the_data_dir(hermetic_rtk: Path) -> None:
    with store.Locked("claude|s1|main") as state:
        state["calls"] = 1
    note_rewrite(Context("claude", "s1"), [["pytest"]])
    directory = Path(store.directory())
    assert directory == hermetic_rtk / "data" / "rtk" / "session"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in directory.iterdir()} == {0o600}
    assert not any("s1" in p.name for p in directory.iterdir())  # names are digests


def test_the_caps_keep_the_newest() -> None:
    for i in range(store.MAX_LOG * 3):
        with store.Locked("claude|s1|main") as state:
            store.remember(state, f"k{i}", i, 0.0, "d", None)
            store.log(state, i, 0.0, "first", "x\tq" * 20, 1, 1)
            state["items"]["pytest|/p"] = {f"f{i}": (i, 0.0) for i in range(store.MAX_ITEMS + 5)}
    state = store.load("claude|s1|main")
    assert state is not None
    assert len(state["shown"]) == store.MAX_SHOWN and "k2999" in state["shown"] and "k1999" not in state["shown"]
    assert len(state["items"]["pytest|/p"]) == store.MAX_ITEMS
    log = store.log_of(state)
    assert store.MAX_LOG <= len(log) < store.MAX_LOG * 3 and log[-1][0] == 2999 and log[-1][3] == "x\\tq" * 20  # escaped: one call, one line


def test_idle_contexts_are_pruned() -> None:
    for session in ("old", "new"):
        with store.Locked(f"claude|{session}|main") as state:
            state["calls"] = 1
    old = store.file_for("claude|old|main")
    past = time.time() - store.IDLE_SECONDS - 60
    os.utime(old, (past, past))
    assert store.prune() == 1
    assert not os.path.exists(old) and os.path.exists(store.file_for("claude|new|main"))


def test_an_unreadable_file_is_an_empty_memory() -> None:
    with store.Locked("claude|s1|main") as state:
        store.remember(state, "k", 1, 0.0, "d", None)
    Path(store.file_for("claude|s1|main")).write_bytes(b"\x00garbage")
    with store.Locked("claude|s1|main") as state:
        assert state["shown"] == {} and state["calls"] == 0


def test_a_new_context_prunes_the_idle_ones() -> None:
    with store.Locked("claude|old|main") as state:
        state["calls"] = 1
    past = time.time() - store.IDLE_SECONDS - 60
    os.utime(store.file_for("claude|old|main"), (past, past))
    with store.Locked("claude|new|main") as state:
        state["calls"] = 1
    assert not os.path.exists(store.file_for("claude|old|main"))
