"""Reading the hosts' permission files: JSON settings, Codex's Starlark `.rules`, Gemini's TOML policies.

Each reader returns plain data (strings and tuples) for `permissions` to build rules from. A file
that is missing costs one `stat`; one that cannot be read or parsed is skipped with one line on
stderr, never an exception, because a broken settings file must not stop the agent. The JSON
reader avoids the `json` package (see rtk/quickjson.py); Codex and Gemini files, when they exist, may
pay for their parsers.
"""
from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

CLAUDE_MANAGED = ("/etc/claude-code/managed-settings.json",
                  "/Library/Application Support/ClaudeCode/managed-settings.json")
GEMINI_SYSTEM = "/etc/gemini-cli/settings.json" if sys.platform != "darwin" else \
    "/Library/Application Support/GeminiCli/settings.json"
CODEX_DECISIONS = frozenset({"allow", "prompt", "forbidden"})
GEMINI_DECISIONS = {"allow": "allow", "deny": "deny", "ask_user": "ask"}
SHELL_TOOLS = frozenset({"run_shell_command", "ShellTool", "run_shell", "shell"})


def warn(message: str) -> None:
    try:
        print(f"rtk: {message}", file=sys.stderr)
    except (OSError, ValueError):
        pass


def nearest_with(path: str, name: str) -> str | None:
    """The nearest ancestor of `path` (itself included) holding a directory `name`."""
    while True:
        if os.path.isdir(os.path.join(path, name)):
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def read_json(path: str) -> dict | None:
    if not os.path.exists(path):  # the usual case: no decoding machinery loaded at all
        return None
    from rtk import quickjson

    try:
        with open(path, encoding="utf-8-sig") as f:
            data = quickjson.loads(f.read())
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError) as exc:
        warn(f"skipping malformed {path}: {exc}")
        return None
    if not isinstance(data, dict):
        warn(f"skipping malformed {path}: expected a JSON object")
        return None
    return data


def entries(data: dict, *keys: str) -> list[str]:
    """The string list at data[keys...]; a missing key is empty, a wrong type is malformed."""
    node: object = data
    for key in keys:
        if not isinstance(node, dict):
            raise TypeError(f"'{'.'.join(keys)}' is not inside an object")
        node = node.get(key)
        if node is None:
            return []
    if not isinstance(node, list):
        raise TypeError(f"'{'.'.join(keys)}' should be a list")
    return [entry for entry in node if isinstance(entry, str)]


def _files(directory: str, suffix: str) -> list[str]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [os.path.join(directory, name) for name in names if name.endswith(suffix)]


def codex_rules(directory: str) -> list[tuple[str, str, tuple[frozenset[str], ...]]]:
    """(decision, text, positions) of every `prefix_rule(...)` in `directory/*.rules`."""
    found = []
    for path in _files(directory, ".rules"):
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
            found += [(d, f"prefix_rule in {path}: {t}", p) for d, t, p in starlark_rules(source)]
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            warn(f"skipping malformed {path}: {exc}")
    return found


def starlark_rules(source: str) -> Iterator[tuple[str, str, tuple[frozenset[str], ...]]]:
    """The `prefix_rule` calls of a Codex rules file (Starlark's literal subset: strings, lists,
    keyword arguments). An unreadable call raises ValueError: the whole file is then skipped,
    since a half-read deny list is worse than a reported broken one."""
    pos = 0
    while (at := source.find("prefix_rule(", pos)) >= 0:
        if at and (source[at - 1].isalnum() or source[at - 1] == "_"):
            pos = at + 1
            continue
        reader = _Literals(source, at + len("prefix_rule("))
        kwargs = reader.call_arguments()
        pos = reader.pos
        pattern, decision = kwargs.get("pattern"), kwargs.get("decision", "allow")
        if not isinstance(pattern, list) or not pattern or decision not in CODEX_DECISIONS:
            raise ValueError(f"prefix_rule at offset {at} has no usable pattern or decision")
        positions = tuple(frozenset(item if isinstance(item, list) else [item]) for item in pattern)
        if not all(positions) or not all(isinstance(w, str) for p in positions for w in p):
            raise ValueError(f"prefix_rule at offset {at} has a malformed pattern")
        yield decision, source[at:pos], positions


