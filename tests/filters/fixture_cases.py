"""Fixture cases (`fixtures/<tool>/<case>/`) and the replay every golden test shares."""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from rtk import config
from rtk.filters.base import Stream
from rtk.run.pipeline import build_pipeline
from rtk.run.replay import pick_filter

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
CHUNK = 4096


@dataclass(frozen=True)
class Case:
    path: Path

    @property
    def id(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"

    @property
    def command(self) -> str:
        return (self.path / "command").read_text().strip()

    @property
    def exit_code(self) -> int:
        file = self.path / "exit_code"
        return int(file.read_text().strip()) if file.exists() else 0

    @property
    def raw(self) -> bytes:
        return (self.path / "raw.txt").read_bytes()

    @property
    def host(self) -> str | None:
        """The agent host the command ran under (`host` file: `claude`), whose windows apply."""
        file = self.path / "host"
        return file.read_text().strip() or None if file.exists() else None

    @property
    def facts(self) -> list[str]:
        file = self.path / "facts.txt"
        return [f for f in file.read_text().splitlines() if f.strip()] if file.exists() else []


def all_cases() -> list[Case]:
    return sorted((Case(p.parent) for p in FIXTURES.glob("*/*/raw.txt")), key=lambda c: c.id)


class CaptureWriter:
    """A Writer stand-in that collects what would be printed, in order, both streams merged."""

    def __init__(self) -> None:
        from rtk.run.pipeline import Writer

        self._writer = Writer(self._collect)
        self._writer.broken = {1, 2}
        self.chunks: list[bytes] = []

    def _collect(self, data: bytes) -> None:
        self.chunks.append(data)

    @property
    def writer(self):  # type: ignore[no-untyped-def]
        return self._writer


def replay(command: str, raw: bytes, exit_code: int, chunk: int = CHUNK, host: str | None = None) -> str:
    """Filter `raw` exactly as `rtk pipe --cmd COMMAND` would, and return what it prints; `host`
    (`claude`): as under that host, its windows applied (rtk.filters.budget)."""
    from rtk.filters.budget import failing_limit, host_limit

    name, argv = pick_filter(None, command)
    capture = CaptureWriter()
    env = {"CLAUDECODE": "1"} if host == "claude" else {}
    pipeline = build_pipeline(argv, name, config.load(), capture.writer, hold_seconds=None,
                              char_limit=host_limit(env), failing_limit=failing_limit(env), maps=host == "claude")
    for start in range(0, len(raw), chunk):
        pipeline.feed(raw[start:start + chunk], Stream.STDOUT)
    pipeline.finish(exit_code)
    return b"".join(capture.chunks).decode("utf-8", "replace")


def fact_kept(fact: str, printed: str) -> bool:
    """The fact syntax of ../shared/bench/corpus.py: plain substring, `@loc PATH:LINE`, `A ||| B`;
    and `@path PATH`: the path as printed, or its name listed under its directory (find's grouped
    layout: `src/requests/ (16): api.py auth.py ...`)."""
    plain = ANSI_RE.sub("", printed)
    return any(_loc_kept(alt[5:].strip(), plain) if alt.startswith("@loc ")
               else _path_kept(alt[6:].strip(), plain) if alt.startswith("@path ") else alt in plain
               for alt in fact.split(" ||| "))


def _path_kept(path: str, plain: str) -> bool:
    """The path as printed, or its name listed under its directory: on a line that starts with
    the directory (`src/click/ (17): a.py b.py`, `src/click: a.py`, with or without `./`) or
    indented below such a line (a grouped listing). The same reading as corpus.py's."""
    if path in plain:
        return True
    directory, _, name = path.rstrip("/").rpartition("/")
    bare = directory.removeprefix("./")
    heads = sorted({directory, bare, f"./{bare}"} - {""} or {".", "./"}, key=len, reverse=True)
    word = re.compile(r"(?<![\w.@/-])" + re.escape(name) + r"(?![\w@/-]|\.\w)")
    lines = plain.splitlines()
    for i, text in enumerate(lines):
        stripped = text.strip()
        head = next((h for h in heads if stripped == h or stripped.startswith((f"{h}/", f"{h}:", f"{h} "))), None)
        if head is None:
            continue
        if word.search(stripped[len(head):].lstrip("/")):
            return True
        indent = len(text) - len(text.lstrip())
        for below in lines[i + 1:i + 400]:
            if below.strip() and len(below) - len(below.lstrip()) <= indent:
                break
            if word.search(below):
                return True
    return False


def _loc_kept(spec: str, plain: str) -> bool:
    path, _, line = spec.rpartition(":")
    if not path or not line.isdigit():
        return spec in plain
    if re.search(re.escape(path) + r'(?::|\(|", line |,? line |\s+L)' + line + r"(?!\d)", plain):
        return True
    marker = re.compile(r"(?:\bL" + line + r"|^\s*" + line + r":|\bline " + line + r"|\(" + line + r",)(?!\d)")
    lines = plain.splitlines()
    return any(path in text and any(marker.search(n) for n in lines[i + 1:i + 61])
               for i, text in enumerate(lines))


def argv_of(case: Case) -> list[str]:
    return shlex.split(case.command)
