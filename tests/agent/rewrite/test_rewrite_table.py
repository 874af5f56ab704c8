"""Rewrite decisions as tables: the spec's examples, then commands as agents really write them.

No settings files exist unless a case writes one, so a rewrite is exit 3 (no permission rules).
"""
from __future__ import annotations

import pytest

from rtk.agent.rewrite import decide
from tests.agent.rewrite.conftest import Writer, claude_rules

SPEC_EXAMPLES = [
    ("git status", "rtk git status", 3),
    ("git status && cargo test", "rtk git status && rtk cargo test", 3),
    ("cd src && pytest -x", "cd src && rtk pytest -x", 3),
    ("git rebase main", "", 1),
    ("python3 -m pytest -q", "rtk python3 -m pytest -q", 3),
    ("RTK_DISABLED=1 git status", "", 1),
    ("git log | head -5", "rtk git log | head -5", 3),
    ("ls | wc -l", "", 1),
    ("git status > out.txt", "", 1),
    ("git status 2>&1", "rtk git status 2>&1", 3),
    ("echo $(git status)", "", 1),
    ("git commit -m 'say $(hi)'", "rtk git commit -m 'say $(hi)'", 3),
    ("bash -c 'git status'", "bash -c 'rtk git status'", 3),
    ("sudo git status", "", 1),
    ("(cd sub && pytest -x)", "(cd sub && rtk pytest -x)", 3),
    ("rtk git status", "rtk git status", 3),
    ("timeout 60 cargo test", "timeout 60 rtk cargo test", 3),
    ("git status&&git diff", "rtk git status&&rtk git diff", 3),
    ("rtk git status && git diff", "rtk git status && rtk git diff", 3),
    ("RUST_BACKTRACE=1 cargo test", "RUST_BACKTRACE=1 rtk cargo test", 3),
    ("/usr/bin/git status", "rtk /usr/bin/git status", 3),
    ("cargo +nightly build", "rtk cargo +nightly build", 3),
    ("git -C sub --no-pager log", "rtk git -C sub --no-pager log", 3),
    ("cargo test 2>&1 | tail -30", "rtk cargo test 2>&1 | tail -30", 3),
    ("git log --oneline | head -20", "rtk git log --oneline | head -20", 3),
    ("uv run pytest", "rtk uv run pytest", 3),
    ("poetry run pytest", "rtk poetry run pytest", 3),
    ("npx tsc", "rtk npx tsc", 3),
    ("pnpm exec tsc", "rtk pnpm exec tsc", 3),
    ("npm run tsc", "rtk npm run tsc", 3),
]

SETTINGS_EXAMPLES = [
    ("git status", {"allow": ["Bash(git status)"]}, "rtk git status", 0),
    ("git status --short", {"allow": ["Bash(git status)"]}, "rtk git status --short", 3),
    ("git push", {"deny": ["Bash(git push:*)"]}, "", 2),
]

