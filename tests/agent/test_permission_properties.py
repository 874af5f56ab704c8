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


def bash_argvs(command: str, workdir: Path, stub_dir: Path | None = None) -> list[tuple[str, ...]]:
    """The argv of every simple command bash runs for `command`: with no `stub_dir` every command
    is not found (bash's handler records it); with one, its recording stubs are the PATH."""
    out = workdir / "argv"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = {"PATH": str(stub_dir) if stub_dir else "/nonexistent", "RTK_ARGV_DIR": str(out), "LC_ALL": "C.UTF-8",
           "HOME": str(workdir)}
    proc = subprocess.run(["/bin/bash", "-c", HEADER + command + " \nwait\n"], cwd=workdir, env=env,
                          capture_output=True, stdin=subprocess.DEVNULL, timeout=20, check=False)
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


# -- issue 35, item 4: git's global options, paths to programs and wrapper programs ------------
#
# Here bash runs real wrappers (find -exec, xargs, env, nice, timeout, nohup, command, eval, trap,
# bash -c) and stubs for git and cargo that record their argv, so the argvs are what really runs.
# The model reads a git argv as git does: its global options (git(1), written here from the
# documentation) peeled off, the rest being what deny and ask rules are about.

GIT_GLOBAL = ["-C .", "-c k=v", "--no-pager", "-P", "-p", "--git-dir=.git", "--work-tree=.", "--namespace=n",
              "--bare", "--literal-pathspecs", "--no-optional-locks", "-c core.x=1"]
MODEL_GIT_VALUE = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--attr-source"}
MODEL_GIT_FLAGS = {"-p", "--paginate", "-P", "--no-pager", "--bare", "--no-replace-objects",
                   "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
                   "--no-optional-locks", "--no-lazy-fetch", "--no-advice"}
WRAPPED = ["find . -maxdepth 0 -exec {} \\;", "xargs {}", "env {}", "env X=1 {}", "nice -n 5 {}", "timeout 5 {}",
           "nohup {}", "command {}", "eval '{}'", "trap '{}' EXIT; true", "bash -c '{}'", "sh -c '{}'",
           "PATHSTUB/{}", "{}"]
REAL_WRAPPERS = ["find", "xargs", "env", "nice", "timeout", "nohup"]


def git_effective(argv: tuple[str, ...]) -> tuple[str, ...] | None:
    """The git command an argv runs, global options peeled; None when git would refuse them."""
    i = 1
    while i < len(argv) and argv[i].startswith("-"):
        name = argv[i].split("=", 1)[0]
        if argv[i] in MODEL_GIT_FLAGS:
            i += 1
        elif name in MODEL_GIT_VALUE:
            i += 1 if "=" in argv[i] else 2
        else:
            return None
    return ("git", *argv[i:])


@pytest.fixture
def stubs(tmp_path: Path) -> Path:
    """A PATH of recording stubs: git and cargo record and exit; wrappers record and run the real one."""
    where = tmp_path / "stubs"
    where.mkdir()
    record = 'printf \'%s\\0\' "$(( $# + 1 ))" "{name}" "$@" >>"$RTK_ARGV_DIR/$$.{name}"\n'
    for name in PROGRAMS:
        (where / name).write_text("#!/bin/bash\n" + record.format(name=name) + "exit 0\n")
    for name in REAL_WRAPPERS:
        real = shutil.which(name)
        if real is None:
            pytest.skip(f"needs {name}")
        (where / name).write_text("#!/bin/bash\n" + record.format(name=name) + f'exec {real} "$@"\n')
    for script in where.iterdir():
        script.chmod(0o755)
    return where


def wrapped_outcome(host: str, rules: dict[str, list[str]], argvs: list[tuple[str, ...]]) -> str:
    """As host_outcome, but deny and ask rules also see what git runs (global options peeled); an
    allow needs every argv that ran allowed (the wrapper's and the command it started)."""
    readings = list(argvs)
    for argv in argvs:
        if argv and argv[0] == "git" and (effective := git_effective(argv)) not in (None, argv):
            readings.append(effective)
    match = MATCHERS[host]
    for kind in ("deny", "ask"):
        if any(match(p, argv) for argv in readings for p in rules.get(kind, [])):
            return kind
    allow = rules.get("allow", [])
    if allow and argvs and all(any(match(p, argv) for p in allow) for argv in argvs):
        return "allow"
    return "default"


@st.composite
def wrapped_commands(draw: st.DrawFn) -> str:
    program = draw(st.sampled_from(PROGRAMS))
    globals_ = draw(st.lists(st.sampled_from(GIT_GLOBAL), max_size=2)) if program == "git" else []
    words = [program, *globals_, *draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))]
    inner = " ".join(words)
    command = draw(st.sampled_from(WRAPPED)).replace("{}", inner, 1)
    others = draw(st.lists(simple_commands(), max_size=1))
    return draw(st.sampled_from(SEPARATORS[:3])).join([command, *others])


