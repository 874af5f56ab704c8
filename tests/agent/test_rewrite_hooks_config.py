"""What the hooks look through and leave alone: `[hooks] transparent_prefixes`, zsh's `noglob` and
`nocorrect`, `exclude_commands` naming a tool whatever launches it, `tail --f` abbreviations."""
from __future__ import annotations

from pathlib import Path

import pytest

from rtk import config
from rtk.agent import rewrite


def configure(home: Path, text: str) -> None:
    path = home / "config" / "rtk" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    config.reset_cache()
    rewrite.reset_cache()


@pytest.mark.parametrize(("command", "expected"), [
    ("direnv exec . cargo test", "direnv exec . rtk cargo test"),
    ("bundle exec git status", "bundle exec rtk git status"),
    ("direnv exec other cargo test", ""),
])
def test_transparent_prefixes(hermetic_rtk: Path, command: str, expected: str) -> None:
    configure(hermetic_rtk, '[hooks]\ntransparent_prefixes = ["direnv exec .", "bundle exec"]\n')
    assert rewrite.decide(command, None).command == expected


@pytest.mark.parametrize("entries", ['"docker", "docker exec app"', '"docker exec app", "docker"',
                                     '"docker exec", "docker exec app"'])
def test_the_longest_transparent_prefix_wins(hermetic_rtk: Path, entries: str) -> None:
    """As upstream: `docker exec app git status` -> `docker exec app rtk git status`, whatever the order."""
    configure(hermetic_rtk, f'[hooks]\ntransparent_prefixes = [{entries}]\n')
    assert rewrite.decide("docker exec app git status", None).command == "docker exec app rtk git status"


def test_a_deny_rule_sees_through_a_transparent_prefix(hermetic_rtk: Path, isolated_home: Path) -> None:
    configure(hermetic_rtk, '[hooks]\ntransparent_prefixes = ["direnv exec ."]\n')
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude/settings.json").write_text('{"permissions": {"deny": ["Bash(git push:*)"]}}')
    assert rewrite.decide("direnv exec . git push").code == 2


@pytest.mark.parametrize(("command", "expected"), [
    ("noglob git log -n 3", "noglob rtk git log -n 3"), ("nocorrect cargo test", "nocorrect rtk cargo test")])
def test_zsh_precommand_modifiers(hermetic_rtk: Path, command: str, expected: str) -> None:
    assert rewrite.decide(command, None).command == expected


@pytest.mark.parametrize("command", ["pytest -x", "python -m pytest -x", "python3 -m pytest", "uv run pytest"])
def test_an_exclude_names_the_tool_whatever_launches_it(hermetic_rtk: Path, command: str) -> None:
    configure(hermetic_rtk, '[hooks]\nexclude_commands = ["pytest"]\n')
    decision = rewrite.decide(command, None)
    assert decision.code == 1 and "exclude_commands" in decision.reasons[-2]


@pytest.mark.parametrize("follow", ["--f", "--fo", "--foll", "--follow", "--follow=name", "-f", "-F"])
def test_tail_follow_abbreviations_consume_the_pipe(hermetic_rtk: Path, follow: str) -> None:
    assert rewrite.decide(f"cargo test 2>&1 | tail {follow}", None).code == 1


def test_tail_without_follow_is_display_only(hermetic_rtk: Path) -> None:
    assert rewrite.decide("cargo test 2>&1 | tail -n 5", None).command == "rtk cargo test 2>&1 | tail -n 5"
