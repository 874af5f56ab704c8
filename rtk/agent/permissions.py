"""Host permission rules and the verdict over a command's segments (spec/rewrite.md, "Permissions").

Deny if any segment matches a deny rule; else Ask if any matches an ask rule; else Allow if there
is an allow rule and every segment is covered by one; else Default. rtk must never make a command
more permitted than the host would, so the two readings of a command (`segments.Segment`: the
words bash runs, the text as written) are combined to err towards "no": a deny or ask rule
matches when it matches either reading (case-folded, with wrappers peeled); an allow rule covers
only when it matches both, and never a command the lexer cannot attest. Malformed rules and
settings files are skipped with one stderr line each. Files are read by `rule_files`.
"""
from __future__ import annotations

import os

from rtk.agent import inner, patterns, rule_files

TYPE_CHECKING = False  # no `typing` or `re` at start-up: this runs before every agent command
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from rtk.agent.patterns import Pattern
    from rtk.agent.segments import Segment

DENY, ASK, ALLOW, DEFAULT = "deny", "ask", "allow", "default"
KINDS = (ALLOW, ASK, DENY)


class Rule:
    """One rule as written (`Bash(git status)`): `covers` (allow) and `blocks` (deny and ask)."""

    __slots__ = ("exact_words", "folded", "pattern", "text")

    def __init__(self, text: str, pattern: Pattern, folded: Pattern | None = None) -> None:
        self.text, self.pattern = text, pattern
        self.folded = folded or pattern
        self.exact_words = pattern.kind == "exact"

    def __repr__(self) -> str:
        return f"Rule({self.text!r})"

    def covers(self, seg: Segment) -> bool:
        """Allow: the words bash runs and the text as written both match (never a non-literal)."""
        if not seg.literal:
            return False
        return self.pattern.test(seg.joined()) and self.pattern.test(seg.text)

    def covers_completions(self, seg: Segment) -> bool:
        """Allow, for a command another one starts (`find -exec grep {} +`, `xargs wc -l`): when
        its words are uncertain only past a known start, a prefix rule within that start covers
        every completion."""
        if seg.literal:
            return self.covers(seg)
        head = self.pattern.head
        if self.pattern.kind == "everything":
            return True
        return self.pattern.kind == "prefix" and bool(head) and seg.known.startswith(head + " ")

    def blocks(self, seg: Segment) -> bool:
        """Deny or ask: any reading matches, case-folded; for a non-literal command, any command
        starting with the certain text could match."""
        if not seg.literal:
            return any(self.folded.could_match(known.lower()) for known in (seg.known, seg.known_peeled()))
        return any(self.folded.test(form.lower()) for form in seg.forms())


class ArgvRule(Rule):
    """A rule over argv tokens (Codex's `prefix_rule(pattern=[...])`): each position one word or a
    set of alternatives, matched as a prefix of the argv."""

    __slots__ = ("positions",)

    def __init__(self, text: str, positions: Sequence[frozenset[str]]) -> None:
        super().__init__(text, patterns.everything())
        self.positions = tuple(positions)

    def _argv_match(self, argv: Sequence[str]) -> bool:
        return len(argv) >= len(self.positions) and all(
            word in allowed for word, allowed in zip(argv, self.positions, strict=False))

    def covers(self, seg: Segment) -> bool:
        return seg.literal and self._argv_match(seg.words)

    def covers_completions(self, seg: Segment) -> bool:
        if seg.literal:
            return self.covers(seg)
        known = seg.words[:seg.certain.index(False)]
        return len(known) >= len(self.positions) and self._argv_match(known)

    def blocks(self, seg: Segment) -> bool:
        if seg.literal:
            return self._argv_match(seg.words) or self._argv_match(seg.argv)
        return any(self._could_match(known.split(" ")) for known in (seg.known, seg.known_peeled()))

    def _could_match(self, known: list[str]) -> bool:
        """The certain words agree with the pattern; the last one may be cut short."""
        for k, (word, allowed) in enumerate(zip(known, self.positions, strict=False)):
            last = k == len(known) - 1
            if not (word in allowed or (last and any(a.startswith(word) for a in allowed))):
                return False
        return True


