"""What a filter declares it serves, as data: the registry, the runner and the hooks read it.

Every filter package's `__init__.py` builds one `Serves` from these types at import time, and the
hook path imports those packages before every agent command, so this module is standard library
only and defines plain tuple subclasses (as NamedTuple would, without importing `typing`).
"""
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Self


def _words(values: Iterable[str]) -> frozenset[str]:
    return frozenset((values,) if isinstance(values, str) else values)


class Words(tuple):  # type: ignore[type-arg]
    """An argv shape: `program` (basenames of argv[0]), then one set of allowed words per position.

    Between positions, options are stepped over (words starting with one of `option_prefixes`,
    plus the value after those in `options_with_value`) unless `skip_options` is false. Anything
    may follow the last position. `rewrite=False`: rtk serves the command when run through it, but
    a hook never routes it there (it may open an editor or a session the agent must see exactly).
    """

    __slots__ = ()

    def __new__(cls, program: Iterable[str], *positions: Iterable[str],
                options_with_value: Iterable[str] = (), option_prefixes: tuple[str, ...] = ("-",),
                rewrite: bool = True, skip_options: bool = True) -> Self:
        return tuple.__new__(cls, (_words(program), tuple(_words(p) for p in positions),
                                   _words(options_with_value), tuple(option_prefixes), rewrite,
                                   skip_options))

    program: frozenset[str] = property(lambda self: self[0])  # type: ignore[assignment]
    positions: tuple[frozenset[str], ...] = property(lambda self: self[1])  # type: ignore[assignment]
    options_with_value: frozenset[str] = property(lambda self: self[2])  # type: ignore[assignment]
    option_prefixes: tuple[str, ...] = property(lambda self: self[3])  # type: ignore[assignment]
    rewrite: bool = property(lambda self: self[4])  # type: ignore[assignment]
    skip_options: bool = property(lambda self: self[5])  # type: ignore[assignment]

    def matches(self, words: Sequence[str]) -> bool:
        if not words or os.path.basename(words[0]) not in self.program:
            return False
        i = 1
        for allowed in self.positions:
            if self.skip_options:
                i = self.skip(words, i)
            if i >= len(words) or words[i] not in allowed:
                return False
            i += 1
        return True

    def skip(self, words: Sequence[str], i: int) -> int:
        """Index of the first non-option word from `i`."""
        while i < len(words) and words[i] != "-" and words[i].startswith(self.option_prefixes):
            i += 2 if words[i] in self.options_with_value else 1
        return i

    def __repr__(self) -> str:
        return f"Words({sorted(self.program)!r}, {[sorted(p) for p in self.positions]!r})"


class Serves(tuple):  # type: ignore[type-arg]
    """A filter's declaration: its name, one line for `rtk filters`, its argv shapes, and where the
    filter is built (`module`, whose `create(ctx)` returns it; filled in by the registry).

    `priority`: lower is tried first, for the rare real tie between two filters' shapes.
    `source`: "built-in", "user" or "project" (declarative filters)."""

    __slots__ = ()

    def __new__(cls, name: str, summary: str, matchers: Sequence[Words] = (), module: str = "",
                priority: int = 100, source: str = "built-in") -> Self:
        return tuple.__new__(cls, (name, summary, tuple(matchers), module, priority, source))

    name: str = property(lambda self: self[0])  # type: ignore[assignment]
    summary: str = property(lambda self: self[1])  # type: ignore[assignment]
    matchers: tuple[Words, ...] = property(lambda self: self[2])  # type: ignore[assignment]
    module: str = property(lambda self: self[3])  # type: ignore[assignment]
    priority: int = property(lambda self: self[4])  # type: ignore[assignment]
    source: str = property(lambda self: self[5])  # type: ignore[assignment]

    @property
    def serves(self) -> str:  # the name `rtk filters` and older callers use
        return self[1]

    def with_module(self, module: str) -> Serves:
        return Serves(self.name, self.summary, self.matchers, module, self.priority, self.source)

    def match(self, words: Sequence[str]) -> Match | None:
        for shape in self.matchers:
            if shape.matches(words):
                return Match(self.name, shape.rewrite)
        return None

    def __repr__(self) -> str:
        return f"Serves({self.name!r}, {self.summary!r}, module={self.module!r})"


class Match(tuple):  # type: ignore[type-arg]
    """The registry's verdict on an argv: which filter, and whether a hook may route it there."""

    __slots__ = ()

    def __new__(cls, filter: str, rewrite: bool = True) -> Self:
        return tuple.__new__(cls, (filter, rewrite))

    filter: str = property(lambda self: self[0])  # type: ignore[assignment]
    rewrite: bool = property(lambda self: self[1])  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Match(filter={self[0]!r}, rewrite={self[1]!r})"
