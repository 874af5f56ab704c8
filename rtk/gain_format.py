"""Rendering a gain report: JSON (the documented document), CSV (one line per row), text."""
from __future__ import annotations

import csv
import io
import json
import os

from rtk.gain_report import Report

FORMATS = ("text", "json", "csv")


def render(report: Report, fmt: str, color: bool = False) -> str:
    if fmt == "json":
        return json.dumps(report.data, indent=2) + "\n"
    if fmt == "csv":
        return to_csv(report)
    from rtk.gain_text import render_text

    return render_text(report, color)


def to_csv(report: Report) -> str:
    out = io.StringIO()
    fields = list(report.rows[0]) if report.rows else _empty_header(report)
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(report.rows)
    return out.getvalue()


def _empty_header(report: Report) -> list[str]:
    from rtk.gain_report import HISTORY_FIELDS, PERIOD_KEY

    if report.view == "history":
        return [*HISTORY_FIELDS, "saved_pct"]
    if report.view in PERIOD_KEY:
        return [PERIOD_KEY[report.view], "runs", "raw_tokens", "printed_tokens", "saved_tokens",
                "wall_ms", "saved_pct"]
    return ["timestamp", "kind", "command", "message", "count"]


def color_wanted(is_tty: bool) -> bool:
    """Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return is_tty and not os.environ.get("NO_COLOR")


def human(n: float) -> str:
    """1234 -> 1.2K, 34567 -> 34.6K, 1234567 -> 1.2M; below 1000 as is."""
    sign, n = ("-" if n < 0 else ""), abs(n)
    for limit, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "K")):
        if n >= limit:
            return f"{sign}{n / limit:.1f}{suffix}"
    return f"{sign}{int(n)}"


def duration(ms: int) -> str:
    if ms < 1000:
        return f"{ms} ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"