class Rules:
    __slots__ = ("allow", "ask", "deny")

    def __init__(self, allow: Sequence[Rule] = (), ask: Sequence[Rule] = (),
                 deny: Sequence[Rule] = ()) -> None:
        self.allow, self.ask, self.deny = tuple(allow), tuple(ask), tuple(deny)

    def __bool__(self) -> bool:
        return bool(self.allow or self.ask or self.deny)

    def verdict(self, segments: Iterable[Segment]) -> tuple[str, str]:
        """(DENY|ASK|ALLOW|DEFAULT, one line saying why). Deny and ask rules also see what each
        segment runs (`inner.readings`: git without its global options, find's -exec, xargs,
        trap strings, wrappers); allow rules must also cover what it starts."""
        segs = [seg for seg in segments if seg.words]
        if not self:
            return DEFAULT, "no permission rules"
        extra = inner.readings(segs)
        blocking = segs + [seg for seg, _ in extra]
        for kind, rules in ((DENY, self.deny), (ASK, self.ask)):
            for seg in blocking:
                if rule := next((r for r in rules if r.blocks(seg)), None):
                    return kind, f"{kind} rule {rule.text} matches `{seg.text}`"
        if not self.allow:
            return DEFAULT, "no allow rules"
        for seg in segs:
            if not seg.literal:
                return DEFAULT, f"`{seg.text}` has words rtk cannot attest"
            if not any(rule.covers(seg) for rule in self.allow):
                return DEFAULT, f"no allow rule covers `{seg.text}`"
        for seg in (seg for seg, needs_allow in extra if needs_allow):
            if not any(rule.covers_completions(seg) for rule in self.allow):
                return DEFAULT, f"no allow rule covers `{seg.text}` (a command it runs)"
        return (ALLOW, "allow rules cover every segment") if segs else (DEFAULT, "no segments")

    def merged(self, other: Rules) -> Rules:
        return Rules(self.allow + other.allow, self.ask + other.ask, self.deny + other.deny)


def load(host: str | None, cwd: str | None = None, home: str | None = None) -> Rules:
    """The rules `host` applies in `cwd`; a host without readable rules gives empty Rules."""
    home = home or os.path.expanduser("~")
    cwd = cwd or os.getcwd()
    loader = LOADERS.get(host or "")
    return loader(cwd, home) if loader else Rules()


def claude_config_dir(home: str) -> str:
    return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")


def codex_home(home: str) -> str:
    return os.environ.get("CODEX_HOME") or os.path.join(home, ".codex")


def claude_files(cwd: str, home: str) -> list[str]:
    """Managed settings, the project's (nearest ancestor of cwd holding .claude/), the user's."""
    files = list(rule_files.CLAUDE_MANAGED)
    project = rule_files.nearest_with(os.path.abspath(cwd), ".claude")
    if project is not None:
        files += [os.path.join(project, ".claude", name) for name in ("settings.json", "settings.local.json")]
    user = claude_config_dir(home)
    files += [os.path.join(user, name) for name in ("settings.json", "settings.local.json")]
    seen: dict[str, str] = {}
    for path in files:
        seen.setdefault(os.path.realpath(path), path)
    return list(seen.values())


def _claude(cwd: str, home: str) -> Rules:
    """Claude's settings files, and what its command line adds: `--disallowedTools`,
    `--allowedTools`, `--settings FILE-OR-JSON`."""
    from rtk.agent import host_flags

    rules = _claude_files(cwd, home).merged(_flag_rules("claude", patterns.parse_claude))
    for value in host_flags.option_values("claude", "--settings"):
        rules = rules.merged(_claude_settings_value(value, cwd))
    return rules


def _claude_settings_value(value: str, cwd: str) -> Rules:
    if not value.lstrip().startswith("{"):
        return _from_json([os.path.join(cwd, os.path.expanduser(value))], _claude_sections)
    from rtk import quickjson

    try:
        data = quickjson.loads(value)
        return Rules(**_claude_sections(data, "--settings")) if isinstance(data, dict) else Rules()
    except (ValueError, RecursionError, TypeError) as exc:
        rule_files.warn(f"skipping malformed --settings on the claude command line: {exc}")
        return Rules()


def _claude_files(cwd: str, home: str) -> Rules:
    return _from_json(claude_files(cwd, home), _claude_sections)


def _codex(cwd: str, home: str) -> Rules:
    """Claude-style deny and ask rules, and Codex's own `rules/*.rules` (forbidden and prompt both
    mean: rtk steps aside, since `rtk X` would not match the rule the host checks)."""
    claude = _claude_files(cwd, home)
    found = rule_files.codex_rules(os.path.join(codex_home(home), "rules"))
    project = rule_files.nearest_with(os.path.abspath(cwd), ".codex")
    local = os.path.join(project, ".codex") if project is not None else None
    if local is not None and os.path.realpath(local) != os.path.realpath(codex_home(home)):
        found += rule_files.codex_rules(os.path.join(local, "rules"))  # the project's rules too
    deny = [ArgvRule(text, positions) for decision, text, positions in found if decision == "forbidden"]
    ask = [ArgvRule(text, positions) for decision, text, positions in found if decision == "prompt"]
    allow = [ArgvRule(text, positions) for decision, text, positions in found if decision == "allow"]
    return Rules(allow, claude.ask + tuple(ask), claude.deny + tuple(deny))


def _copilot(cwd: str, home: str) -> Rules:
    """Claude's rules (as the Rust rtk reads them) and Copilot's own `--deny-tool`/`--allow-tool`."""
    return _claude_files(cwd, home).merged(_flag_rules("copilot", _copilot_pattern))


def _copilot_pattern(content: str) -> Pattern | None:
    return patterns.parse_cursor(content.removesuffix(":*"))