def check_wrapped(host: str, rules: dict[str, list[str]], command: str, home: Path, stub_dir: Path) -> None:
    for name in (".claude", ".cursor", ".gemini"):
        shutil.rmtree(home / name, ignore_errors=True)
    write_settings(home, host, rules)
    work = home / "work"
    command = command.replace("PATHSTUB", str(stub_dir))
    argvs = bash_argvs(command, work, stub_dir)
    outcome = wrapped_outcome(host, rules, argvs)
    decision = rewrite.decide(command, host, cwd=str(work))
    adapter = HOST_ADAPTERS[host]
    kind = answer_kind(hooks.respond(adapter, adapter.sample(command, str(work))).answer)
    if host == "cursor" and kind == "ask":
        kind = "rewrite"
    if decision.code == 0 or kind == "allow":
        assert outcome == "allow", (command, rules, argvs, decision, kind)
    if kind == "rewrite":
        assert outcome not in ("deny", "ask"), (command, rules, argvs, decision)
    if kind == "ask":
        assert outcome != "deny", (command, rules, argvs, decision)


@pytest.mark.parametrize("host", HOSTS)
def test_git_global_options_paths_and_wrappers_never_widen_the_rules(host: str, isolated_home: Path,
                                                                   stubs: Path) -> None:
    (isolated_home / "work").mkdir(exist_ok=True)

    @settings(max_examples=int(os.environ.get("RTK_FUZZ_EXAMPLES", "150")), deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(rules=rule_sets(host), command=wrapped_commands())
    def run(rules: dict[str, list[str]], command: str) -> None:
        check_wrapped(host, rules, command, isolated_home, stubs)

    run()


@st.composite
def denied_wrapped(draw: st.DrawFn, host: str) -> tuple[dict[str, list[str]], str]:
    """`git push` (denied) hidden behind git's global options, a path or a wrapper, git allowed."""
    globals_ = draw(st.lists(st.sampled_from(GIT_GLOBAL), max_size=2))
    tail = draw(st.lists(st.sampled_from(["origin", "main", "--force", "-n"]), max_size=2))
    inner = " ".join(["git", *globals_, "push", *tail])
    command = draw(st.sampled_from(WRAPPED)).replace("{}", inner, 1)
    if host == "claude":
        rules = {"allow": ["git:*", *draw(st.sampled_from([[], ["find:*", "xargs:*", "env:*", "nice:*",
                                                                "timeout:*", "nohup:*", "trap:*", "eval:*",
                                                                "bash:*", "sh:*", "command:*"]]))],
                 "ask": [], "deny": ["git push:*"]}
    else:
        rules = {"allow": ["git", "find", "xargs", "env", "trap"], "deny": ["git push"]}
    return rules, command


@pytest.mark.parametrize("host", HOSTS)
def test_a_denied_git_push_behind_options_or_wrappers_is_never_allowed(host: str, isolated_home: Path,
                                                                      stubs: Path) -> None:
    (isolated_home / "work").mkdir(exist_ok=True)

    @settings(max_examples=int(os.environ.get("RTK_FUZZ_EXAMPLES", "150")) // 2, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(case=denied_wrapped(host))
    def run(case: tuple[dict[str, list[str]], str]) -> None:
        rules, command = case
        check_wrapped(host, rules, command, isolated_home, stubs)
        assert rewrite.decide(command.replace("PATHSTUB", str(stubs)), host,
                              cwd=str(isolated_home / "work")).code in (1, 2)

    run()


DODGES = ["git -C . push", "git -c k=v push", "git --no-pager push", "/usr/bin/git push", "PATHSTUB/git push",
          "find . -maxdepth 0 -exec git push \\;", "find . -exec git push {} +", "xargs git push",
          "echo push | xargs git", "xargs -I{} git push {}", "trap 'git push' EXIT; git status",
          "git status; trap -- \"git push\" EXIT", "env GIT_X=1 git -P push", "nice -n 5 git --git-dir=.git push",
          "timeout -s KILL 5 git push", "command git push", "eval 'git push'", "bash -c 'git -C . push'",
          "sudo -u me git push", "env -S 'git push'", "watch -n 1 git push", "git -c alias.p=push p",
          "git submodule foreach 'git push'", "git rebase -x 'git push' main", "exec git push",
          "nohup git push >/dev/null 2>&1 &"]


@pytest.mark.parametrize("host", [*HOSTS, "codex", "copilot"])
@pytest.mark.parametrize("command", DODGES)
def test_deny_rules_see_through_gits_options_paths_and_wrappers(host: str, command: str, isolated_home: Path,
                                                                 stubs: Path) -> None:
    """Issue 35, item 4: `Bash(git:*)` allowed, `Bash(git push:*)` denied: none of these is allowed
    (for Codex and Copilot, which read Claude's settings, the same); the engine says deny."""
    if host in ("cursor", "gemini"):
        rules = {"allow": ["git", "find", "xargs", "env", "nice", "timeout", "sudo"], "deny": ["git push"]}
    else:
        rules = {"allow": ["git:*", "find:*", "xargs:*", "trap:*", "env:*", "nice:*", "timeout:*", "sudo:*"],
                 "ask": [], "deny": ["git push:*"]}
    (isolated_home / "work").mkdir(exist_ok=True)
    command = command.replace("PATHSTUB", str(stubs))
    if host in HOSTS and not command.startswith(("sudo", "watch", "/usr/bin")):
        check_wrapped(host, rules, command, isolated_home, stubs)  # bash runs it: the model agrees
    else:
        write_settings(isolated_home, host if host in HOSTS else "claude", rules)
    decision = rewrite.decide(command, host, cwd=str(isolated_home / "work"))
    assert decision.code == 2, decision
    adapter = HOST_ADAPTERS[host]
    answer = hooks.respond(adapter, adapter.sample(command, str(isolated_home / "work"))).answer
    assert answer_kind(answer) == "none" or answer == adapter.no_opinion, answer
