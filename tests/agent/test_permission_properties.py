"""Permission rules cannot be dodged: for generated rule sets and commands (re-quoted, escaped,
`$'...'`, line continuations, redirections, compounds), bash itself says which argv each simple
command runs, a reference model of the host's rules decides on those argv, and the hook's answer
must never be more permissive than the model: never `allow` where the host would not auto-allow,
never a rewrite (which the host's rules no longer recognise) where the host would deny or ask.

The reference model is written here from the hosts' documented semantics, independently of
rtk/agent/patterns.py, on the argv joined by single spaces.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk.agent import hooks, rewrite
from rtk.agent.hosts import HOSTS as HOST_ADAPTERS

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

HEADER = ('command_not_found_handle() { printf \'%s\\0\' "$#" "$@" >>"$RTK_ARGV_DIR/$BASHPID"; '
          'return 0; }\n')
PROGRAMS = ["git", "cargo"]
WORDS = ["push", "status", "log", "diff", "--force", "-n", "5", "origin", "main", "test", "--lib", "commit",
         "-m", "msg"]
REDIRECTS = ["2>&1", ">/dev/null", "2>/dev/null", "1>&2", "</dev/null"]
SEPARATORS = [" && ", "; ", " || ", " | ", "\n"]


def bash_argvs(command: str, workdir: Path) -> list[tuple[str, ...]]:
    """The argv of every simple command bash runs for `command` (all commands are not found)."""
    out = workdir / "argv"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = {"PATH": "/nonexistent", "RTK_ARGV_DIR": str(out), "LC_ALL": "C.UTF-8", "HOME": str(workdir)}
    proc = subprocess.run(["/bin/bash", "-c", HEADER + command + " \nwait\n"], cwd=workdir, env=env,
                          capture_output=True, timeout=20, check=False)
    assert b"syntax error" not in proc.stderr, proc.stderr
    argvs = []
    for record in sorted(out.iterdir()):
        fields, i = record.read_bytes().split(b"\0"), 0
        while i < len(fields) - 1:
            count = int(fields[i])
            argvs.append(tuple(f.decode("utf-8", "surrogateescape") for f in fields[i + 1:i + 1 + count]))
            i += 1 + count
    return argvs


# -- the reference model of each host's rules, on the argv bash runs --------------------------

def claude_rule_matches(pattern: str, argv: tuple[str, ...]) -> bool:
    text = " ".join(argv)
    if pattern.endswith(":*"):
        prefix = pattern[:-2]
        return text == prefix or text.startswith(prefix + " ")
    if "*" in pattern:
        regex = ".*".join(re.escape(part) for part in pattern.split("*"))
        if pattern.endswith(" *") and pattern.count("*") == 1:
            regex = re.escape(pattern[:-2]) + "( .*)?"
        return re.fullmatch(regex, text, re.DOTALL) is not None
    return text == pattern


def cursor_rule_matches(pattern: str, argv: tuple[str, ...]) -> bool:
    text = " ".join(argv)
    if "*" in pattern:
        return re.fullmatch(".*".join(re.escape(p) for p in pattern.split("*")), text, re.DOTALL) is not None
    return text == pattern or text.startswith(pattern + " ")


def gemini_rule_matches(prefix: str, argv: tuple[str, ...]) -> bool:
    text = " ".join(argv)
    return text == prefix or text.startswith(prefix + " ")


MATCHERS = {"claude": claude_rule_matches, "cursor": cursor_rule_matches, "gemini": gemini_rule_matches}


def claude_read_only(argv: tuple[str, ...]) -> bool:
    """Claude Code 2.1's read-only set restricted to this test's words: `git status|log|diff` with
    positional words and, for log, `-n NUMBER` (no other word of WORDS is one of their safe flags)."""
    if len(argv) < 2 or argv[0] != "git" or argv[1] not in ("status", "log", "diff"):
        return False
    rest, i = argv[2:], 0
    while i < len(rest):
        if rest[i] == "-n" and argv[1] == "log" and i + 1 < len(rest) and rest[i + 1].isdigit():
            i += 2
        elif rest[i].startswith("-"):
            return False
        else:
            i += 1
    return True


def host_outcome(host: str, rules: dict[str, list[str]], argvs: list[tuple[str, ...]]) -> str:
    """deny / ask / allow (auto-allowed) / default (the host decides itself, usually a prompt)."""
    match = MATCHERS[host]
    for kind in ("deny", "ask"):
        if any(match(p, argv) for argv in argvs for p in rules.get(kind, [])):
            return kind
    allow = rules.get("allow", [])
    if allow and argvs and all(any(match(p, argv) for p in allow) for argv in argvs):
        return "allow"
    if host == "claude" and argvs and all(claude_read_only(argv) for argv in argvs):
        return "allow"
    return "default"


# -- generated commands -----------------------------------------------------------------------

def _ansi_c(word: str) -> str:
    return "$'" + "".join(f"\\x{ord(c):02x}" if i % 2 else c for i, c in enumerate(word)) + "'"


def _requote(word: str, style: int) -> str:
    if style == 0 or len(word) < 2:
        return word
    half = len(word) // 2
    return [
        lambda: f"'{word}'",
        lambda: f'"{word}"',
        lambda: f"{word[:half]}''{word[half:]}",
        lambda: "".join("\\" + c for c in word),
        lambda: _ansi_c(word),
        lambda: f"{word[:half]}\\\n{word[half:]}",
        lambda: f'{word[:half]}"{word[half:]}"',
    ][style - 1]()


@st.composite
def simple_commands(draw: st.DrawFn) -> str:
    words = [draw(st.sampled_from(PROGRAMS))] + draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
    quoted = [_requote(w, draw(st.integers(0, 7))) for w in words]
    if draw(st.booleans()):
        quoted.insert(draw(st.integers(1, len(quoted))), draw(st.sampled_from(REDIRECTS)))
    gaps = [draw(st.sampled_from([" ", "  ", "\t", " \\\n"])) for _ in quoted[1:]]
    return quoted[0] + "".join(gap + word for gap, word in zip(gaps, quoted[1:], strict=True))


@st.composite
def commands(draw: st.DrawFn) -> str:
    parts = draw(st.lists(simple_commands(), min_size=1, max_size=3))
    out = parts[0]
    for part in parts[1:]:
        out += draw(st.sampled_from(SEPARATORS)) + part
    return out


def _patterns(host: str) -> st.SearchStrategy[str]:
    phrase = st.lists(st.sampled_from(PROGRAMS + WORDS), min_size=1, max_size=3).map(" ".join)
    program_phrase = st.tuples(st.sampled_from(PROGRAMS), phrase).map(" ".join)
    if host == "claude":
        return st.one_of(program_phrase, program_phrase.map(lambda p: p + ":*"),
                         st.sampled_from(PROGRAMS).map(lambda p: p + ":*"),
                         program_phrase.map(lambda p: p + " *"),
                         st.tuples(st.sampled_from(PROGRAMS), st.sampled_from(WORDS)).map(
                             lambda t: f"{t[0]} * {t[1]}"))
    return st.one_of(program_phrase, st.sampled_from(PROGRAMS))


def rule_sets(host: str) -> st.SearchStrategy[dict[str, list[str]]]:
    kinds = ("allow", "ask", "deny") if host == "claude" else ("allow", "deny")
    return st.fixed_dictionaries({kind: st.lists(_patterns(host), max_size=3) for kind in kinds})


def write_settings(home: Path, host: str, rules: dict[str, list[str]]) -> None:
    if host == "claude":
        path, data = home / ".claude" / "settings.json", {"permissions": {
            k: [f"Bash({p})" for p in v] for k, v in rules.items()}}
    elif host == "cursor":
        path, data = home / ".cursor" / "cli-config.json", {"permissions": {
            k: [f"Shell({p})" for p in v] for k, v in rules.items()}}
    else:
        path, data = home / ".gemini" / "settings.json", {"tools": {
            "allowed": [f"run_shell_command({p})" for p in rules["allow"]],
            "exclude": [f"run_shell_command({p})" for p in rules["deny"]]}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


COUNTS: dict[str, int] = {}


def answer_kind(answer: dict | None) -> str:
    """What the host does with the hook's answer: none (decides on X), allow, ask, or rewrite
    (runs the rtk form through its own checks)."""
    if not answer:
        return "none"
    inner = answer.get("hookSpecificOutput", answer)
    decision = inner.get("permissionDecision") or answer.get("permission")
    if decision in ("allow", "ask"):
        return decision
    return "rewrite"


def check(host: str, rules: dict[str, list[str]], command: str, home: Path) -> None:
    for name in (".claude", ".cursor", ".gemini"):
        shutil.rmtree(home / name, ignore_errors=True)
    write_settings(home, host, rules)
    work = home / "work"
    argvs = bash_argvs(command, work)
    outcome = host_outcome(host, rules, argvs)
    decision = rewrite.decide(command, host, cwd=str(work))
    adapter = HOST_ADAPTERS[host]
    kind = answer_kind(hooks.respond(adapter, adapter.sample(command, str(work))).answer)
    if host == "cursor" and kind == "ask":
        kind = "rewrite"  # Cursor's "ask" is its way of saying "no decision"
    key = f"{host}:{decision.code}:{kind}:{outcome}"
    COUNTS[key] = COUNTS.get(key, 0) + 1
    if decision.code == 0 or kind == "allow":
        assert outcome == "allow", (command, rules, argvs, decision, kind)
    if kind == "rewrite":
        assert outcome not in ("deny", "ask"), (command, rules, argvs, decision)
    if kind == "ask":
        assert outcome != "deny", (command, rules, argvs, decision)


HOSTS = ["claude", "cursor", "gemini"]


@pytest.mark.parametrize("host", HOSTS)
def test_answers_are_never_wider_than_the_hosts_rules_on_bash_argv(host: str, isolated_home: Path) -> None:
    (isolated_home / "work").mkdir(exist_ok=True)

    @settings(max_examples=int(os.environ.get("RTK_FUZZ_EXAMPLES", "150")), deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(rules=rule_sets(host), command=commands())
    def run(rules: dict[str, list[str]], command: str) -> None:
        check(host, rules, command, isolated_home)

    run()


@pytest.mark.parametrize("command", [
    'git "push" --force', "git 'push'", "git pu''sh", "git pu\\sh", "git $'push'", '"git" push',
    "git pu\\\nsh", "git push --force 2>&1", "g\\it push", "git $'\\x70ush'", "git\tpush",
    "git status && git push", "git status; git 'push'", "git log | git push",
])
def test_requoted_denied_commands_are_never_allowed(command: str, isolated_home: Path) -> None:
    rules = {"allow": ["git:*"], "ask": [], "deny": ["git push:*", "git push --force"]}
    (isolated_home / "work").mkdir(exist_ok=True)
    check("claude", rules, command, isolated_home)
    assert rewrite.decide(command, "claude", cwd=str(isolated_home / "work")).code == 2


@st.composite
def denied_cases(draw: st.DrawFn, host: str = "claude") -> tuple[dict[str, list[str]], str]:
    """A command and a deny rule made from its own words (exact, prefix or wildcard), the command
    then re-quoted, escaped, redirected and put among others: it must never be rewritten."""
    words = [draw(st.sampled_from(PROGRAMS))] + draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
    cut = draw(st.integers(1, len(words)))
    head = " ".join(words[:cut])
    if host == "claude":
        rule = draw(st.sampled_from([f"{head}:*", " ".join(words), f"{words[0]} *"]))
    else:  # Cursor's Shell(base) and Gemini's run_shell_command(prefix) are prefixes
        rule = head
    quoted = [_requote(w, draw(st.integers(0, 7))) for w in words]
    if draw(st.booleans()):
        quoted.append(draw(st.sampled_from(REDIRECTS)))
    command = " ".join(quoted)
    others = draw(st.lists(simple_commands(), max_size=2))
    parts = [*others, command]
    order = draw(st.permutations(parts))
    joined = order[0]
    for part in order[1:]:
        joined += draw(st.sampled_from(SEPARATORS)) + part
    allow = draw(st.sampled_from([[], [f"{words[0]}:*"], ["*"]] if host == "claude" else [[], [words[0]]]))
    return {"allow": allow, "ask": [], "deny": [rule]}, joined


@pytest.mark.parametrize("host", HOSTS)
def test_a_command_matching_a_deny_rule_is_never_rewritten(host: str, isolated_home: Path) -> None:
    (isolated_home / "work").mkdir(exist_ok=True)

    @settings(max_examples=int(os.environ.get("RTK_FUZZ_EXAMPLES", "150")), deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(case=denied_cases(host))
    def run(case: tuple[dict[str, list[str]], str]) -> None:
        rules, command = case
        check(host, rules, command, isolated_home)
        assert rewrite.decide(command, host, cwd=str(isolated_home / "work")).code in (1, 2)

    run()
