"""Host permission rules: matching semantics per host, precedence over segments, settings files."""
from __future__ import annotations

import pytest

from rtk.agent import patterns, permissions, segments
from rtk.agent.rewrite import decide
from tests.agent.rewrite.conftest import Writer, claude_rules


@pytest.mark.parametrize(("pattern", "text", "matches"), [
    ("npm run build", "npm run build", True),
    ("npm run build", "npm run build --watch", False),
    ("npm run build", "npm run buil", False),
    ("npm run test:*", "npm run test", True),
    ("npm run test:*", "npm run test -- -u", True),
    ("npm run test:*", "npm run testfoo", False),
    ("npm run test:*", "npm run", False),
    ("git push:*", "git push origin main", True),
    ("git push:*", "git pushx", False),
    ("git * main", "git push origin main", True),
    ("git * main", "git checkout main", True),
    ("git * main", "git checkout main2", False),
    ("git * main", "git main", False),
    ("ls *", "ls", True),
    ("ls *", "ls -la", True),
    ("ls *", "lsof", False),
    ("ls*", "lsof", True),
    ("*", "anything at all", True),
    ("", "anything", True),
    ("git status", "git  status", False),
    ("echo a.b", "echo axb", False),
    ("echo (x)", "echo (x)", True),
    ("cargo test:*", "cargo test\n--lib", False),  # only a space ends the prefix (Claude's own rule)
    ("cargo test:*", "cargo test --lib", True),
    ("git * main", "git push\norigin main", True),  # a wildcard spans anything, newlines too
    ("git push \\*", "git push \\*", True),  # an escaped star: an exact rule, on the text
    ("git push \\*", "git push *", False),
    ("git \\* main", "git \\* main", True),
    ("a/**/b", "a/b", True),
    ("a/**/b", "a/x/y/b", True),
])
def test_claude_matcher(pattern: str, text: str, matches: bool) -> None:
    parsed = patterns.parse_claude(pattern) if pattern else patterns.everything()
    assert parsed is not None
    assert parsed.test(text) is matches


@pytest.mark.parametrize(("pattern", "text", "matches"), [
    ("git", "git status", True),
    ("git", "gitk", False),
    ("git status", "git status --short", True),
    ("**", "rm -rf x", True),
    ("*", "ls", True),
    ("git *", "git log", True),
    ("npm**", "npmx", True),
])
def test_cursor_matcher(pattern: str, text: str, matches: bool) -> None:
    parsed = patterns.parse_cursor(pattern)
    assert parsed is not None
    assert parsed.test(text) is matches


@pytest.mark.parametrize(("prefix", "text", "matches"), [
    ("git status", "git status", True),
    ("git status", "git status -s", True),
    ("git status", "git statusx", False),
    ("git", "git push", True),
    ("", "rm", True),
])
def test_gemini_prefix_matcher(prefix: str, text: str, matches: bool) -> None:
    parsed = patterns.parse_prefix(prefix)
    assert parsed is not None
    assert parsed.test(text) is matches


def _rule(pattern: str) -> permissions.Rule:
    parsed = patterns.parse_claude(pattern)
    assert parsed is not None
    return permissions.Rule(pattern, parsed, patterns.parse_claude(pattern.lower()))


def _rules(**kinds: list[str]) -> permissions.Rules:
    built = {k: [_rule(p) for p in v] for k, v in kinds.items()}
    return permissions.Rules(built.get("allow", ()), built.get("ask", ()), built.get("deny", ()))


def _segs(*texts: str) -> list[segments.Segment]:
    return [segments.of_words(text.split()) for text in texts]


@pytest.mark.parametrize(("kinds", "segments", "verdict"), [
    ({}, ["git status"], permissions.DEFAULT),
    ({"allow": ["git status"]}, ["git status"], permissions.ALLOW),
    ({"allow": ["git status"]}, ["cd x", "git status"], permissions.DEFAULT),
    ({"allow": ["git status", "cd:*"]}, ["cd x", "git status"], permissions.ALLOW),
    ({"allow": ["*"], "ask": ["git push:*"]}, ["git status", "git push"], permissions.ASK),
    ({"allow": ["*"], "ask": ["git:*"], "deny": ["git push:*"]}, ["git push"], permissions.DENY),
    ({"deny": ["rm:*"]}, ["git status", "rm -rf x"], permissions.DENY),
    ({"ask": ["git:*"]}, ["ls"], permissions.DEFAULT),
    ({"allow": ["ls"]}, ["", "  ", "ls"], permissions.ALLOW),
    ({"allow": ["ls"]}, [], permissions.DEFAULT),
])
def test_precedence(kinds: dict, segments: list[str], verdict: str) -> None:
    assert _rules(**kinds).verdict(_segs(*segments))[0] == verdict


