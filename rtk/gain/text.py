"""Text views of `rtk gain`: aligned tables, human numbers, an efficiency bar, a daily bar chart."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rtk.gain.report import PERIOD_KEY, Report
from rtk.gain.units import count, duration, human

BAR_WIDTH = 20
GRAPH_WIDTH = 40
TOP_COMMANDS = 10
COMMAND_WIDTH = 48
EIGHTHS = " ▏▎▍▌▋▊▉"
GREEN, BOLD, DIM, RESET = "\x1b[32m", "\x1b[1m", "\x1b[2m", "\x1b[0m"


class Paint:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, style: str) -> str:
        return f"{style}{text}{RESET}" if self.enabled and text else text


def render_text(report: Report, color: bool) -> str:
    paint = Paint(color)
    if report.empty:
        lines = [_empty_line(report)]
    else:
        lines = VIEWS[report.view](report, paint)
    lines += [paint(f"note: {note}", DIM) for note in report.notes]
    return "\n".join(lines) + "\n"


def _empty_line(report: Report) -> str:
    scope = report.data["scope"]
    where = "".join([f" since {scope['since']}" if scope["since"] else "",
                     f" in {scope['project']}" if scope["project"] else ""])
    if report.view == "failures":
        return f"{report.label}: no filter crashes or tracking errors recorded{where}"
    return f"{report.label}: no runs recorded{where}" + ("" if where else " yet")


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], left: Sequence[int] = (0,),
          paint: Paint | None = None) -> list[str]:
    """Columns padded to their widest cell; numbers right-aligned, columns in `left` left-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        padded = [str(c).ljust(w) if i in left else str(c).rjust(w)
                  for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  ".join(padded).rstrip()

    head = line(headers)
    return [paint(head, BOLD) if paint else head, *(line(row) for row in rows)]


def efficiency_bar(percent: float, paint: Paint) -> str:
    filled = round(max(0.0, min(percent, 100.0)) / 100 * BAR_WIDTH)
    return "[" + paint("█" * filled, GREEN) + "░" * (BAR_WIDTH - filled) + f"] {percent:.1f}%"


def _summary(report: Report, paint: Paint) -> list[str]:
    s = report.data["summary"]
    saved = paint(f"{human(s['saved_tokens']):>8}", GREEN)
    lines = [paint(f"{report.label}: {count(s['runs'], 'run')}{_scope_words(report)}", BOLD),
             f"  raw tokens      {human(s['raw_tokens']):>8}",
             f"  printed tokens  {human(s['printed_tokens']):>8}",
             f"  saved tokens    {saved}  ({s['saved_pct']:.1f}%)",
             f"  wall time       {duration(s['wall_ms']):>8} total, {duration(s['mean_wall_ms'])} mean",
             f"  efficiency      {efficiency_bar(s['saved_pct'], paint)}", ""]
    commands = report.data["by_command"]
    rows = [[_cut(c["command"]), f"{c['runs']:,}", human(c["saved_tokens"]), f"{c['mean_saved_pct']:.1f}%",
             f"{c['share_pct']:.1f}%"] for c in commands[:TOP_COMMANDS]]
    lines += table(["command", "runs", "saved", "mean saved", "share"], rows, paint=paint)
    if len(commands) > TOP_COMMANDS:
        lines.append(f"... {len(commands) - TOP_COMMANDS} more commands (--format json lists all)")
    return lines + _paths(report.data.get("by_path") or [], paint)


def _paths(paths: list[dict], paint: Paint) -> list[str]:  # type: ignore[type-arg]
    """Which path the runs came through, when more than the plain `rtk CMD` one."""
    if not paths or [p["path"] for p in paths] == ["run"]:
        return []
    rows = [[p["name"], f"{p['runs']:,}", human(p["baseline_tokens"]), human(p["printed_tokens"]),
             human(p["saved_tokens"])] for p in paths]
    return ["", *table(["path", "runs", "host would show", "printed", "saved"], rows, paint=paint)]


def _scope_words(report: Report) -> str:
    scope = report.data["scope"]
    words = [f"since {scope['since']}" if scope["since"] else "",
             f"project {scope['project']}" if scope["project"] else ""]
    joined = ", ".join(w for w in words if w)
    return f" ({joined})" if joined else ""


def _cut(text: str, width: int = COMMAND_WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _history(report: Report, paint: Paint) -> list[str]:
    rows = [[r["timestamp"].replace("T", " ").rstrip("Z"), _cut(r["command"]),
             f"{human(r['raw_tokens'])} -> {human(r['printed_tokens'])}", f"{r['saved_pct']:.1f}%",
             "-" if r["exit_code"] is None else str(r["exit_code"])] for r in report.rows]
    return table(["time (UTC)", "command", "raw -> printed", "saved", "exit"], rows, left=(0, 1), paint=paint)


def _periods(report: Report, paint: Paint) -> list[str]:
    key = PERIOD_KEY[report.view]
    rows = [[r[key], f"{r['runs']:,}", human(r["raw_tokens"]), human(r["printed_tokens"]),
             human(r["saved_tokens"]), f"{r['saved_pct']:.1f}%"] for r in report.rows]
    return table([key, "runs", "raw", "printed", "saved", "saved %"], rows, paint=paint)


def graph_bar(value: int, peak: int) -> str:
    if value <= 0 or peak <= 0:
        return ""
    eighths = max(1, round(value / peak * GRAPH_WIDTH * 8))
    return "█" * (eighths // 8) + (EIGHTHS[eighths % 8] if eighths % 8 else "")


def _graph(report: Report, paint: Paint) -> list[str]:
    peak = max(r["saved_tokens"] for r in report.rows)
    lines = [paint(f"saved tokens per day, last {len(report.rows)} days (UTC){_scope_words(report)}", BOLD)]
    for r in report.rows:
        bar = graph_bar(r["saved_tokens"], peak)
        lines.append(f"{r['date']}  {paint(bar.ljust(GRAPH_WIDTH), GREEN)}  {human(r['saved_tokens']):>7}")
    return lines


def _failures(report: Report, paint: Paint) -> list[str]:
    lines = []
    for r in report.rows:
        when = r["timestamp"].replace("T", " ").rstrip("Z")
        what = r["command"] if r["kind"] == "filter" else (f"{r['count']}x" if r["count"] > 1 else "")
        lines.append(f"{when}  {r['kind']:<8}  {what + ': ' if what else ''}{r['message']}")
    return lines


VIEWS: dict[str, Any] = {"summary": _summary, "history": _history, "daily": _periods,
                         "weekly": _periods, "monthly": _periods, "graph": _graph, "failures": _failures}
