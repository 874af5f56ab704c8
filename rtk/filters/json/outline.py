"""An outline of a JSON value that keeps its shape and its values, as much as a budget holds.

Someone who runs `curl` on an API or `jq .info` on a lock file wants the values, not only the
shape. So the outline is drawn at the most detailed level (DETAIL, first row) whose rendering
fits the budget, and only when none does is the last, coarsest one cut at the budget. At every
level: every top-level key is named; scalars are shown as JSON (strings cut with their length);
an array says how many items of which kind it holds and shows samples (its first items and its
last); a big object whose values all look alike (versions, timestamps: a map) names its keys and
opens the first and last; nesting is opened to the level's depth, below which containers are
one-line summaries (`{24 keys}`, `[157 strings]`).
"""
from __future__ import annotations

import json
from typing import Any

MAX_LINES = 200  # the coarsest level is cut here too


class Detail:
    """How much one rendering shows (one row of DETAIL)."""

    __slots__ = ("depth", "edge", "items", "list_keys", "open_keys", "scalars", "string_cut")

    def __init__(self, depth: int, items: int, scalars: int, open_keys: int, string_cut: int,
                 edge: int = 4, list_keys: int = 80) -> None:
        self.depth, self.items, self.scalars = depth, items, scalars  # depth opened; samples shown
        self.open_keys, self.string_cut = open_keys, string_cut
        self.edge, self.list_keys = edge, list_keys  # of a big object: keys opened at each end; names listed


DETAIL = (
    Detail(depth=8, items=10, scalars=200, open_keys=200, string_cut=400, edge=20, list_keys=400),
    Detail(depth=6, items=5, scalars=60, open_keys=100, string_cut=200, edge=10, list_keys=200),
    Detail(depth=5, items=3, scalars=20, open_keys=60, string_cut=120, edge=6, list_keys=120),
    Detail(depth=3, items=1, scalars=8, open_keys=40, string_cut=60, list_keys=120),
    Detail(depth=2, items=1, scalars=4, open_keys=20, string_cut=40, edge=2, list_keys=40),
)
MAP_KEYS = 8  # an object with this many keys whose values are all containers is a map


class _Full(Exception):
    """The rendering went past its budget: try a coarser level."""


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