AGENT_COMMANDS = [
    # cd chains
    ("cd /work/repo && git status", "cd /work/repo && rtk git status", 3),
    ("cd repo && git diff HEAD~1", "cd repo && rtk git diff HEAD~1", 3),
    ("cd backend; pytest tests/unit -q", "cd backend; rtk pytest tests/unit -q", 3),
    ("cd crates/core && cargo test --lib", "cd crates/core && rtk cargo test --lib", 3),
    ("cd .. && cd app && npx tsc --noEmit", "cd .. && cd app && rtk npx tsc --noEmit", 3),
    ("cd 'my project' && git log -3", "cd 'my project' && rtk git log -3", 3),
    ('cd "$HOME/src" && git status', 'cd "$HOME/src" && rtk git status', 3),
    ("cd ~/code/api && python -m pytest", "cd ~/code/api && rtk python -m pytest", 3),
    ("pushd sub && git status; popd", "pushd sub && rtk git status; popd", 3),
    ("cd src || exit 1; cargo check", "cd src || exit 1; rtk cargo check", 3),
    ("cd src", "", 1),
    ("cd src && ls -la", "cd src && rtk ls -la", 3),
    # env prefixes
    ("PYTHONPATH=src pytest -x", "PYTHONPATH=src rtk pytest -x", 3),
    ("CI=1 NODE_ENV=test npx tsc -p .", "CI=1 NODE_ENV=test rtk npx tsc -p .", 3),
    ("RUST_LOG=debug cargo run --bin server", "RUST_LOG=debug rtk cargo run --bin server", 3),
    ("GIT_PAGER=cat git log -5", "GIT_PAGER=cat rtk git log -5", 3),
    ('MSG="a && b" git commit -m "$MSG"', 'MSG="a && b" rtk git commit -m "$MSG"', 3),
    ("env RUST_BACKTRACE=1 cargo test", "env RUST_BACKTRACE=1 rtk cargo test", 3),
    ("env -u PAGER git log", "env -u PAGER rtk git log", 3),
    ("env -i PATH=/usr/bin git status", "env -i PATH=/usr/bin rtk git status", 3),
    ("env RTK_DISABLED=1 git status", "", 1),
    ("RTK_DISABLED=0 cargo test", "", 1),
    ("A=1 RTK_DISABLED=1 B=2 pytest", "", 1),
    ("git status && RTK_DISABLED=1 git diff", "", 1),
    ("FOO=bar", "", 1),
    ("export CI=1 && pytest", "export CI=1 && rtk pytest", 3),
    ("env", "", 1),
    # wrappers
    ("time cargo build --release", "time rtk cargo build --release", 3),
    ("time -p pytest", "time -p rtk pytest", 3),
    ("nice -n 10 cargo build", "nice -n 10 rtk cargo build", 3),
    ("nice -5 cargo test", "nice -5 rtk cargo test", 3),
    ("nohup cargo build", "nohup rtk cargo build", 3),
    ("timeout 300 pytest -x", "timeout 300 rtk pytest -x", 3),
    ("timeout -s KILL 5m cargo test", "timeout -s KILL 5m rtk cargo test", 3),
    ("timeout --signal=INT 10s git fetch", "timeout --signal=INT 10s rtk git fetch", 3),
    ("timeout -k 5 60 pytest", "timeout -k 5 60 rtk pytest", 3),
    ("timeout --preserve-status 1.5m cargo check", "timeout --preserve-status 1.5m rtk cargo check", 3),
    ("command git status", "command rtk git status", 3),
    ("command -v git", "", 1),
    ("exec pytest -q", "exec rtk pytest -q", 3),
    ("time timeout 60 nice cargo test", "time timeout 60 nice rtk cargo test", 3),
    ("timeout cargo test", "", 1),
    ("RUST_LOG=1 time cargo test", "RUST_LOG=1 time rtk cargo test", 3),
    # quotes with operators inside
    ("git commit -m 'fix: a && b || c; d | e'", "rtk git commit -m 'fix: a && b || c; d | e'", 3),
    ('git commit -m "wip; cargo test && done"', 'rtk git commit -m "wip; cargo test && done"', 3),
    ('git log --format="%h | %s" -5', 'rtk git log --format="%h | %s" -5', 3),
    ("git log --grep='a > b'", "rtk git log --grep='a > b'", 3),
    ('pytest -k "not slow and (a or b)"', 'rtk pytest -k "not slow and (a or b)"', 3),
    ("pytest -k 'test_x or test_y' -x", "rtk pytest -k 'test_x or test_y' -x", 3),
    ("git commit -m \"it's done\"", "rtk git commit -m \"it's done\"", 3),
    ("git commit -m 'say \"hi\"'", "rtk git commit -m 'say \"hi\"'", 3),
    ("git commit -m 'a `b`'", "rtk git commit -m 'a `b`'", 3),
    ('git commit -m "a `b`"', "", 1),
    ('git commit -m "say $(whoami)"', "", 1),
    ('git commit -m "cost \\$5 and \\`x\\`"', 'rtk git commit -m "cost \\$5 and \\`x\\`"', 3),
    ("git grep 'a;b'", "", 1),
    ("echo 'git status && cargo test'", "", 1),
    ("git add a\\ b.txt && git commit -m x", "rtk git add a\\ b.txt && rtk git commit -m x", 3),
    ("git diff -- 'src/*.py'", "rtk git diff -- 'src/*.py'", 3),
    ("git diff -- src/*.py", "rtk git diff -- src/*.py", 3),
    ("git show HEAD:'a b.txt'", "rtk git show HEAD:'a b.txt'", 3),
    ("git commit -m 'multi\nline\nmessage'", "rtk git commit -m 'multi\nline\nmessage'", 3),
    # $'..'
    ("git commit -m $'line1\\nline2'", "rtk git commit -m $'line1\\nline2'", 3),
    ("git commit -m $'it\\'s && done'", "rtk git commit -m $'it\\'s && done'", 3),
    ("git log --format=$'%h\\t%s' -3", "rtk git log --format=$'%h\\t%s' -3", 3),
    ("$'git' status", "rtk $'git' status", 3),
    ("git commit -m $'unterminated", "", 1),
    # nested bash -c
    ("bash -c 'cd sub && cargo test'", "bash -c 'cd sub && rtk cargo test'", 3),
    ('sh -c "git status && git diff"', 'sh -c "rtk git status && rtk git diff"', 3),
    ("bash -lc 'pytest -x'", "bash -lc 'rtk pytest -x'", 3),
    ("bash -e -c 'git fetch && git status'", "bash -e -c 'rtk git fetch && rtk git status'", 3),
    ("/bin/bash -c 'cargo build'", "/bin/bash -c 'rtk cargo build'", 3),
    ("bash -c \"bash -c 'git status'\"", "bash -c \"bash -c 'rtk git status'\"", 3),
    ("bash -c 'ls -la'", "bash -c 'rtk ls -la'", 3),
    ("bash -c 'git status > f'", "", 1),
    ("bash -c 'echo $(git status)'", "", 1),
    ('bash -c "git log $ARGS"', "", 1),
    ("bash script.sh", "", 1),
    ("bash -c git\\ status", "", 1),
    ("bash -c 'rtk git status'", "bash -c 'rtk git status'", 3),
    ("bash -c 'cargo test' | grep FAIL", "", 1),
    ("bash -c 'cargo test' 2>&1 | tail -5", "bash -c 'rtk cargo test' 2>&1 | tail -5", 3),
    ("bash -c 'RTK_DISABLED=1 git status'", "", 1),
    ('bash -c "cd a && git commit -m \\"x && y\\""', 'bash -c "cd a && rtk git commit -m \\"x && y\\""', 3),
    ("bash -c $'git status\\ncargo test'", "bash -c $'rtk git status\\nrtk cargo test'", 3),
    ("cd x && bash -c 'pytest' && git status", "cd x && bash -c 'rtk pytest' && rtk git status", 3),
    # comments
    ("git status # check tree", "rtk git status # check tree", 3),
    ("# just a comment", "", 1),
    ("# run tests\npytest -x", "# run tests\nrtk pytest -x", 3),
    ("git status # && cargo test", "rtk git status # && cargo test", 3),
    ("git status #$(nope)", "rtk git status #$(nope)", 3),
    ("git log a#b", "rtk git log a#b", 3),
    ("cargo test # 'unterminated", "rtk cargo test # 'unterminated", 3),
    # newlines
    ("git status\ngit diff", "rtk git status\nrtk git diff", 3),
    ("git add -A\ngit commit -m x\ngit push", "rtk git add -A\nrtk git commit -m x\nrtk git push", 3),
    ("cargo build &&\n  cargo test", "rtk cargo build &&\n  rtk cargo test", 3),
    ("git status \\\n  --short", "rtk git status \\\n  --short", 3),
    ("\n\ngit status\n\n", "\n\nrtk git status\n\n", 3),
    ("  git status  ", "  rtk git status  ", 3),
    ("\tcargo test\t", "\trtk cargo test\t", 3),
    ("git status;", "rtk git status;", 3),
    ("git status ;git diff;", "rtk git status ;rtk git diff;", 3),
    # pipes
    ("git diff | head -100", "rtk git diff | head -100", 3),
    ("cargo test 2>&1 | tail -n 50", "rtk cargo test 2>&1 | tail -n 50", 3),
    ("pytest -q 2>&1 | tail -20", "rtk pytest -q 2>&1 | tail -20", 3),
    ("git log | cat", "rtk git log | cat", 3),
    ("git log | head -50 | tail -10", "rtk git log | head -50 | tail -10", 3),
    ("cargo test |& tail -40", "rtk cargo test |& tail -40", 3),
    ("pytest | grep FAILED", "", 1),
    ("cargo test 2>&1 | grep -E 'error|warning'", "", 1),
    ("git status | wc -l", "", 1),
    ("git log | less", "", 1),
    ("git log | sort", "", 1),
    ("git diff | tee diff.txt", "", 1),
    ("cargo build 2>&1 | tail -f", "", 1),
    ("cargo build | tail -F", "", 1),
    ("cargo build | tail --follow=name", "", 1),
    ("cargo build | tail -fn 20", "", 1),
    ("git log | head -5 | grep x", "", 1),
    ("pytest | grep x; git status", "pytest | grep x; rtk git status", 3),
    ("cat log.txt | grep error", "", 1),
    ("cat setup.cfg | head", "rtk cat setup.cfg | head", 3),
    ("echo y | git commit -F -", "echo y | rtk git commit -F -", 3),
    ("(git status; git diff) | head -50", "(rtk git status; rtk git diff) | head -50", 3),
    ("(git status; git diff) | grep x", "", 1),
    ("git diff | (cd x && cargo test)", "git diff | (cd x && rtk cargo test)", 3),
    ("! git diff --quiet", "! rtk git diff --quiet", 3),
    ("git status | rtk head", "git status | rtk head", 3),
    # redirects
    ("git status 2>/dev/null", "rtk git status 2>/dev/null", 3),
    ("cargo test >/dev/null 2>&1", "rtk cargo test >/dev/null 2>&1", 3),
    ("cargo test &>/dev/null", "rtk cargo test &>/dev/null", 3),
    ("pytest < /dev/null", "rtk pytest < /dev/null", 3),
    ("git status 1>&2", "rtk git status 1>&2", 3),
    ("git status >&2", "rtk git status >&2", 3),
    ("git status 2>&-", "rtk git status 2>&-", 3),
    ("git status >\"/dev/null\"", "rtk git status >\"/dev/null\"", 3),
    ("cargo build > build.log", "", 1),
    ("cargo build >> build.log", "", 1),
    ("cargo build 2> err.log", "", 1),
    ("cargo build &> all.log", "", 1),
    ("cargo build &>> all.log", "", 1),
    ("cargo build >| out", "", 1),
    ("cargo build >& out", "", 1),
    ("pytest < input.txt", "", 1),
    ("git status > $OUT", "", 1),
    ("git diff > /tmp/d.patch && git status", "", 1),
    ("(cargo test) > log", "", 1),
    ("{ git status; } 2>&1", "{ rtk git status; } 2>&1", 3),
    # heredocs, substitutions, keywords
    ("git commit -F - <<EOF\nmsg\nEOF", "", 1),
    ("git commit -F- <<'EOF'\nmsg $(x)\nEOF\ngit push", "", 1),
    ("cat <<-EOF\n\tx\n\tEOF", "", 1),
    ("git commit -F - <<< 'msg'", "", 1),
    ("git log `git rev-parse HEAD`", "", 1),
    ("git diff <(echo a) <(echo b)", "", 1),
    ("git log -n $((1+2))", "", 1),
    ("git checkout ${BRANCH:-main}", "rtk git checkout ${BRANCH:-main}", 3),
    ("git checkout ${BRANCH:-$(cat f)}", "", 1),
    ("git log $REF", "rtk git log $REF", 3),
    ("git log \"${REF}\"", "rtk git log \"${REF}\"", 3),
    ("$GIT status", "", 1),
    ("if true; then git status; fi", "", 1),
    ("for f in a b; do git add $f; done", "", 1),
    ("while true; do cargo test; done", "", 1),
    ("until pytest; do sleep 1; done", "", 1),
    ("case x in a) git status;; esac", "", 1),
    ("function f { git status; }", "", 1),
    ("f() { git status; }", "", 1),
    ("[[ -f x ]] && git status", "", 1),
    ("(( x = 1 )) && git status", "", 1),
    ("git status 'unterminated", "", 1),
    ("git status &&", "", 1),
    ("&& git status", "", 1),
    ("git status )", "", 1),
    # grouping
    ("{ git status; git diff; }", "{ rtk git status; rtk git diff; }", 3),
    ("(cargo build && cargo test)", "(rtk cargo build && rtk cargo test)", 3),
    ("( cd sub && ( git status ) )", "( cd sub && ( rtk git status ) )", 3),
    ("git fetch && (git status || git log -1)", "rtk git fetch && (rtk git status || rtk git log -1)", 3),
    # background
    ("cargo build &", "rtk cargo build &", 3),
    ("cargo watch & git status", "cargo watch & rtk git status", 3),
    # sudo and never-rewritten
    ("sudo cargo test", "", 1),
    ("sudo -u www git pull", "", 1),
    ("xargs git add", "", 1),
    ("watch git status", "", 1),
    ("git status || true", "rtk git status || true", 3),
    ("sleep 5 && git status", "sleep 5 && rtk git status", 3),
    ("echo done; git status", "echo done; rtk git status", 3),
    ("test -f Cargo.toml && cargo build", "test -f Cargo.toml && rtk cargo build", 3),
    ("[ -d .git ] && git status", "[ -d .git ] && rtk git status", 3),
    ("source .venv/bin/activate && pytest", "source .venv/bin/activate && rtk pytest", 3),
    (". venv/bin/activate && pytest", ". venv/bin/activate && rtk pytest", 3),
    ("ls -la", "rtk ls -la", 3),
    ("make test", "rtk make test", 3),
    ("npm install", "rtk npm install", 3),  # the npm filter (issue 19)
    ("", "", 1),
    ("   ", "", 1),
    # absolute paths, toolchains, launchers
    ("/usr/local/bin/cargo test", "rtk /usr/local/bin/cargo test", 3),
    ("./node_modules/.bin/tsc --noEmit", "rtk ./node_modules/.bin/tsc --noEmit", 3),
    ("~/.cargo/bin/cargo clippy", "", 1),
    (".venv/bin/pytest -x", "rtk .venv/bin/pytest -x", 3),
    (".venv/bin/python -m pytest tests/", "rtk .venv/bin/python -m pytest tests/", 3),
    ("python3.12 -m pytest", "rtk python3.12 -m pytest", 3),
    ("python -m pip install x", "rtk python -m pip install x", 3),
    ("python -m http.server 8000", "", 1),  # pyrun serves python itself but never routes it
    ("cargo +stable clippy -- -D warnings", "rtk cargo +stable clippy -- -D warnings", 3),
    ("cargo +1.75.0 test", "rtk cargo +1.75.0 test", 3),
    ("cargo fmt", "", 1),
    ("cargo nextest run", "rtk cargo nextest run", 3),
    ("git -C ../other status", "rtk git -C ../other status", 3),
    ("git -c color.ui=never diff", "rtk git -c color.ui=never diff", 3),
    ("git --no-pager -C sub log --oneline", "rtk git --no-pager -C sub log --oneline", 3),
    ("git -C sub rebase -i main", "", 1),
    ("git remote -v", "", 1),
    ("uv run --with pytest-xdist pytest -n 4", "rtk uv run --with pytest-xdist pytest -n 4", 3),
    ("hatch run pytest", "rtk hatch run pytest", 3),
    ("pnpm tsc", "rtk pnpm tsc", 3),
    ("yarn typecheck", "rtk yarn typecheck", 3),
    ("npm run typecheck", "rtk npm run typecheck", 3),
    ("bunx tsc", "rtk bunx tsc", 3),
    ("npm test", "rtk npm test", 3),  # served by the filter of the tool the script runs
    # idempotency and mixed input
    ("rtk cargo test && rtk git status", "rtk cargo test && rtk git status", 3),
    ("RUST_BACKTRACE=1 rtk cargo test", "RUST_BACKTRACE=1 rtk cargo test", 3),
    ("timeout 60 rtk cargo test", "timeout 60 rtk cargo test", 3),
    ("cd x && rtk git status && git diff", "cd x && rtk git status && rtk git diff", 3),
    ("/usr/local/bin/rtk git status", "/usr/local/bin/rtk git status", 3),
    ("rtk ls", "rtk ls", 3),
    ("rtk git log | grep x", "rtk git log | grep x", 3),
]


