"""The data behind every `rtk gain` view: SQL over the runs table, rows as plain dicts.

Field names are the JSON contract (docs/gain-json.md); text and CSV render the same rows.
Dates are UTC (the database stores UTC timestamps), so a report does not depend on where it runs.
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from rtk.track import history as tracking
from rtk.track import tokens

GRAPH_DAYS = 30
SINCE_RE = re.compile(r"(\d+)([hdw])")
AGGREGATES = ("COUNT(*) AS runs, COALESCE(SUM(raw_tokens), 0) AS raw_tokens, "
              "COALESCE(SUM(printed_tokens), 0) AS printed_tokens, "
              "COALESCE(SUM(saved_tokens), 0) AS saved_tokens, COALESCE(SUM(wall_ms), 0) AS wall_ms")
HISTORY_FIELDS = ("timestamp", "command", "filter", "raw_tokens", "printed_tokens", "saved_tokens",
                  "raw_bytes", "printed_bytes", "exit_code", "wall_ms", "project", "counter",
                  "recall_id")
PERIOD_KEY = {"daily": "date", "weekly": "week", "monthly": "month"}


@dataclass
class Scope:
    since: str | None = None      # ISO 8601 UTC lower bound, inclusive
    project: str | None = None

    def where(self) -> tuple[str, list[str]]:
        clauses, params = [], []
        if self.since:
            clauses.append("timestamp >= ?")
            params.append(self.since)
        if self.project:
            clauses.append("project = ?")
            params.append(self.project)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params

    def as_json(self) -> dict[str, str | None]:
        return {"since": self.since, "project": self.project}


@dataclass
class Report:
    view: str
    data: dict[str, Any]                   # the JSON document
    rows: list[dict[str, Any]]             # what CSV prints (and what text tabulates)
    empty: bool
    notes: list[str] = field(default_factory=list)
    label: str = "rtk gain"                # whose history: the Rust rtk's is labelled apart


def parse_since(text: str, now: datetime | None = None) -> str:
    """`7d`, `12h`, `2w` or a date (`2026-11-01`, `2026-11-01T08:00`) -> ISO UTC; ValueError if not."""
    now = now or datetime.now(UTC)
    if match := SINCE_RE.fullmatch(text.strip()):
        unit = {"h": "hours", "d": "days", "w": "weeks"}[match.group(2)]
        return _iso(now - timedelta(**{unit: int(match.group(1))}))
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"--since expects 7d, 12h, 2w or a date like 2026-11-01, got {text!r}") from None
    return _iso(moment if moment.tzinfo else moment.replace(tzinfo=UTC))


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def pct(part: int, whole: int) -> float:
    return round(part * 100.0 / whole, 1) if whole else 0.0


def _totals(row: sqlite3.Row) -> dict[str, Any]:
    out: dict[str, Any] = {key: int(row[key]) for key in ("runs", "raw_tokens", "printed_tokens",
                                                           "saved_tokens")}
    out["saved_pct"] = pct(out["saved_tokens"], out["raw_tokens"])
    out["wall_ms"] = int(row["wall_ms"])
    return out


def summary(conn: sqlite3.Connection, scope: Scope) -> Report:
    where, params = scope.where()
    row = conn.execute(f"SELECT {AGGREGATES}, COALESCE(SUM(counter != ?), 0) AS estimated "
                       f"FROM runs{where}", [tokens.ENCODING, *params]).fetchone()
    totals = _totals(row)
    totals["mean_wall_ms"] = totals["wall_ms"] // totals["runs"] if totals["runs"] else 0
    totals["estimated_runs"] = int(row["estimated"])
    commands = by_command(conn, scope, totals["saved_tokens"])
    data = {"scope": scope.as_json(), "summary": totals, "by_command": commands, "by_path": by_path(conn, scope)}
    return Report("summary", data, [totals], empty=totals["runs"] == 0)


def by_command(conn: sqlite3.Connection, scope: Scope, all_saved: int) -> list[dict[str, Any]]:
    where, params = scope.where()
    rows = conn.execute(
        f"SELECT command_key, {AGGREGATES}, AVG(CASE WHEN raw_tokens > 0 "
        f"THEN saved_tokens * 100.0 / raw_tokens ELSE 0 END) AS mean_pct FROM runs{where} "
        "GROUP BY command_key ORDER BY saved_tokens DESC, command_key", params).fetchall()
    result = []
    for row in rows:
        entry = {"command": row["command_key"], **_totals(row)}
        entry["mean_saved_pct"] = round(float(row["mean_pct"] or 0.0), 1)
        entry["share_pct"] = pct(entry["saved_tokens"], all_saved)
        result.append(entry)
    return result


PATH_NAMES = {"run": "rtk CMD", "run:claude": "rtk CMD under Claude Code"}


def by_path(conn: sqlite3.Connection, scope: Scope) -> list[dict[str, Any]]:
    """How the runs reached rtk: `rtk CMD` (typed, or rewritten by a hook), under Claude Code, or a
    host's post hook (`post:<host>`: the host ran the command, rtk replaced what it printed).
    `baseline_tokens` is what the hosts would have shown the model without rtk: Claude Code shows
    only a ~2 KB preview of outputs past 30,000 chars, so savings are counted against that."""
    where, params = scope.where()
    rows = conn.execute(
        f"SELECT via, {AGGREGATES}, COALESCE(SUM(COALESCE(baseline_tokens, raw_tokens)), 0) AS baseline "
        f"FROM runs{where} GROUP BY via ORDER BY saved_tokens DESC, via", params).fetchall()
    return [{"path": row["via"], "name": _path_name(row["via"]), **_totals(row),
             "baseline_tokens": int(row["baseline"])} for row in rows]


def _path_name(via: str) -> str:
    kind, _, host = via.partition(":")
    return PATH_NAMES.get(via) or (f"{host} post hook" if kind == "post" else via)


def history(conn: sqlite3.Connection, scope: Scope, limit: int) -> Report:
    where, params = scope.where()
    rows = conn.execute(f"SELECT {', '.join(HISTORY_FIELDS)} FROM runs{where} "
                        "ORDER BY timestamp DESC, id DESC LIMIT ?", [*params, limit]).fetchall()
    runs = []
    for row in rows:
        entry = {key: row[key] for key in HISTORY_FIELDS}
        entry["saved_pct"] = pct(row["saved_tokens"], row["raw_tokens"])
        runs.append(entry)
    return Report("history", {"scope": scope.as_json(), "history": runs}, runs, empty=not runs)


def periods(conn: sqlite3.Connection, scope: Scope, view: str) -> Report:
    where, params = scope.where()
    days = conn.execute(f"SELECT substr(timestamp, 1, 10) AS day, {AGGREGATES} FROM runs{where} "
                        "GROUP BY day ORDER BY day", params).fetchall()
    key = PERIOD_KEY[view]
    merged: dict[str, dict[str, int]] = {}
    for row in days:
        bucket = merged.setdefault(_period(row["day"], view), dict.fromkeys(
            ("runs", "raw_tokens", "printed_tokens", "saved_tokens", "wall_ms"), 0))
        for name in bucket:
            bucket[name] += int(row[name])
    rows = [{key: period, **counts, "saved_pct": pct(counts["saved_tokens"], counts["raw_tokens"])}
            for period, counts in merged.items()]
    return Report(view, {"scope": scope.as_json(), view: rows}, rows, empty=not rows)


def _period(day: str, view: str) -> str:
    if view == "monthly":
        return day[:7]
    if view == "weekly":
        year, week, _ = date.fromisoformat(day).isocalendar()
        return f"{year}-W{week:02d}"
    return day


def graph(conn: sqlite3.Connection, scope: Scope, today: date | None = None) -> Report:
    today = today or datetime.now(UTC).date()
    first = today - timedelta(days=GRAPH_DAYS - 1)
    since = max(scope.since or "", f"{first.isoformat()}T00:00:00Z")
    where, params = Scope(since, scope.project).where()
    found = {row["day"]: row for row in conn.execute(
        f"SELECT substr(timestamp, 1, 10) AS day, {AGGREGATES} FROM runs{where} GROUP BY day", params)}
    rows = []
    for offset in range(GRAPH_DAYS):
        day = (first + timedelta(days=offset)).isoformat()
        row = found.get(day)
        rows.append({"date": day, "runs": int(row["runs"]) if row else 0,
                     "saved_tokens": int(row["saved_tokens"]) if row else 0})
    empty = not any(r["runs"] for r in rows)
    return Report("graph", {"scope": scope.as_json(), "graph": rows}, rows, empty=empty)


def failures(conn: sqlite3.Connection | None, scope: Scope, limit: int) -> Report:
    """Filter crashes (from the runs) and tracking errors (from the error log, also when the
    database itself is what fails: then `conn` is None)."""
    rows = _crashes(conn, scope, limit) if conn is not None else []
    for entry in tracking.read_errors():
        if not scope.since or entry.last >= scope.since:
            rows.append({"timestamp": entry.last, "kind": "tracking", "command": None,
                         "message": entry.message, "count": entry.count})
    rows.sort(key=lambda r: r["timestamp"], reverse=True)
    rows = rows[:limit]
    return Report("failures", {"scope": scope.as_json(), "failures": rows}, rows, empty=not rows)


def _crashes(conn: sqlite3.Connection, scope: Scope, limit: int) -> list[dict[str, Any]]:
    where, params = scope.where()
    joiner = " AND " if where else " WHERE "
    crashes = conn.execute(f"SELECT timestamp, command, filter_error FROM runs{where}{joiner}"
                           "filter_error IS NOT NULL ORDER BY timestamp DESC, id DESC LIMIT ?",
                           [*params, limit]).fetchall()
    return [{"timestamp": r["timestamp"], "kind": "filter", "command": r["command"],
             "message": r["filter_error"], "count": 1} for r in crashes]


def build(conn: sqlite3.Connection, view: str, scope: Scope, limit: int) -> Report:
    conn.row_factory = sqlite3.Row
    if view == "summary":
        return summary(conn, scope)
    if view == "history":
        return history(conn, scope, limit)
    if view in PERIOD_KEY:
        return periods(conn, scope, view)
    if view == "graph":
        return graph(conn, scope)
    return failures(conn, scope, limit)