def scalar(value: Any, cut: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and len(value) > cut:
        return json.dumps(value[:cut], ensure_ascii=False)[:-1] + f'…" ({len(value):,} chars)'
    return text


def summary(value: Any, cut: int = 60) -> str:
    """A one-line description of a container: `{24 keys}`, `[157 strings]`, `[2 objects]`."""
    if isinstance(value, dict):
        return f"{{{len(value):,} key{'' if len(value) == 1 else 's'}}}" if value else "{}"
    if isinstance(value, list):
        if not value:
            return "[]"
        kinds = {kind(item) for item in value}
        noun = kinds.pop() if len(kinds) == 1 else "item"
        return f"[{len(value):,} {noun}{'' if len(value) == 1 else 's'}]"
    return scalar(value, cut)


def fit_outline(value: Any, budget: int) -> list[str]:
    """The most detailed outline whose text fits in `budget` chars (the coarsest one, cut, if none)."""
    if isinstance(value, list) and value and all(not isinstance(item, (dict, list)) for item in value):
        return _flat_list(value, budget)
    for detail in DETAIL[:-1]:
        try:
            return _Renderer(detail, budget).render(value)
        except _Full:
            continue
    lines = _Renderer(DETAIL[-1], None).render(value)
    kept: list[str] = []
    used = 0
    for line in lines:
        used += len(line) + 1
        if used > budget or len(kept) >= MAX_LINES:
            return [*kept, f"... outline cut here ({len(lines) - len(kept):,} more lines)"]
        kept.append(line)
    return kept


def _flat_list(values: list[Any], budget: int) -> list[str]:
    """A long list of names or numbers (`jq keys`): one per line, as many from the start (3/4 of
    the room) and from the end as fit, with the count of those between."""
    items = [scalar(v, DETAIL[0].string_cut) for v in values]
    head: list[str] = []
    used = 0
    for item in items:
        if used + len(item) + 3 > budget * 3 // 4:
            break
        head.append(item)
        used += len(item) + 3
    tail: list[str] = []
    for item in reversed(items[len(head):]):
        if used + len(item) + 3 > budget:
            break
        tail.append(item)
        used += len(item) + 3
    middle = len(items) - len(head) - len(tail)
    more = [f"  ... {middle:,} more"] if middle else []
    return [summary(values), *(f"  {item}" for item in head), *more, *(f"  {item}" for item in reversed(tail))]


def compresses(value: Any, chars: int) -> bool:
    """Whether the full-detail outline is clearly smaller than the document (not an API object of
    scalars, whose outline is the document again without its quotes)."""
    try:
        _Renderer(DETAIL[0], chars * 4 // 5).render(value)
    except _Full:
        return False
    return True


def outline(value: Any, label: str = "", depth: int = 0) -> list[str]:
    """The coarse outline (no budget): the shape, first and last items, short values."""
    return _Renderer(DETAIL[3], None).outline(value, label, depth)


class _Renderer:
    def __init__(self, detail: Detail, budget: int | None) -> None:
        self.d = detail
        self.left = budget

    def render(self, value: Any) -> list[str]:
        return self.outline(value, "", 0)

    def _line(self, text: str) -> str:
        if self.left is not None:
            self.left -= len(text) + 1
            if self.left < 0:
                raise _Full
        return text

    def outline(self, value: Any, label: str, depth: int) -> list[str]:
        head = f"{'  ' * depth}{label}: " if label else "  " * depth
        if isinstance(value, dict):
            return [self._line(head + summary(value)), *self._object_body(value, depth)]
        if isinstance(value, list):
            return self._array(value, head, depth)
        return [self._line(head + scalar(value, self.d.string_cut))]

    def _object_body(self, value: dict[str, Any], depth: int) -> list[str]:
        pad = "  " * (depth + 1)
        if not value:
            return []
        keys = list(value)
        if depth >= self.d.depth:
            return [self._line(f"{pad}keys: {self._names(keys)}")]
        if len(keys) >= MAP_KEYS and len({kind(v) for v in value.values()}) == 1 \
                and isinstance(next(iter(value.values())), (dict, list)):
            return self._map_body(value, keys, depth)
        if len(keys) <= self.d.open_keys:
            return [line for key in keys for line in self.outline(value[key], _key(key), depth + 1)]
        if len(keys) <= self.d.list_keys:
            return self._every_key(value, keys, depth)
        edge = self.d.edge
        out = [self._line(f"{pad}keys: {self._names(keys)}")]
        for key in keys[:edge]:
            out.extend(self.outline(value[key], _key(key), depth + 1))
        named = "named above" if len(keys) <= self.d.list_keys else "the first and last named above"
        out.append(self._line(f"{pad}... {len(keys) - 2 * edge:,} more keys ({named})"))
        for key in keys[-edge:]:
            out.extend(self.outline(value[key], _key(key), depth + 1))
        return out

    def _every_key(self, value: dict[str, Any], keys: list[str], depth: int) -> list[str]:
        """Too many keys to open them all (an API object): every key on a line with its value when
        it is a scalar, its summary when a container; only the first and last containers opened."""
        containers = [key for key in keys if isinstance(value[key], (dict, list)) and value[key]]
        opened = set(containers[:self.d.edge // 2] + containers[-(self.d.edge // 2):]) if self.d.edge > 1 else set()
        pad = "  " * (depth + 1)
        out: list[str] = []
        for key in keys:
            item = value[key]
            if key in opened or not isinstance(item, (dict, list)):
                out.extend(self.outline(item, _key(key), depth + 1))
            else:
                out.append(self._line(f"{pad}{_key(key)}: {summary(item)}"))
        return out

    def _map_body(self, value: dict[str, Any], keys: list[str], depth: int) -> list[str]:
        """Many keys, values all alike (versions, ids): name every key, open the first and last few."""
        pad = "  " * (depth + 1)
        shown = max(1, self.d.items // 2)
        out = [self._line(f"{pad}keys: {self._names(keys)}")]
        for key in keys[:shown]:
            out.extend(self.outline(value[key], _key(key), depth + 1))
        if len(keys) > 2 * shown:
            out.append(self._line(f"{pad}... {len(keys) - 2 * shown:,} more{_shared_keys(list(value.values()))}"))
        for key in keys[max(shown, len(keys) - shown):]:
            out.extend(self.outline(value[key], _key(key), depth + 1))
        return out

    def _array(self, value: list[Any], head: str, depth: int) -> list[str]:
        if not value or all(not isinstance(item, (dict, list)) for item in value):
            return [self._line(head + summary(value) + (" " + self._scalars(value) if value else ""))]
        out = [self._line(head + summary(value))]
        if depth >= self.d.depth:
            return out
        first = min(self.d.items, len(value) - 1) if len(value) > 1 else 1
        for index in range(first):
            out.extend(self.outline(value[index], f"[{index}]", depth + 1))
        if len(value) > first + 1:
            out.append(self._line(f"{'  ' * (depth + 1)}... {len(value) - first - 1:,} more{_shared_keys(value)}"))
        if len(value) > first:
            out.extend(self.outline(value[-1], f"[{len(value) - 1}]", depth + 1))
        return out

    def _scalars(self, values: list[Any]) -> str:
        cut, shown = self.d.string_cut, self.d.scalars
        if len(values) <= shown + 2:
            return ", ".join(scalar(v, cut) for v in values)
        return ", ".join(scalar(v, cut) for v in values[:shown]) + \
            f", ... {len(values) - shown - 2:,} more, " + ", ".join(scalar(v, cut) for v in values[-2:])

    def _names(self, keys: list[str]) -> str:
        if len(keys) <= self.d.list_keys:
            return ", ".join(_key(k) for k in keys)
        half = self.d.list_keys // 2
        return ", ".join(_key(k) for k in keys[:half]) + f", ... {len(keys) - self.d.list_keys:,} more, " + \
            ", ".join(_key(k) for k in keys[-half:])


def _shared_keys(items: list[Any]) -> str:
    if not all(isinstance(item, dict) for item in items):
        kinds = sorted({kind(item) for item in items})
        return f" ({', '.join(kinds)})"
    first = list(items[0])
    extra = sorted({k for item in items for k in item} - set(first))
    if all(list(item) == first for item in items):
        return ", same keys"
    return f", keys vary{': also ' + ', '.join(_key(k) for k in extra[:40]) if extra else ''}"


def _key(key: str) -> str:
    plain = key and all(c.isalnum() or c in "_-.@$/" for c in key)
    return key if plain else json.dumps(key, ensure_ascii=False)
