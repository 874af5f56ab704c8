"""The status line's text and its drawing protocol (a pipe stands in for the terminal)."""
from __future__ import annotations

import os

import pytest

from rtk.run.progress import StatusLine, command_label, format_counters, format_elapsed, render


@pytest.mark.parametrize(("seconds", "text"), [(0.04, "0.0s"), (3.25, "3.2s"), (59.9, "59.9s"),
                                               (65, "1m05s"), (3725, "1h02m")])
def test_elapsed(seconds: float, text: str) -> None:
    assert format_elapsed(seconds) == text


@pytest.mark.parametrize(("counters", "text"), [
    ({"passed": 1204, "failed": 1, "skipped": 0}, "1,204 passed, 1 failed"),
    ({"crates": 1, "warnings": 1, "errors": 2}, "1 crate, 1 warning, 2 errors"),
    ({"lines": 0}, ""),
    ({"class": 1, "xfailed": 1}, "1 class, 1 xfailed"),
])
def test_counters(counters: dict[str, int], text: str) -> None:
    assert format_counters(counters) == text


def test_render_fits_one_row() -> None:
    text = render(3, 12.34, "cargo build", {"crates": 14, "warnings": 2}, 80, "|/-\\")
    assert text == "\\  12.3s  cargo build  14 crates, 2 warnings"
    assert len(render(0, 1.0, "x" * 40, {"lines": 10 ** 9}, 30)) == 29


def test_command_label_is_the_program_name_and_a_cut_argument_list() -> None:
    assert command_label(["/usr/bin/python3", "-m", "pytest", "-x"]) == "python3 -m pytest -x"
    assert command_label(["cargo", "build", "a" * 80]).endswith("...")
    assert len(command_label(["cargo", "build", "a" * 80])) == 40


@pytest.fixture(autouse=True)
def ascii_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C")  # the ASCII spinner


def test_draw_then_clear_erases_what_was_drawn() -> None:
    read, write = os.pipe()
    now = [100.0]
    status = StatusLine(write, ["pytest", "-x"], lambda: {"passed": 3}, colour=False,
                        clock=lambda: now[0])
    status.clear()  # nothing drawn yet: nothing to erase
    now[0] = 101.5
    status.draw()
    status.clear()
    status.clear()
    status.close()
    status.draw()  # closed: no more frames
    os.close(write)
    data = os.read(read, 4096)
    os.close(read)
    assert data == b"\r|  1.5s  pytest -x  3 passed\x1b[K\r\x1b[K"


def test_counters_that_raise_are_left_out() -> None:
    read, write = os.pipe()

    def broken() -> dict[str, int]:
        raise RuntimeError("filter bug")

    status = StatusLine(write, ["make"], broken, colour=True, clock=lambda: 0.0)
    status.draw()
    os.close(write)
    assert os.read(read, 4096) == b"\r\x1b[2m|  0.0s  make\x1b[0m\x1b[K"
    os.close(read)