# files and search (issue 18): producers are routed, also before `| head`; a command reading the
# pipe (`| wc -l`, `| grep`, `| jq`, `| head`) is never rewritten, nor is what feeds a consumer
FILES_AND_SEARCH = [
    ("ls -la", "rtk ls -la", 3),
    ("ls -R src | head -50", "rtk ls -R src | head -50", 3),
    ("ls | wc -l", "", 1),
    ("tree -L 2", "rtk tree -L 2", 3),
    ("find . -name '*.py'", "rtk find . -name '*.py'", 3),
    ("find . -name '*.py' | head -20", "rtk find . -name '*.py' | head -20", 3),
    ("find . -name '*.py' | xargs wc -l", "", 1),
    ("find . -print0 | xargs -0 grep x", "", 1),
    ("fd -e py", "rtk fd -e py", 3),
    ("fdfind -e rs src | head", "rtk fdfind -e rs src | head", 3),
    ("fd -e py -x wc -l", "rtk fd -e py -x wc -l", 3),
    ("grep -rn TODO src", "rtk grep -rn TODO src", 3),
    ("grep -rn x . | wc -l", "", 1),
    ("grep -rn x . | head -30", "rtk grep -rn x . | head -30", 3),
    ("grep -rn x . | grep -v test", "", 1),
    ("rg -n 'fn main' crates", "rtk rg -n 'fn main' crates", 3),
    ("git log | grep fix", "", 1),
    ("wc -l src/*.py", "rtk wc -l src/*.py", 3),
    ("diff -ru a b", "rtk diff -ru a b", 3),
    ("diff -u a b | head -100", "rtk diff -u a b | head -100", 3),
    ("jq . package.json", "rtk jq . package.json", 3),
    ("curl -s https://registry.npmjs.org/ms", "rtk curl -s https://registry.npmjs.org/ms", 3),
    ("curl -s https://registry.npmjs.org/ms | jq .versions", "", 1),
    ("cat src/app.py", "rtk cat src/app.py", 3),
    ("cat log.txt | grep error", "", 1),
    ("head -n 50 src/app.py", "rtk head -n 50 src/app.py", 3),
    ("tail -n 100 build.log", "rtk tail -n 100 build.log", 3),
    ("tail -f build.log", "", 1),
    ("tail -F build.log", "", 1),
    ("sed -n '10,20p' src/app.py", "rtk sed -n '10,20p' src/app.py", 3),
    ("sed -i 's/a/b/' src/app.py", "", 1),
    ("sed 's/a/b/' src/app.py", "", 1),
    ("git diff | cat", "rtk git diff | cat", 3),
    ("git log | tail -n 5 | head -2", "rtk git log | tail -n 5 | head -2", 3),
]


