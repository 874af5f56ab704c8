"""`loads` and `dumps` for the hook and run paths, without the `json` package's start-up cost.

`import json` imports `re` (and with it `enum`, `functools`, the regex compiler): ~6 ms before
every agent command, as much as the rest of the hook (and of a `git diff` that keeps its raw
output for `rtk recall`). The C accelerator `_json` that `json` itself
calls needs none of that. `loads` and `dumps` drive the same scanner and encoder as `json.loads`
and `json.dumps(obj, separators=(",", ":"))` with the same settings, so a result is always the
one `json` would give; anything else (a decode error, whose message `json` words; an object
`json` would refuse; an interpreter without `_json`) goes to the `json` package itself.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

try:
    import _json
except ImportError:  # not CPython: the json package does it all
    _json = None  # type: ignore[assignment]

WHITESPACE = " \t\n\r"  # JSON's white space (json.decoder.WHITESPACE)
_FAILED = object()


class _Settings:
    """The attributes `_json.make_scanner` reads from a `json.JSONDecoder()`: its defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = staticmethod(lambda text: _finite(text))
    parse_int = int
    parse_constant = staticmethod(lambda name: _reject_constant(name))


def _reject_constant(name: str) -> object:
    """`NaN`, `Infinity`, `-Infinity` are not JSON: a payload holding them is refused, so that
    no answer ever echoes them back (hosts' parsers reject them)."""
    raise ValueError(f"{name} is not valid JSON")


def _finite(text: str) -> float:
    """A JSON number as a float, refused when it overflows (`1e999999`): read, it would be
    `inf`, which no answer may echo back (an answer that copies the tool input could not be
    written, and a host would reject it)."""
    value = float(text)
    if value - value != 0.0:  # inf (NaN cannot come from a JSON number)
        raise ValueError(f"number {text[:40]} is out of range")
    return value


def _refuse(obj: object) -> object:
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def loads(text: str) -> Any:
    """`json.loads(text)` for a str, refusing what would read as NaN or infinity."""
    value = _scan(text)
    if value is not _FAILED:
        return value
    import json

    return json.loads(text, parse_constant=_reject_constant, parse_float=_finite)


def dumps(obj: object, ensure_ascii: bool = True) -> str:
    """`json.dumps(obj, ensure_ascii=ensure_ascii, separators=(",", ":"))`."""
    text = _encode(obj, ensure_ascii)
    if text is not None:
        return text
    import json

    return json.dumps(obj, ensure_ascii=ensure_ascii, separators=(",", ":"), allow_nan=False)


def _scan(text: str) -> Any:
    """The one JSON document in `text`, read by the C scanner; `_FAILED` if anything is amiss."""
    if _json is None:
        return _FAILED
    try:
        value, end = _json.make_scanner(_Settings())(text, _skip(text, 0))  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - json.loads raises the error, worded its way
        return _FAILED
    return value if _skip(text, end) == len(text) else _FAILED


def _encode(obj: object, ensure_ascii: bool) -> str | None:
    """The compact JSON text by the C encoder; None when `json.dumps` must decide (or raise)."""
    if _json is None or isinstance(obj, str):
        return None
    escape = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
    encoder = _json.make_encoder({}, _refuse, escape, None, ":", ",", False, False, False)
    try:
        return "".join(encoder(obj, 0))
    except (TypeError, ValueError, RecursionError):
        return None


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in WHITESPACE:
        pos += 1
    return pos
