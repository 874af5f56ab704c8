"""The audit log keeps one decision per line and no terminal control: ESC and every other control
character is written as a visible escape, like newline's `\\n`."""
from __future__ import annotations

from rtk.agent.hooks import audit_line, escape_field


def test_escape_sequences_and_c0_controls_are_escaped() -> None:
    field = escape_field("printf '\x1b[2J\x1b]0;title\x07' \x00\x08\t\x7f\x9b|a\\b\r\n")
    assert field == "printf '\\x1b[2J\\x1b]0;title\\x07' \\x00\\x08\\t\\x7f\\x9b\\|a\\\\b\\r\\n"
    assert all(ord(c) >= 0x20 and not 0x7F <= ord(c) < 0xA0 for c in field)


def test_an_audit_line_is_one_printable_line() -> None:
    line = audit_line("2026-01-01T00:00:00", "rewrite", "git status\x1b[31m", "rtk git status\x1b[31m")
    assert line.count("\n") == 1 and line.endswith("\n") and "\x1b" not in line
    assert line == "2026-01-01T00:00:00 | rewrite | git status\\x1b[31m | rtk git status\\x1b[31m\n"


def test_text_without_controls_is_unchanged() -> None:
    assert escape_field("cargo test -- --nocapture é ✓") == "cargo test -- --nocapture é ✓"