def _flag_rules(host: str, parse: Callable[[str], Pattern | None]) -> Rules:
    """The rules given on the host's own command line (`--disallowedTools`, `--deny-tool`, ...)."""
    from rtk.agent import host_flags

    built: dict[str, list[Rule]] = {ALLOW: [], DENY: []}
    for kind, content in host_flags.tool_rules(host):
        text = f"{kind} {content!r} on the {host} command line"
        if content is None:
            built[kind].append(Rule(text, patterns.everything()))
        elif (pattern := parse(content)) is not None and (folded := parse(content.lower())) is not None:
            built[kind].append(Rule(text, pattern, folded))
        else:
            rule_files.warn(f"ignoring malformed permission rule {content!r} on the {host} command line")
    return Rules(built[ALLOW], (), built[DENY])


def _cursor(cwd: str, home: str) -> Rules:
    return _from_json([os.path.join(home, ".cursor", "cli-config.json")], _cursor_sections)


def _gemini(cwd: str, home: str) -> Rules:
    files = [os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or rule_files.GEMINI_SYSTEM,
             os.path.join(home, ".gemini", "settings.json")]
    project = rule_files.nearest_with(os.path.abspath(cwd), ".gemini")
    if project is not None and os.path.realpath(project) != os.path.realpath(home):
        files.append(os.path.join(project, ".gemini", "settings.json"))
    rules = _from_json(files, _gemini_sections).merged(_flag_rules("gemini", patterns.parse_prefix))
    policies = rule_files.gemini_policies(os.path.join(home, ".gemini", "policies"))
    built = {kind: [_gemini_policy_rule(*policy) for policy in policies[kind]] for kind in KINDS}
    return rules.merged(Rules(built[ALLOW], built[ASK], built[DENY]))


def _gemini_policy_rule(text: str, prefix: str | None, regex: str | None) -> Rule:
    if regex is not None:
        return Rule(text, patterns.gemini_regex(regex), patterns.gemini_regex(regex, fold=True))
    pattern = patterns.everything() if prefix is None else patterns.parse_prefix(prefix)
    assert pattern is not None
    return Rule(text, pattern, patterns.parse_prefix(prefix.lower()) if prefix else None)


def _from_json(paths: list[str], sections: Callable[[dict, str], dict[str, list[Rule]]]) -> Rules:
    merged: dict[str, list[Rule]] = {ALLOW: [], ASK: [], DENY: []}
    for path in paths:
        data = rule_files.read_json(path)
        if data is None:
            continue
        try:
            found = sections(data, path)
        except TypeError as exc:
            rule_files.warn(f"skipping malformed {path}: {exc}")
            continue
        for kind, rules in found.items():
            merged[kind] += rules
    return Rules(merged[ALLOW], merged[ASK], merged[DENY])


def _tool_rules(entries: list[str], tool: str, parse: Callable[[str], Pattern | None],
                path: str) -> list[Rule]:
    """Entries `TOOL` (everything) and `TOOL(pattern)`; other tools' entries are not ours; a
    malformed one (`Bash()`, `Bash(:*)`) is reported and ignored."""
    rules = []
    for entry in entries:
        text = entry.strip()
        if text == tool:
            rules.append(Rule(text, patterns.everything()))
        elif text.startswith(tool + "(") and text.endswith(")"):
            content = text[len(tool) + 1:-1]
            pattern, folded = parse(content), parse(content.lower())
            if pattern is None or folded is None:
                rule_files.warn(f"ignoring malformed permission rule {text} in {path}")
                continue
            rules.append(Rule(text, pattern, folded))
    return rules


def _claude_sections(data: dict, path: str) -> dict[str, list[Rule]]:
    return {kind: _tool_rules(rule_files.entries(data, "permissions", kind), "Bash", patterns.parse_claude,
                              path) for kind in KINDS}


def _cursor_sections(data: dict, path: str) -> dict[str, list[Rule]]:
    return {kind: _tool_rules(rule_files.entries(data, "permissions", kind), "Shell", patterns.parse_cursor,
                              path) for kind in (ALLOW, DENY)}


def _gemini_sections(data: dict, path: str) -> dict[str, list[Rule]]:
    def shell(*keys: str) -> list[Rule]:
        return _tool_rules(rule_files.entries(data, *keys), "run_shell_command", patterns.parse_prefix, path)
    return {ALLOW: shell("tools", "allowed") + shell("tools", "core"), DENY: shell("tools", "exclude")}


def _droid(cwd: str, home: str) -> Rules:
    """Droid's command lists (droid_rules.py): allow, deny (always asks), block (never runs)."""
    from rtk.agent import droid_rules

    found = droid_rules.entries(cwd, home)
    built = {kind: [Rule(f"Droid {kind} entry {entry!r}", pattern, folded) for entry in found[kind]
                    if (pattern := patterns.parse_prefix(entry)) and (folded := patterns.parse_prefix(entry.lower()))]
             for kind in KINDS}
    return Rules(built[ALLOW], built[ASK], built[DENY])


LOADERS: dict[str, Callable[[str, str], Rules]] = {
    "claude": _claude, "copilot": _copilot, "codex": _codex, "cursor": _cursor, "gemini": _gemini,
    "droid": _droid,
}
