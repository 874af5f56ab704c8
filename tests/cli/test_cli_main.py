"""rtk.cli.group.main: the exit code a click command asks for is the process's exit code."""
from __future__ import annotations

from collections.abc import Iterator

import click
import pytest

from rtk.cli import group as cli


@pytest.fixture
def exiting_command() -> Iterator[str]:
    @click.command(name="exit-with")
    @click.argument("code", type=int)
    @click.pass_context
    def exit_with(ctx: click.Context, code: int) -> None:
        ctx.exit(code)

    cli.cli.add_command(exit_with)
    yield "exit-with"
    cli.cli.commands.pop("exit-with")


@pytest.mark.parametrize("code", [0, 1, 4, 130])
def test_ctx_exit_code_is_returned(exiting_command: str, code: int) -> None:
    assert cli.main([exiting_command, str(code)]) == code


def test_usage_error_is_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["no-such-command"]) == 2
    assert capsys.readouterr().err == "rtk: no such command 'no-such-command' (see rtk help)\n"


@pytest.mark.parametrize(("args", "line"), [
    (["gain", "--bogus"], "rtk: gain: no such option '--bogus' (see rtk gain --help)"),
    (["gain", "-n", "0"], "rtk: gain: invalid value for '-n': 0 is not in the range x>=1 (see rtk gain --help)"),
    (["recall"], ("rtk: recall: needs an id (from a `[full output: rtk recall <id>]` line) or --list "
                  "(see rtk recall --help)")),
    (["discover", "--since", "soon"], ("rtk: discover: invalid value for --since: --since expects 7d, 12h, 2w "
                                       "or a date like 2026-11-01, got 'soon' (see rtk discover --help)")),
])
def test_a_verbs_usage_error_is_one_rtk_line_and_exit_2(args: list[str], line: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(args) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", line + "\n")


def test_help_lists_the_verbs_and_help_verb_is_the_verbs_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["help"]) == 0
    top = capsys.readouterr().out
    assert top.startswith("Usage: rtk ") and "  gain " in top and "  help " in top
    assert cli.main(["help", "gain"]) == 0
    via_help = capsys.readouterr().out
    assert cli.main(["gain", "--help"]) == 0
    assert via_help == capsys.readouterr().out and "--since" in via_help
    assert cli.main(["help", "git"]) == 0
    assert "rtk git ARGS... runs git through the filter" in capsys.readouterr().out


def test_plain_command_is_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["filters"]) == 0
    assert "pytest" in capsys.readouterr().out
