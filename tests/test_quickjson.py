"""rtk.quickjson gives exactly what the json package gives: same values, same text, same errors,
except that `NaN`, `Infinity` and `-Infinity` (not JSON) are refused both ways, so that a hook never
echoes them back to a host."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rtk import quickjson

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
JSON_CHARS = list(' \t\n\r\x0b{}[]:,"\\/0123456789.eE+-truefalsnNaIinfyxu\ufeff\ud800é日')


def strict(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {text[:40]} is out of range")
    return value


def outcome(call: Any, *args: Any, **kwargs: Any) -> tuple[str, str]:
    """What a call gave, comparable across NaN (by its JSON text) and errors (type and message)."""
    try:
        return "ok", json.dumps(call(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - the very thing compared
        return type(exc).__name__, str(exc)


@given(values, st.booleans(), st.sampled_from([None, 2]), st.sampled_from([" ", "", "\n\t "]))
def test_loads_of_any_document(value: Any, ascii_only: bool, indent: int | None, pad: str) -> None:
    text = pad + json.dumps(value, ensure_ascii=ascii_only, indent=indent) + pad
    assert outcome(quickjson.loads, text) == outcome(json.loads, text)


@given(st.text(st.sampled_from(JSON_CHARS), max_size=30))
def test_loads_of_any_text(text: str) -> None:
    assert outcome(quickjson.loads, text) == outcome(json.loads, text, parse_constant=strict, parse_float=finite)


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"a": -Infinity}', ' {"x": [1, NaN]} '])
def test_loads_refuses_the_non_json_constants(text: str) -> None:
    with pytest.raises(ValueError, match="not valid JSON"):
        quickjson.loads(text)


@pytest.mark.parametrize("value", [float("nan"), [float("inf")], {"a": float("-inf")}])
def test_dumps_refuses_the_non_json_constants(value: Any) -> None:
    with pytest.raises(ValueError):
        quickjson.dumps(value)


@given(values, st.booleans())
def test_dumps(value: Any, ascii_only: bool) -> None:
    expected = json.dumps(value, ensure_ascii=ascii_only, separators=(",", ":"))
    assert quickjson.dumps(value, ensure_ascii=ascii_only) == expected


@pytest.mark.parametrize("value", [{1: "int key"}, {"a": {1, 2}}, {"b": b"bytes"}, "just text"])
def test_dumps_of_what_json_refuses_or_special_cases(value: Any) -> None:
    assert outcome(quickjson.dumps, value) == outcome(json.dumps, value, separators=(",", ":"))


def test_deep_nesting_errors_as_json_does() -> None:
    text = "[" * 100_000
    assert outcome(quickjson.loads, text) == outcome(json.loads, text)


@pytest.mark.parametrize("text", ["1e999999", "[-1e400]", '{"timeout": 1E309}', "9" * 400 + ".0"])
def test_loads_refuses_numbers_that_overflow_a_float(text: str) -> None:
    """They would read as infinity, which no answer can echo back (issue 35, item 5)."""
    with pytest.raises(ValueError, match="out of range"):
        quickjson.loads(text)


def test_loads_keeps_big_but_finite_numbers() -> None:
    assert quickjson.loads("[1e308, -2.5e-400, 123456789012345678901234567890]") == [
        1e308, -0.0, 123456789012345678901234567890]
