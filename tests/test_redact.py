"""Credentials never reach what rtk stores (issue 35, item 7): history.db's command text, the
hook audit log and the recall store's metadata get `***` where the secret was."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from rtk import paths, recall, redact
from tests.conftest import rtk_executable

SECRET = "s3cr3tVALUE123"


@pytest.mark.parametrize(("words", "expected"), [
    (["curl", "-H", f"Authorization: Bearer {SECRET}", "https://x"],
     ["curl", "-H", "Authorization: Bearer ***", "https://x"]),
    (["curl", f"-HCookie: sid={SECRET}", f"--header=X-Api-Key: {SECRET}", "--proxy-header", f"Proxy-Authorization: Basic {SECRET}"],
     ["curl", "-HCookie: ***", "--header=X-Api-Key: ***", "--proxy-header", "Proxy-Authorization: Basic ***"]),
    (["http", "GET", "x.org", f"Authorization:token {SECRET}"], ["http", "GET", "x.org", "Authorization:token ***"]),
    (["git", "-c", f"http.extraHeader=Authorization: Basic {SECRET}", "push"],
     ["git", "-c", "http.extraHeader=Authorization: Basic ***", "push"]),
    (["git", "-c", f"http.https://h/.extraheader=PRIVATE-TOKEN: {SECRET}", "fetch"],
     ["git", "-c", "http.https://h/.extraheader=PRIVATE-TOKEN: ***", "fetch"]),
    (["git", "clone", f"https://bob:{SECRET}@github.com/a/b.git"], ["git", "clone", "https://bob:***@github.com/a/b.git"]),
    (["git", "push", f"https://x-access-token:{SECRET}@github.com/a/b", "HEAD"],
     ["git", "push", "https://x-access-token:***@github.com/a/b", "HEAD"]),
    (["curl", "-u", f"bob:{SECRET}", f"--user=al:{SECRET}"], ["curl", "-u", "bob:***", "--user=al:***"]),
    (["tool", f"--password={SECRET}", "--token", SECRET, f"--api-key={SECRET}", f"--client_secret={SECRET}"],
     ["tool", "--password=***", "--token", "***", "--api-key=***", "--client_secret=***"]),
    (["env", f"GITHUB_TOKEN={SECRET}", f"AWS_SECRET_ACCESS_KEY={SECRET}", f"DB_PASSWORD={SECRET}",
      f"NPM_KEY={SECRET}", f"MY_SECRET={SECRET}", "PATH=/bin", "make"],
     ["env", "GITHUB_TOKEN=***", "AWS_SECRET_ACCESS_KEY=***", "DB_PASSWORD=***", "NPM_KEY=***",
      "MY_SECRET=***", "PATH=/bin", "make"]),
    (["docker", "build", "--build-arg", f"NPM_TOKEN={SECRET}", "."], ["docker", "build", "--build-arg", "NPM_TOKEN=***", "."]),
    (["echo", "ghp_" + "a" * 36, "xoxb-" + "1" * 20], ["echo", "ghp_***", "xoxb-***"]),
])
def test_credentials_are_masked(words: list[str], expected: list[str]) -> None:
    assert redact.argv(words) == expected
    assert words != expected  # the input list itself is untouched


@pytest.mark.parametrize("words", [
    ["git", "status"], ["git", "log", "--author=bob", "-n", "5"], ["grep", "-rn", "foo:bar", "src/a.py:10"],
    ["sort", "--key=2"], ["llm", "--max-tokens", "100"], ["docker", "login", "--password-stdin", "-u", "bob"],
    ["git", "clone", "https://github.com/a/b.git"], ["ssh", "git@github.com"], ["make", "CC=gcc", "-j4"],
    ["curl", "-H", "Accept: application/json", "https://x/?a=b"], ["python", "-c", "print('a=b')"],
])
def test_ordinary_commands_are_left_alone(words: list[str]) -> None:
    assert redact.argv(words) == words


def test_command_text_masks_inside_quotes_compounds_and_substitutions() -> None:
    text = (f"curl -H 'Authorization: Bearer {SECRET}' https://u:{SECRET}@h/x && GH_TOKEN={SECRET} gh pr list; "
            f'x=$(curl -H "Cookie: s={SECRET}" y)')
    clean = redact.command_text(text)
    assert SECRET not in clean
    assert clean.startswith("curl -H 'Authorization: Bearer ***' https://u:***@h/x && GH_TOKEN=*** gh pr list")


def test_command_text_of_unparsable_text_still_masks() -> None:
    assert SECRET not in redact.command_text(f"curl -H 'Authorization: Bearer {SECRET}' 'unterminated")


def test_redaction_stays_off_the_regex_path() -> None:
    """Checked without `site` (an editable install's finder loads `re` itself)."""
    root = Path(__file__).resolve().parent.parent
    code = (f"import sys; sys.path.insert(0, {str(root)!r}); import rtk.redact as r; "
            "r.command_text('curl -H \"Authorization: x y\" https://a:b@c'); r.argv(['x', 'A_TOKEN=1']); "
            "print(sorted({'re', 'typing', 'json'} & set(sys.modules)))")
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# -- end to end: what lands on disk --------------------------------------------------------------

def test_history_and_recall_metadata_hold_no_secret(tmp_path: Path, hermetic_rtk: Path) -> None:
    script = tmp_path / "noisy.py"
    script.write_text("import sys\nfor i in range(3000): print('line', i % 7)\nsys.exit(1)\n")
    env = {**os.environ, "RTK_TRACK_SYNC": "1"}
    argv = [sys.executable, str(script), "-H", f"Authorization: Bearer {SECRET}", f"--token={SECRET}",
            f"https://me:{SECRET}@example.com/"]
    result = subprocess.run([*rtk_executable(), *argv], capture_output=True, env=env, timeout=60, check=False)
    assert result.returncode == 1
    db = Path(paths.db_path_str())  # our own file, beside where the Rust rtk keeps its history
    with sqlite3.connect(db) as conn:
        commands = [row[0] for row in conn.execute("SELECT command FROM runs")]
    assert commands and all(SECRET not in c for c in commands) and "Bearer ***" in commands[0]
    store = hermetic_rtk / "data" / "rtk" / "recall"
    for meta in store.glob("*.json"):
        text = meta.read_text()
        assert SECRET not in text and "***" in json.loads(text)["command"]
    for entry in recall.entries(store):
        assert SECRET not in entry.command


def test_hook_audit_log_holds_no_secret(tmp_path: Path) -> None:
    audit = tmp_path / "audit"
    command = f"curl -H 'Authorization: Bearer {SECRET}' https://x && GITHUB_TOKEN={SECRET} git status"
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": command}}).encode()
    env = {**os.environ, "RTK_HOOK_AUDIT": "1", "RTK_AUDIT_DIR": str(audit)}
    subprocess.run([*rtk_executable(), "hook", "claude"], input=payload, env=env, capture_output=True,
                   timeout=60, check=True)
    log = (audit / "hook-audit.log").read_text()
    assert SECRET not in log and "Bearer ***" in log and "GITHUB_TOKEN=***" in log