def test_peeled_segments_count_for_deny_and_ask_never_for_allow() -> None:
    rules = _rules(allow=["git status"], deny=["git push:*"])
    assert rules.verdict([segments.of_words(["timeout", "9", "git", "push"], 2)])[0] == permissions.DENY
    assert rules.verdict([segments.of_words(["timeout", "9", "git", "status"], 2)])[0] == permissions.DEFAULT


CLAUDE_FILES = [".claude/settings.json", ".claude/settings.local.json"]


@pytest.mark.parametrize("relpath", CLAUDE_FILES)
@pytest.mark.parametrize("base", ["home", "project"])
def test_claude_reads_every_settings_file(settings: Writer, relpath: str, base: str) -> None:
    settings(relpath, claude_rules(allow=["Bash(git status)"]), base=base)
    assert decide("git status").code == 0


def test_claude_project_is_nearest_ancestor_with_claude_dir(settings: Writer, tmp_path, monkeypatch) -> None:
    settings(".claude/settings.json", claude_rules(deny=["Bash(git push:*)"]), base="project")
    deep = tmp_path / "project" / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert decide("git push").code == 2
    assert decide("git push", cwd=str(tmp_path)).code == 3


def test_claude_rules_merge_across_files(settings: Writer) -> None:
    settings(".claude/settings.json", claude_rules(allow=["Bash(git status)"]))
    settings(".claude/settings.local.json", claude_rules(allow=["Bash(cargo test:*)"]), base="project")
    assert decide("git status && cargo test --lib").code == 0
    settings(".claude/settings.json", claude_rules(ask=["Bash(cargo:*)"]), base="project")
    assert decide("git status && cargo test --lib").code == 3


@pytest.mark.parametrize(("rules", "command", "code"), [
    ({"allow": ["Bash"]}, "git status && cargo test", 0),
    ({"allow": ["Bash(*)"]}, "cd x && pytest", 0),
    ({"allow": ["Bash(git status)"]}, "cd x && git status", 3),
    ({"allow": ["Bash(git status)", "Bash(cd:*)"]}, "cd x && git status", 0),
    ({"allow": ["Bash(git log:*)", "Bash(head:*)"]}, "git log | head -5", 0),
    ({"allow": ["Bash(git log:*)"]}, "git log | head -5", 3),
    ({"allow": ["Bash(git status)"]}, "git status 2>&1", 0),  # Claude cuts redirections out too
    ({"allow": ["Bash(git status)"]}, "git  status", 3),  # an exact rule is exact on the text
    ({"allow": ["Bash(git status)"]}, 'git "status"', 3),
    ({"allow": ["Bash(git:*)"]}, "git status $X", 3),  # never allowed: the lexer cannot attest it
    ({"deny": ["Bash(git push:*)"]}, "git $X", 2),  # a deny rule could match what $X becomes
    ({"deny": ["Bash(git push:*)"]}, "git pu$X", 2),
    ({"deny": ["Bash(git push:*)"]}, "$GIT push", 2),
    ({"deny": ["Bash(git push:*)"]}, "git log $X", 3),
    ({"deny": ["Bash(git push:*)"]}, "GIT PUSH", 2),
    ({"deny": ["Bash(git push --force)"]}, "git push --force 2>&1", 2),
    ({"allow": ["Bash(git status:*)"]}, "git status 2>&1", 0),
    ({"allow": ["Bash(git:*)"], "ask": ["Bash(git push:*)"]}, "git status && git push", 3),
    ({"allow": ["Bash(git:*)"], "deny": ["Bash(git push:*)"]}, "git status && git push", 2),
    ({"deny": ["Bash(git push:*)"]}, "timeout 60 git push", 2),
    ({"deny": ["Bash(git push:*)"]}, "RTK_DISABLED=1 git push", 2),
    ({"deny": ["Bash(git push:*)"]}, "echo $(git push)", 2),
    ({"deny": ["Bash(git push:*)"]}, "git status > f; git push", 2),
    ({"deny": ["Bash(ls:*)"]}, "ls -la", 2),
    ({"deny": ["Bash(git push:*)"]}, "bash -c 'git push'", 2),
    ({"allow": ["Bash(git status)"]}, "bash -c 'git status'", 3),
    ({"allow": ["Bash(git status)", "Bash(bash -c:*)"]}, "bash -c 'git status'", 0),
    ({"allow": ["Bash(rtk:*)"]}, "rtk git status", 0),
    ({"allow": ["Read(*)", "Bash(git status)"]}, "git status", 0),
    ({"deny": ["Read(./.env)"]}, "git status", 3),
    ({"allow": ["Bash(git status)"]}, "RUST_LOG=1 git status", 3),
    ({"allow": ["Bash"]}, "git status > out.txt", 1),
])
def test_claude_decisions(settings: Writer, rules: dict, command: str, code: int) -> None:
    settings(".claude/settings.json", claude_rules(**rules))
    assert decide(command).code == code


