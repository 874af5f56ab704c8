"""One `rtk gain` output for both tools: ours first, the Rust rtk's after it, each labelled.

The two histories are never added up silently: JSON keeps ours where it always was (plus a
`source` naming our file) and puts the Rust rtk's under `rust_rtk`; CSV gains a `source`
column; text prints the Rust rtk's view under its own heading, and the summary one line that
names both tools when it adds them.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from rtk.gain import report as gain_report
from rtk.gain import rust_history
from rtk.gain.format import render, to_csv
from rtk.gain.report import Report, Scope
from rtk.gain.units import human

OURS = "rtk (Python)"


def rust_report(view: str, scope: Scope, limit: int, own: Path, database_path: object) -> Report | None:
    """The Rust rtk's history in `view`, or None (absent, unreadable, or a view it has no data for)."""
    if view not in rust_history.VIEWS:
        return None
    path = rust_history.locate(own, database_path)
    if path is None:
        return None
    try:
        conn = rust_history.open_read_only(path)
        try:
            found = gain_report.build(conn, view, scope, limit)
        finally:
            conn.close()
    except sqlite3.Error as exc:
        found = Report(view, {"scope": scope.as_json()}, [], empty=True,
                       notes=[f"the Rust rtk's history {path} could not be read ({exc})"])
    found.label = f"{rust_history.LABEL} (read-only: {path})"
    found.data = {"tool": rust_history.LABEL, "path": str(path), "read_only": True,
                  "counter": rust_history.COUNTER, **found.data}
    return found


def combine(ours: Report, rust: Report | None, own: Path, fmt: str, color: bool) -> str:
    if fmt == "json":
        data: dict[str, Any] = {**ours.data, "source": {"tool": OURS, "path": str(own)}}
        if rust is not None:
            data["rust_rtk"] = rust.data
        return json.dumps(data, indent=2) + "\n"
    if rust is None:
        return render(ours, fmt, color)
    if fmt == "csv":
        return _csv(ours, rust)
    ours.label = f"{OURS} ({own})"
    text = _titled(ours, color) + "\n" + _titled(rust, color)
    both = _both_line(ours, rust)
    return text + (both + "\n" if both else "")


def _titled(found: Report, color: bool) -> str:
    """The summary and empty views name whose they are; the tables get a heading line."""
    body = render(found, "text", color)
    return body if found.view == "summary" or found.empty else f"{found.label}:\n{body}"


def _csv(ours: Report, rust: Report) -> str:
    for found, source in ((ours, "rtk-python"), (rust, "rust-rtk")):
        found.rows = [{"source": source, **row} for row in found.rows]
    body = to_csv(rust).split("\n", 1)[1] if rust.rows else ""
    return to_csv(ours) + body if ours.rows else to_csv(rust)


def _both_line(ours: Report, rust: Report) -> str:
    if ours.view != "summary" or rust.empty or ours.empty:
        return ""
    a, b = ours.data["summary"], rust.data["summary"]
    raw, saved = a["raw_tokens"] + b["raw_tokens"], a["saved_tokens"] + b["saved_tokens"]
    return (f"both tools: {a['runs'] + b['runs']:,} runs, {human(saved)} of {human(raw)} tokens saved "
            f"({gain_report.pct(saved, raw):.1f}%; the Rust rtk's counts are its estimate, bytes / 4)")
