"""Rendering a gain report: JSON (the documented document), CSV (one line per row), text."""
from __future__ import annotations

import csv
import io
import json
import os

from rtk.gain.report import Report
from rtk.gain.units import duration, human  # noqa: F401 (callers use them from here too)

FORMATS = ("text", "json", "csv")


def render(report: Report, fmt: str, color: bool = False) -> str:
    if fmt == "json":
        return json.dumps(report.data, indent=2) + "\n"
    if fmt == "csv":
        return to_csv(report)
    from rtk.gain.text import render_text

    return render_text(report, color)


def to_csv(report: Report) -> str:
    out = io.StringIO()
    fields = list(report.rows[0]) if report.rows else _empty_header(report)
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(report.rows)
    return out.getvalue()


def _empty_header(report: Report) -> list[str]:
    from rtk.gain.report import HISTORY_FIELDS, PERIOD_KEY

    if report.view == "history":
        return [*HISTORY_FIELDS, "saved_pct"]
    if report.view in PERIOD_KEY:
        return [PERIOD_KEY[report.view], "runs", "raw_tokens", "printed_tokens", "saved_tokens",
                "wall_ms", "saved_pct"]
    return ["timestamp", "kind", "command", "message", "count"]


def color_wanted(is_tty: bool) -> bool:
    """Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return is_tty and not os.environ.get("NO_COLOR")