@pytest.mark.parametrize("content", [
    "{not json", "[1, 2]", '"text"', '{"permissions": []}', '{"permissions": {"allow": "Bash"}}', "",
    "\ufeff{",
])
def test_malformed_claude_file_is_skipped_with_one_line(settings: Writer, capsys, content: str) -> None:
    bad = settings(".claude/settings.local.json", content)
    settings(".claude/settings.json", claude_rules(allow=["Bash(git status)"]))
    assert decide("git status").code == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and str(bad) in err[0] and err[0].startswith("rtk: ")


def test_bom_is_accepted(settings: Writer) -> None:
    settings(".claude/settings.json", "\ufeff" + '{"permissions": {"allow": ["Bash(git status)"]}}')
    assert decide("git status").code == 0


def test_non_string_entries_are_ignored(settings: Writer, capsys) -> None:
    settings(".claude/settings.json", {"permissions": {"allow": [1, None, "Bash(git status)"]}})
    assert decide("git status").code == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("config", "command", "code"), [
    ({"permissions": {"allow": ["Shell(git)"], "deny": []}}, "git status", 0),
    ({"permissions": {"allow": ["Shell(git)"]}}, "cd x && git status", 3),
    ({"permissions": {"allow": ["Shell"]}}, "cd x && git status", 0),
    ({"permissions": {"allow": ["Shell(**)"], "deny": ["Shell(git push)"]}}, "git push", 2),
    ({"permissions": {"allow": ["Bash(git status)"]}}, "git status", 3),
    ({"permissions": {"deny": ["Shell(rm)"]}}, "git status", 3),
])
def test_cursor(settings: Writer, config: dict, command: str, code: int) -> None:
    settings(".cursor/cli-config.json", config)
    settings(".claude/settings.json", claude_rules(deny=["Bash(git:*)"]))
    assert decide(command, "cursor").code == code


def test_cursor_reads_only_the_global_file(settings: Writer) -> None:
    settings(".cursor/cli-config.json", {"permissions": {"allow": ["Shell(git)"]}}, base="project")
    assert decide("git status", "cursor").code == 3


@pytest.mark.parametrize(("config", "command", "code"), [
    ({"tools": {"allowed": ["run_shell_command(git status)"]}}, "git status", 0),
    ({"tools": {"allowed": ["run_shell_command(git status)"]}}, "git status -s", 0),
    ({"tools": {"allowed": ["run_shell_command(git status)"]}}, "git diff", 3),
    ({"tools": {"allowed": ["run_shell_command"]}}, "git diff && cargo test", 0),
    ({"tools": {"exclude": ["run_shell_command(git push)"]}}, "git push origin", 2),
    ({"tools": {"exclude": ["run_shell_command"]}}, "git status", 2),
    ({"tools": {"allowed": ["read_file"]}}, "git status", 3),
    ({"tools": []}, "git status", 3),
])
def test_gemini(settings: Writer, config: dict, command: str, code: int) -> None:
    settings(".gemini/settings.json", config)
    assert decide(command, "gemini").code == code


@pytest.mark.parametrize(("host", "status", "push"), [("copilot", 0, 2), ("codex", 3, 2), (None, 3, 3)])
def test_hosts_reading_claude_rules(settings: Writer, host: str | None, status: int, push: int) -> None:
    """Copilot reads Claude's rules (as the Rust rtk does); Codex only their deny and ask rules."""
    settings(".claude/settings.json", claude_rules(allow=["Bash"], deny=["Bash(git push:*)"]))
    assert decide("git status", host).code == status
    assert decide("git push", host).code == push
    assert decide("rm -rf build", host).code == 1


def test_codex_project_rules_count_too(settings: Writer) -> None:
    settings(".codex/rules/default.rules", 'prefix_rule(pattern=["git", "push"], decision="forbidden")\n',
             base="project")
    assert decide("git push", "codex").code == 2
    assert decide("git status", "codex").code == 3


@pytest.mark.parametrize("content", ["prefix_rule(pattern=", 'prefix_rule(pattern=[], decision="allow")',
                                     'prefix_rule(pattern=["git"], decision="maybe")'])
def test_a_malformed_codex_rules_file_is_one_line(settings: Writer, capsys, content: str) -> None:
    settings(".codex/rules/bad.rules", content)
    assert decide("git status", "codex").code == 3
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "bad.rules" in err[0]


def test_gemini_policy_files(settings: Writer) -> None:
    settings(".gemini/policies/mine.toml", '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git push"\n'
             'decision = "deny"\npriority = 100\n')
    assert decide("git push origin", "gemini").code == 2
    assert decide("git status", "gemini").code == 3


def test_gemini_policy_command_regex(settings: Writer) -> None:
    settings(".gemini/policies/mine.toml", '[[rule]]\ntoolName = "run_shell_command"\n'
             "commandRegex = 'Git (push|reset)'\ndecision = \"deny\"\npriority = 100\n")
    assert decide("git push origin", "gemini").code == 2
    assert decide('git "reset" --hard', "gemini").code in (1, 2)
    assert decide("git status", "gemini").code == 3
