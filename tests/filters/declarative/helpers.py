"""Build a filter from TOML text and run it the way the runner does."""
from __future__ import annotations

from rtk.filters.base import FilterContext, Stream
from rtk.filters.declarative.catalog import Catalog, parse_text
from rtk.filters.declarative.definition import FilterDef
from rtk.filters.declarative.engine import DeclarativeFilter

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