class _Literals:
    """A reader for `name=literal, ...)` where literals are strings and (nested) lists."""

    def __init__(self, source: str, pos: int) -> None:
        self.src, self.pos = source, pos

    def _skip(self) -> None:
        while self.pos < len(self.src):
            ch = self.src[self.pos]
            if ch == "#":
                end = self.src.find("\n", self.pos)
                self.pos = len(self.src) if end < 0 else end
            elif ch in " \t\r\n":
                self.pos += 1
            else:
                return

    def call_arguments(self) -> dict[str, object]:
        kwargs: dict[str, object] = {}
        while True:
            self._skip()
            if self.src.startswith(")", self.pos):
                self.pos += 1
                return kwargs
            name = self._name()
            self._skip()
            self._expect("=")
            kwargs[name] = self.value()
            self._skip()
            if self.src.startswith(",", self.pos):
                self.pos += 1

    def _name(self) -> str:
        start = self.pos
        while self.pos < len(self.src) and (self.src[self.pos].isalnum() or self.src[self.pos] == "_"):
            self.pos += 1
        if start == self.pos:
            raise ValueError(f"expected an argument name at offset {start}")
        return self.src[start:self.pos]

    def _expect(self, text: str) -> None:
        if not self.src.startswith(text, self.pos):
            raise ValueError(f"expected {text!r} at offset {self.pos}")
        self.pos += len(text)

    def value(self) -> object:
        self._skip()
        ch = self.src[self.pos:self.pos + 1]
        if ch in ("'", '"'):
            return self._string(ch)
        if ch == "[":
            return self._list()
        start = self.pos
        while self.pos < len(self.src) and self.src[self.pos] not in ",)]\n":
            self.pos += 1
        return self.src[start:self.pos].strip()  # an identifier or number: kept as text

    def _list(self) -> list[object]:
        self.pos += 1
        items: list[object] = []
        while True:
            self._skip()
            if self.src.startswith("]", self.pos):
                self.pos += 1
                return items
            items.append(self.value())
            self._skip()
            if self.src.startswith(",", self.pos):
                self.pos += 1
            elif not self.src.startswith("]", self.pos):
                raise ValueError(f"expected ',' or ']' at offset {self.pos}")

    def _string(self, quote: str) -> str:
        triple = self.src.startswith(quote * 3, self.pos)
        end_mark = quote * 3 if triple else quote
        self.pos += len(end_mark)
        out: list[str] = []
        while not self.src.startswith(end_mark, self.pos):
            if self.pos >= len(self.src) or (not triple and self.src[self.pos] == "\n"):
                raise ValueError("unterminated string")
            ch = self.src[self.pos]
            if ch == "\\" and self.pos + 1 < len(self.src):
                nxt = self.src[self.pos + 1]
                out.append({"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}.get(nxt, "\\" + nxt))
                self.pos += 2
                continue
            out.append(ch)
            self.pos += 1
        self.pos += len(end_mark)
        return "".join(out)


GeminiPolicy = tuple[str, str | None, str | None]  # (text, command prefix, command regex)


def gemini_policies(directory: str) -> dict[str, list[GeminiPolicy]]:
    """allow/ask/deny -> (text, command prefix, command regex) of the shell rules in Gemini's
    `policies/*.toml`; neither prefix nor regex: every command. An `argsPattern` rule counts as
    covering every command for deny and ask (rtk cannot know what it spares) and is dropped for
    allow."""
    found: dict[str, list[GeminiPolicy]] = {"allow": [], "ask": [], "deny": []}
    paths = _files(directory, ".toml")
    if not paths:
        return found
    import tomllib

    for path in paths:
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
            for rule in data.get("rule", []):
                _gemini_rule(rule, path, found)
        except (OSError, ValueError, AttributeError, TypeError) as exc:
            warn(f"skipping malformed {path}: {exc}")
    return found


def _gemini_rule(rule: dict, path: str, found: dict[str, list[GeminiPolicy]]) -> None:
    tools = rule.get("toolName")
    names = tools if isinstance(tools, list) else [tools]
    kind = GEMINI_DECISIONS.get(rule.get("decision", ""))
    if kind is None or not any(name in SHELL_TOOLS or name == "*" for name in names):
        return
    text = f"policy rule in {path}: {rule.get('commandPrefix') or rule.get('commandRegex') or '*'}"
    prefixes, regex = rule.get("commandPrefix"), rule.get("commandRegex")
    if prefixes is not None:
        for prefix in prefixes if isinstance(prefixes, list) else [prefixes]:
            found[kind].append((text, str(prefix), None))
    elif isinstance(regex, str):
        found[kind].append((text, None, regex))
    elif kind != "allow" or not rule.get("argsPattern"):
        found[kind].append((text, None, None))
