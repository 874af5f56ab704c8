"""The filter contract and the helpers every filter shares.

Filters are sans-I/O state machines: the runner (or `rtk pipe`) feeds them decoded lines one at a
time and writes whatever they return at once. Keeping them free of processes, files and clocks is
what makes them replayable from fixtures and deterministic for an agent's prompt cache.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import enum
    import re
    from collections.abc import Iterable, Mapping
    from typing import Any, Protocol, Self

    class Stream(enum.IntEnum):
        """The child's stream a line came from; the number is the file descriptor it goes back to."""

        STDOUT = 1
        STDERR = 2
else:
    class Stream(int):
        """The child's stream a line came from; the number is the file descriptor it goes back to.

        An IntEnum for the type checker; at run time an int with the two members and an enum's
        name and repr: `enum` (and the `re` that every use of it drags in) costs milliseconds on
        every run, more than a `git status` takes."""

        __slots__ = ()

        def __new__(cls, value: int) -> Stream:  # noqa: PYI034 - the two members, never a new one
            try:
                return _STREAMS[value]
            except (KeyError, TypeError):
                raise ValueError(f"{value!r} is not a valid Stream") from None

        @property
        def name(self) -> str:
            return "STDOUT" if self == 1 else "STDERR"

        @property
        def value(self) -> int:
            return int(self)

        def __repr__(self) -> str:
            return f"<Stream.{self.name}: {int(self)}>"

        __str__ = int.__repr__  # as IntEnum's: "1"

        def __reduce__(self) -> tuple[type, tuple[int]]:
            return Stream, (int(self),)

    _STREAMS = {fd: int.__new__(Stream, fd) for fd in (1, 2)}
    Stream.STDOUT, Stream.STDERR = _STREAMS[1], _STREAMS[2]


class Line(tuple):  # type: ignore[type-arg]
    """One line to print (without its newline) and the stream it goes to.

    A plain tuple subclass, as a NamedTuple would be: `typing` costs ~2 ms on every run."""

    __slots__ = ()

    def __new__(cls, text: str, stream: Stream = Stream.STDOUT) -> Self:
        return tuple.__new__(cls, (text, stream))

    text: str = property(lambda self: self[0])  # type: ignore[assignment]
    stream: Stream = property(lambda self: self[1])  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Line(text={self[0]!r}, stream={self[1]!r})"


class FilterContext:
    """What a filter may know about the run: the argv as typed, and whether it may elide content.

    `recall_enabled` False means the raw output is not kept anywhere, so a filter may drop noise
    but must never elide content (spec/gain.md, Recall). `limits` holds the `[limits]` table of
    config.toml (e.g. `git_status_max_files`); filters read it with `limit()`. `filter_name` is set
    by the registry's `load`, so one engine can build many named filters. Immutable, like the
    frozen dataclass it replaces (`dataclasses` and the `inspect` it imports cost ~5-15 ms on every
    run); `replace(**changes)` makes a changed copy.
    """

    __slots__ = ("argv", "filter_name", "limits", "recall_enabled")
    argv: tuple[str, ...]
    recall_enabled: bool
    limits: Mapping[str, int]
    filter_name: str

    def __init__(self, argv: tuple[str, ...] = (), recall_enabled: bool = True,
                 limits: Mapping[str, int] | None = None, filter_name: str = "") -> None:
        for name, value in (("argv", tuple(argv)), ("recall_enabled", recall_enabled),
                            ("limits", {} if limits is None else limits), ("filter_name", filter_name)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"FilterContext is immutable (cannot set {name!r})")

    def replace(self, **changes: Any) -> FilterContext:
        fields = {name: getattr(self, name) for name in self.__slots__}
        return FilterContext(**{**fields, **changes})

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"FilterContext({fields})"

    def limit(self, key: str, default: int) -> int:
        value = self.limits.get(key, default)
        return value if isinstance(value, int) and value > 0 else default


if TYPE_CHECKING:
    class Filter(Protocol):
        """An incremental output filter for one command (the contract, for the type checker).

        `feed` gets each line (no newline, UTF-8 decoded with replacement characters) and the
        stream it came from, and returns the lines to print now. `finish` gets the command's exit
        code and returns the closing lines (summary, held-back blocks). The runner appends the
        recall hint itself when `elided` is true, and prints the raw tail instead when the command
        failed but `failure_seen` is false and something was dropped. A filter may also offer
        `feed_block(body, stream) -> bytes | None`: whole lines as raw bytes, for a byte path that
        must print exactly what the line path would (None: take the line path).

        `elided`: content (not noise) was left out, so the raw output must be kept for recall.
        `failure_seen`: the filter recognised the failure, so its own output explains a non-zero exit.
        `progress`: counters for the live status line on a terminal (e.g. {"passed": 12}).
        """

        elided: bool
        failure_seen: bool

        def feed(self, line: str, stream: Stream) -> Iterable[Line]: ...

        def finish(self, exit_code: int) -> Iterable[Line]: ...

        def progress(self) -> Mapping[str, int]: ...
else:
    class Filter:
        """The filter contract; see the type-checking definition above (a `typing.Protocol`
        there, a plain name at run time, so this module imports no `typing`)."""


class BaseFilter:
    """Defaults for the bookkeeping part of the protocol; subclasses write feed/finish."""

    elided: bool = False
    failure_seen: bool = False

    def __init__(self, ctx: FilterContext | None = None) -> None:
        self.ctx = ctx or FilterContext()

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        return (Line(line, stream),)

    def finish(self, exit_code: int) -> Iterable[Line]:
        return ()

    def progress(self) -> Mapping[str, int]:
        return {}


if TYPE_CHECKING:
    from collections import deque
else:
    try:  # the C type itself: `collections` imports keyword, operator and reprlib (~1.5 ms) around it
        from _collections import deque
    except ImportError:  # an interpreter without CPython's accelerator module
        from collections import deque  # noqa: F401 (re-exported, as the line above)


class LazyPattern:
    """A regex compiled on first use: `re` (and the `enum` it imports) costs more than a `git
    status` takes, so the short run path imports it only once a line needs the regex."""

    __slots__ = ("_compiled", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._compiled: re.Pattern[str] | None = None

    def get(self) -> re.Pattern[str]:
        if self._compiled is None:
            import re

            self._compiled = re.compile(self.pattern)
        return self._compiled


ANSI_PATTERN = r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]"
_ANSI = LazyPattern(ANSI_PATTERN)  # most outputs an agent gets have no escapes


def ansi_re() -> re.Pattern[str]:
    """The compiled escape-sequence regex."""
    return _ANSI.get()


def __getattr__(name: str) -> object:  # `from rtk.filters.base import ANSI_RE` still works
    if name == "ANSI_RE":
        return ansi_re()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def strip_ansi(text: str) -> str:
    """Remove terminal escape sequences (colours, cursor moves, OSC titles/links)."""
    return ansi_re().sub("", text) if "\x1b" in text else text


def elision_marker(count: int, what: str, detail: str = "") -> str:
    """The one wording every filter uses when it leaves content out: `... 213 more files (...)`."""
    tail = f" ({detail})" if detail else ""
    return f"... {count:,} more {what}{tail}"


def recall_hint(recall_id: str) -> str:
    return f"[full output: rtk recall {recall_id}]"


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """`1 error`, `3 errors`, with thousands separators as in `1,204 passed`."""
    word = noun if count == 1 else (plural_form or noun + "s")
    return f"{count:,} {word}"