def _case_id(case: tuple) -> str:
    return repr(case[0])[:60]


@pytest.mark.parametrize(("command", "expected", "code"), SPEC_EXAMPLES + AGENT_COMMANDS + FILES_AND_SEARCH,
                         ids=[_case_id(c) for c in SPEC_EXAMPLES + AGENT_COMMANDS + FILES_AND_SEARCH])
def test_rewrite(command: str, expected: str, code: int) -> None:
    decision = decide(command)
    assert (decision.command, decision.code) == (expected, code), decision.reasons
    assert decision.reasons


@pytest.mark.parametrize(("command", "rules", "expected", "code"), SETTINGS_EXAMPLES)
def test_spec_examples_with_settings(settings: Writer, command: str, rules: dict, expected: str,
                                     code: int) -> None:
    settings(".claude/settings.json", claude_rules(**rules))
    decision = decide(command)
    assert (decision.command, decision.code) == (expected, code)


def test_enough_agent_cases() -> None:
    assert len(AGENT_COMMANDS) >= 150
    assert len({c for c, _, _ in AGENT_COMMANDS}) == len(AGENT_COMMANDS)


@pytest.mark.parametrize("command", [
    "(" * 3000 + "git status" + ")" * 3000,
    "echo $(" * 2000 + "x" + ")" * 2000,
    "bash -c " + "'bash -c \"" * 20,
    "bash -c \"" + "bash -c \\\"" * 12 + "git status",
])
def test_pathological_input_is_a_plain_no(command: str) -> None:
    assert decide(command).code == 1


def _nest(script: str, levels: int) -> str:
    for _ in range(levels):
        script = 'bash -c "' + script.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return script


def test_nesting_limit_for_bash_c() -> None:
    assert decide(_nest("git status", 9)).command == _nest("rtk git status", 9)
    deep = decide(_nest("git status", 10))
    assert deep.code == 1
    assert "nested deeper than 10" in deep.reasons[-1]
