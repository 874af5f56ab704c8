"""`rtk recall`: give back what a filter elided, whole or narrowed, without a traceback ever."""
from __future__ import annotations

import re
import sys
import time

import click

from rtk import recall


class RecallCliError(Exception):
    """One line for the user; the command exits 1."""


def run_recall(entry_id: str | None, pattern: str | None, head: int | None, tail: int | None,
               list_entries: bool) -> None:
    if list_entries:
        sys.stdout.write(format_listing(recall.entries()))
        return
    if not entry_id:
        raise RecallCliError("recall needs an id (from a `[full output: rtk recall <id>]` line) or --list")
    try:
        entry = recall.resolve(entry_id)
        data = recall.read(entry)
    except recall.RecallError as exc:
        raise RecallCliError(str(exc)) from None
    except OSError as exc:
        raise RecallCliError(f"cannot read recall entry {entry_id}: {exc.strerror or exc}") from None
    compiled = _compile(pattern)
    narrowed = narrow(data, compiled, head, tail)
    if compiled is not None and not narrowed and not any(map(compiled.search, data.splitlines())):
        raise RecallCliError(f"no line of {entry.id} matches {pattern!r}")
    sys.stdout.buffer.write(narrowed)
    sys.stdout.flush()


def _compile(pattern: str | None) -> re.Pattern[bytes] | None:
    if pattern is None:
        return None
    try:
        return re.compile(pattern.encode("utf-8", "surrogateescape"))
    except re.error as exc:
        raise RecallCliError(f"--grep {pattern!r} is not a valid regular expression: {exc}") from None


def narrow(data: bytes, pattern: re.Pattern[bytes] | None, head: int | None,
           tail: int | None) -> bytes:
    """Apply --grep, then --head, then --tail, on lines; bytes stay as the command printed them."""
    if pattern is None and head is None and tail is None:
        return data
    lines = data.splitlines(keepends=True)
    if pattern is not None:
        lines = [line for line in lines if pattern.search(line)]
    if head is not None:
        lines = lines[:max(head, 0)]
    if tail is not None:
        lines = lines[-tail:] if tail > 0 else []
    if lines and not lines[-1].endswith(b"\n"):
        lines[-1] += b"\n"
    return b"".join(lines)


def format_listing(found: list[recall.Entry]) -> str:
    if not found:
        return "no recall entries\n"
    rows = [("ID", "WHEN", "EXIT", "SIZE", "COMMAND")]
    for entry in found:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.time))
        rows.append((entry.id, when, str(entry.exit_code), human_size(entry.size), entry.command))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths)) + "  " + row[4] + "\n"
        for row in rows)


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KiB", "MiB"):
        if value < 1024 or unit == "MiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"


RECALL_EPILOG = """\b
Examples:
  rtk recall 3f9a2c1b            # the id from a `[full output: rtk recall ID]` hint
  rtk recall 3f9a2c1b --grep 'FAILED|Error' --tail 50
  rtk recall --list
\b
Exit codes: 0; 1 no such entry, no line matching --grep, or an unreadable store (one line);
2 usage error (a negative --head or --tail among them)."""


@click.command(name="recall", epilog=RECALL_EPILOG)
@click.argument("entry_id", required=False)
@click.option("--grep", "pattern", help="only lines matching this regular expression")
@click.option("--head", type=click.IntRange(min=0), metavar="N", help="only the first N lines")
@click.option("--tail", type=click.IntRange(min=0), metavar="N", help="only the last N lines")
@click.option("--list", "list_entries", is_flag=True, help="list stored entries")
def recall_cmd(entry_id: str | None, pattern: str | None, head: int | None, tail: int | None,
           list_entries: bool) -> None:
    """Print the full raw output of an earlier run (the id from its hint line)."""
    if not entry_id and not list_entries:
        raise click.UsageError("needs an id (from a `[full output: rtk recall <id>]` line) or --list")
    try:
        run_recall(entry_id, pattern, head, tail, list_entries)
    except RecallCliError as exc:
        click.echo(f"rtk: {exc}", err=True)
        sys.exit(1)
