"""Host permission rules (Claude Code, Cursor, Gemini CLI) and the verdict over a command's segments.

Deny if any segment matches a deny rule; else Ask if any matches an ask rule; else Allow if there
is an allow rule and every non-empty segment matches one; else Default (spec/rewrite.md). rtk must
never make a command more permitted than the host would, so matching follows the host's own
semantics and errs towards "no match". A malformed settings file is skipped with one stderr line.
"""
from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # no `typing` or `re` at start-up: regexes are built only when rules exist
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    Matcher = Callable[[str], bool]
    Sections = dict[str, list["Rule"]]

DENY, ASK, ALLOW, DEFAULT = "deny", "ask", "allow", "default"


class Rule:
    """One host rule as written (`Bash(git status)`) and its matcher over a segment's text."""

    __slots__ = ("matches", "text")

    def __init__(self, text: str, matches: Matcher) -> None:
        self.text, self.matches = text, matches

    def __repr__(self) -> str:
        return f"Rule({self.text!r})"


class Rules:
    __slots__ = ("allow", "ask", "deny")

    def __init__(self, allow: Sequence[Rule] = (), ask: Sequence[Rule] = (), deny: Sequence[Rule] = ()) -> None:
        self.allow, self.ask, self.deny = tuple(allow), tuple(ask), tuple(deny)

    def verdict(self, segments: Iterable[str], peeled: Iterable[str] = ()) -> tuple[str, str]:
        """(DENY|ASK|ALLOW|DEFAULT, one line saying why).

        `peeled` are segments without their env prefix and wrappers (`timeout 9 git push` ->
        `git push`): deny and ask rules see them too, allow rules never do (that would permit
        more than the host)."""
        segs = [s.strip() for s in segments if s.strip()]
        strict = segs + [s.strip() for s in peeled if s.strip()]
        for kind, rules in ((DENY, self.deny), (ASK, self.ask)):
            for seg in strict:
                if rule := _first(rules, seg):
                    return kind, f"{kind} rule {rule.text} matches `{seg}`"
        if not (self.allow or self.ask or self.deny):
            return DEFAULT, "no permission rules"
        if not self.allow:
            return DEFAULT, "no allow rules"
        for seg in segs:
            if _first(self.allow, seg) is None:
                return DEFAULT, f"no allow rule covers `{seg}`"
        return (ALLOW, "allow rules cover every segment") if segs else (DEFAULT, "no segments")


def _first(rules: Sequence[Rule], seg: str) -> Rule | None:
    return next((rule for rule in rules if rule.matches(seg)), None)


def load(host: str | None, cwd: str | None = None, home: str | None = None) -> Rules:
    """The rules `host` would apply in `cwd`; hosts without readable rules give empty Rules."""
    home = home or os.path.expanduser("~")
    if host == "claude":
        return _claude(cwd or os.getcwd(), home)
    if host == "cursor":
        return _from_files([os.path.join(home, ".cursor", "cli-config.json")], _cursor_sections)
    if host == "gemini":
        return _from_files([os.path.join(home, ".gemini", "settings.json")], _gemini_sections)
    return Rules()


def claude_files(cwd: str, home: str) -> list[str]:
    """Project settings (nearest ancestor of cwd holding .claude/), then the user's."""
    files = []
    project = _nearest_with(os.path.abspath(cwd), ".claude")
    if project is not None:
        files += [os.path.join(project, ".claude", name) for name in ("settings.json", "settings.local.json")]
    files += [os.path.join(home, ".claude", name) for name in ("settings.json", "settings.local.json")]
    seen: dict[str, str] = {}
    for path in files:
        seen.setdefault(os.path.realpath(path), path)
    return list(seen.values())


def _nearest_with(path: str, name: str) -> str | None:
    while True:
        if os.path.isdir(os.path.join(path, name)):
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def _claude(cwd: str, home: str) -> Rules:
    return _from_files(claude_files(cwd, home), _claude_sections)


def _from_files(paths: list[str], sections: Callable[[dict], Sections]) -> Rules:
    merged: Sections = {ALLOW: [], ASK: [], DENY: []}
    for path in paths:
        data = _read_json(path)
        if data is None:
            continue
        try:
            found = sections(data)
        except TypeError as exc:
            print(f"rtk: skipping malformed {path}: {exc}", file=sys.stderr)
            continue
        for kind, rules in found.items():
            merged[kind] += rules
    return Rules(tuple(merged[ALLOW]), tuple(merged[ASK]), tuple(merged[DENY]))


