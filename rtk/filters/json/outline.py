"""An outline of a JSON value that keeps its shape: keys, types, lengths, first items.

Top-level keys are always listed; nested objects are opened to MAX_DEPTH; an array shows its
length and its first item (a homogeneous array of objects also says which keys its items
share); a big object whose values all look alike (versions, timestamps) lists its keys and opens
only the first few values. Strings are cut at STRING_CUT characters with their length.
"""
from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 3
STRING_CUT = 60
OPEN_KEYS = 40       # an object with more keys opens only its first and last few
OPEN_EDGE = 4
LIST_KEYS = 80       # names listed for a big object (the first and last half beyond)
SCALARS_SHOWN = 8
MAP_KEYS = 8         # an object with this many keys whose values are all containers is a map
MAX_LINES = 200


def kind(value: Any) -> str:
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool) or value is None:
        return "bool" if isinstance(value, bool) else "null"
    return "number"


def scalar(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and len(value) > STRING_CUT:
        return json.dumps(value[:STRING_CUT], ensure_ascii=False)[:-1] + f'…" ({len(value):,} chars)'
    return text


def summary(value: Any) -> str:
    """A one-line description of a container: `{24 keys}`, `[157 strings]`, `[2 objects]`."""
    if isinstance(value, dict):
        return f"{{{len(value):,} key{'' if len(value) == 1 else 's'}}}" if value else "{}"
    if isinstance(value, list):
        if not value:
            return "[]"
        kinds = {kind(item) for item in value}
        noun = kinds.pop() if len(kinds) == 1 else "items"
        return f"[{len(value):,} {noun}{'' if len(value) == 1 else 's'}]".replace("nulls", "nulls")
    return scalar(value)


def outline(value: Any, label: str = "", depth: int = 0) -> list[str]:
    pad = "  " * depth
    head = f"{pad}{label}: " if label else pad
    if isinstance(value, dict):
        return [head + summary(value), *_object_body(value, depth)]
    if isinstance(value, list):
        return _array(value, head, depth)
    return [head + scalar(value)]


def _object_body(value: dict[str, Any], depth: int) -> list[str]:
    if not value or depth >= MAX_DEPTH:
        return [f"{'  ' * (depth + 1)}keys: {_names(list(value))}"] if value and depth >= MAX_DEPTH else []
    keys = list(value)
    if len(keys) >= MAP_KEYS and len({kind(v) for v in value.values()}) == 1 \
            and isinstance(next(iter(value.values())), (dict, list)):
        return _map_body(value, keys, depth)
    if len(keys) <= OPEN_KEYS:
        return [line for key in keys for line in outline(value[key], _key(key), depth + 1)]
    shown = keys[:OPEN_EDGE] + keys[-OPEN_EDGE:]
    out = [f"{'  ' * (depth + 1)}keys: {_names(keys)}"]
    for key in shown:
        out.extend(outline(value[key], _key(key), depth + 1))
        if key == keys[OPEN_EDGE - 1]:
            named = "named above" if len(keys) <= LIST_KEYS else "the first and last named above"
            out.append(f"{'  ' * (depth + 1)}... {len(keys) - 2 * OPEN_EDGE:,} more keys ({named})")
    return out


def _map_body(value: dict[str, Any], keys: list[str], depth: int) -> list[str]:
    """Many keys, values all alike (versions, ids): name every key, open the first and last."""
    pad = "  " * (depth + 1)
    out = [f"{pad}keys: {_names(keys)}"]
    out.extend(outline(value[keys[0]], _key(keys[0]), depth + 1))
    out.append(f"{pad}... {len(keys) - 2:,} more{_shared_keys(list(value.values()))}")
    out.extend(outline(value[keys[-1]], _key(keys[-1]), depth + 1))
    return out


def _array(value: list[Any], head: str, depth: int) -> list[str]:
    if not value or all(not isinstance(item, (dict, list)) for item in value):
        return [head + summary(value) + (" " + _scalars(value) if value else "")]
    out = [head + summary(value)]
    if depth >= MAX_DEPTH:
        return out
    out.extend(outline(value[0], "[0]", depth + 1))
    if len(value) > 2:
        out.append(f"{'  ' * (depth + 1)}... {len(value) - 2:,} more{_shared_keys(value)}")
    if len(value) > 1:
        out.extend(outline(value[-1], f"[{len(value) - 1}]", depth + 1))
    return out


def _shared_keys(items: list[Any]) -> str:
    if not all(isinstance(item, dict) for item in items):
        kinds = sorted({kind(item) for item in items})
        return f" ({', '.join(kinds)})"
    first = list(items[0])
    extra = sorted({k for item in items for k in item} - set(first))
    same = all(list(item) == first for item in items)
    if same:
        return ", same keys"
    return f", keys vary{': also ' + _names(extra) if extra else ''}"


def _scalars(values: list[Any]) -> str:
    if len(values) <= SCALARS_SHOWN + 2:
        return ", ".join(scalar(v) for v in values)
    shown = [scalar(v) for v in values[:SCALARS_SHOWN]]
    return ", ".join(shown) + f", ... {len(values) - SCALARS_SHOWN - 2:,} more, " + \
        ", ".join(scalar(v) for v in values[-2:])


def _names(keys: list[str]) -> str:
    if len(keys) <= LIST_KEYS:
        return ", ".join(_key(k) for k in keys)
    half = LIST_KEYS // 2
    return ", ".join(_key(k) for k in keys[:half]) + f", ... {len(keys) - LIST_KEYS:,} more, " + \
        ", ".join(_key(k) for k in keys[-half:])


def _key(key: str) -> str:
    plain = key and all(c.isalnum() or c in "_-.@$/" for c in key)
    return key if plain else json.dumps(key, ensure_ascii=False)
