"""`bin/rtk` turns the cyclic garbage collector off for the start (issue 22: ~100 collections
that find nothing on every wrapped command); the run path must turn it back on before output
streams, so a long run with cyclic garbage stays flat, and an embedding process keeps its own
collector settings."""
from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

import rtk
from rtk.run import runner

BIN_RTK = Path(__file__).resolve().parents[2] / "bin" / "rtk"


@pytest.fixture
def collector_off() -> object:
    was = gc.isenabled()
    gc.disable()
    yield
    gc.unfreeze()
    if was:
        gc.enable()


def test_collection_resumes_with_the_start_frozen(collector_off: object) -> None:
    rtk.collect_garbage_again()
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0  # what starting allocated is out of every later collection


def test_an_embedding_process_keeps_its_own_settings() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    rtk.collect_garbage_again()
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_the_run_path_turns_collection_back_on_before_the_output_streams(
        collector_off: object, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from rtk.run import fast_finish

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("RTK_TRACK", "0")
    seen: list[bool] = []
    real_drain = fast_finish.drain

    def drain(*args: object, **kwargs: object) -> bool:
        seen.append(gc.isenabled())
        return real_drain(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(fast_finish, "drain", drain)
    assert runner.run_command(["true"]) == 0
    assert seen == [True]


def test_the_command_starts_with_the_collector_off() -> None:
    """The script itself: its first statements turn the collector off before rtk is imported."""
    probe = f"import runpy, gc; runpy.run_path({str(BIN_RTK)!r}, run_name='not_main'); print(gc.isenabled())"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
