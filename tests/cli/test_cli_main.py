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
    assert "No such command" in capsys.readouterr().err


def test_plain_command_is_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["filters"]) == 0
    assert "pytest" in capsys.readouterr().out