def _read_json(path: str) -> dict | None:
    if not os.path.exists(path):  # the usual case: no json decoding machinery loaded at all
        return None
    from rtk.agent import hook_json  # json.load without the json package's start-up cost

    try:
        with open(path, encoding="utf-8-sig") as f:
            data = hook_json.loads(f.read())
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError) as exc:
        print(f"rtk: skipping malformed {path}: {exc}", file=sys.stderr)
        return None
    if not isinstance(data, dict):
        print(f"rtk: skipping malformed {path}: expected a JSON object", file=sys.stderr)
        return None
    return data


def _entries(data: dict, *keys: str) -> list[str]:
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


def _tool_rules(entries: list[str], tool: str, build: Callable[[str], Matcher]) -> list[Rule]:
    """Entries `TOOL` (everything) and `TOOL(pattern)`; other tools' entries are not ours."""
    rules = []
    for entry in entries:
        text = entry.strip()
        if text == tool:
            rules.append(Rule(text, _everything))
        elif text.startswith(tool + "(") and text.endswith(")"):
            rules.append(Rule(text, build(text[len(tool) + 1:-1].strip())))
    return rules


def _claude_sections(data: dict) -> Sections:
    return {kind: _tool_rules(_entries(data, "permissions", kind), "Bash", claude_matcher)
            for kind in (ALLOW, ASK, DENY)}


def _cursor_sections(data: dict) -> Sections:
    return {kind: _tool_rules(_entries(data, "permissions", kind), "Shell", cursor_matcher)
            for kind in (ALLOW, DENY)}


def _gemini_sections(data: dict) -> Sections:
    return {ALLOW: _tool_rules(_entries(data, "tools", "allowed"), "run_shell_command", prefix_matcher),
            DENY: _tool_rules(_entries(data, "tools", "exclude"), "run_shell_command", prefix_matcher)}


def _everything(text: str) -> bool:
    return True


def claude_matcher(pattern: str) -> Matcher:
    """Claude Code: `cmd:*` prefix at a word boundary, `*` a glob (`ls *` also matches bare `ls`),
    anything else the exact command."""
    if pattern in ("", "*", ":*"):
        return _everything
    if pattern.endswith(":*"):
        return _prefix_or_glob(pattern[:-2].rstrip())
    if "*" in pattern:
        if pattern.endswith(" *"):
            return _prefix_or_glob(pattern[:-2].rstrip())
        return _regex_matcher(_glob(pattern))
    exact = " ".join(pattern.split())
    return lambda text: text == exact


def cursor_matcher(pattern: str) -> Matcher:
    """Cursor `Shell(base)`: the command base (prefix at a word boundary); `*` globs."""
    if pattern.strip("*") == "":
        return _everything
    if "*" in pattern:
        return _regex_matcher(_glob(pattern.replace("**", "*")))
    return prefix_matcher(pattern)


def prefix_matcher(prefix: str) -> Matcher:
    """Gemini `run_shell_command(prefix)`: the command starts with prefix at a word boundary."""
    if not prefix:
        return _everything
    return _word_prefix(" ".join(prefix.split()))


def _prefix_or_glob(base: str) -> Matcher:
    """`base` then nothing or white space and anything; `*` in base is a glob (regex, built then)."""
    if "*" in base:
        return _regex_matcher(_glob(base) + r"(?:\s.*)?")
    return _word_prefix(base)


def _word_prefix(base: str) -> Matcher:
    r"""The regex `re.escape(base) + r"(?:\s.*)?"` (DOTALL, full match) without `re` (~6 ms to
    import, before every agent command): `\s` is exactly `str.isspace`."""
    size = len(base)
    return lambda text: text.startswith(base) and (len(text) == size or text[size].isspace())


def _glob(pattern: str) -> str:
    import re

    return ".*".join(re.escape(part) for part in pattern.split("*"))


def _regex_matcher(regex: str) -> Matcher:
    import re

    compiled = re.compile(regex, re.DOTALL)
    return lambda text: compiled.fullmatch(text) is not None
