"""What a newcomer meets in the first hour (issue 42): every mistake gets one `rtk:` line and the
documented exit code, every report says what it means in words."""
from __future__ import annotations

import subprocess
from pathlib import Path

import click
import pytest

from rtk import __main__ as entry
from rtk.cli import group as cli
from tests.conftest import rtk_executable


def rtk(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*rtk_executable(), *args], capture_output=True, text=True, check=False, timeout=60,
                          cwd=cwd, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args", [["run", "--filter"], ["run", "-f"], ["run", "--filter", "--", "ls"],
                                  ["run", "--filter=", "ls"]])
def test_run_filter_without_a_name_is_a_usage_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert entry.main(args) == 2
    assert capsys.readouterr().err == ("rtk: run: --filter needs a filter name (`rtk filters` lists them; "
                                       "see rtk run --help)\n")


@pytest.mark.parametrize(("typed", "verb"), [("gian", "gain"), ("recal", "recall"), ("confg", "config"),
                                             ("gains", "gain"), ("fitlers", "filters"), ("hook-adit", "hook-audit")])
def test_a_verb_one_typo_away_is_suggested(typed: str, verb: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert entry.main([typed]) == 127
    assert capsys.readouterr().err == f"rtk: {typed}: command not found (did you mean `rtk {verb}`?)\n"


def test_a_real_command_near_a_verb_runs_and_a_far_typo_gets_no_suggestion() -> None:
    assert entry._near_verb("pip") == "pipe" and entry._on_path("sh")  # near, but a real program: it runs
    assert entry._near_verb("git") is None and entry._near_verb("grep") is None
    missing = rtk("qqqxyz")
    assert (missing.returncode, missing.stderr) == (127, "rtk: qqqxyz: command not found\n")


def test_untrust_outside_a_project_is_done_and_trust_says_one_rtk_line(tmp_path: Path) -> None:
    untrust = rtk("untrust", cwd=tmp_path)
    assert (untrust.returncode, untrust.stdout, untrust.stderr) == (
        0, "nothing to untrust: no .rtk directory here or in a parent\n", "")
    trust = rtk("trust", cwd=tmp_path)
    assert trust.returncode == 1 and trust.stdout == ""
    assert trust.stderr == ("rtk: trust: no project filters here (.rtk/filters.toml or .rtk/filters/*.toml in "
                            "this directory or a parent)\n")


def test_a_failed_verb_is_one_rtk_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A verb raising click's own failure: `rtk: VERB: ...`, never click's `Error: ...`."""

    @click.command(name="fail-with")
    def fail_with() -> None:
        raise click.ClickException("the reason\nacross lines")

    cli.cli.add_command(fail_with)
    try:
        assert cli.main(["fail-with"]) == 1
    finally:
        cli.cli.commands.pop("fail-with")
    assert capsys.readouterr().err == "rtk: fail-with: the reason across lines\n"


def recorded_id(tmp_path: Path) -> str:
    long_file = tmp_path / "long.txt"
    long_file.write_text("".join(f"{n}\n" for n in range(1, 5001)))
    done = rtk("cat", str(long_file))
    assert "rtk recall" in done.stdout, done.stdout[-300:]
    return done.stdout.rstrip().rsplit("rtk recall ", 1)[1].rstrip("]")


def test_recall_refuses_a_negative_count_and_says_when_no_line_matches(tmp_path: Path) -> None:
    entry_id = recorded_id(tmp_path)
    for option in ("--head", "--tail"):
        negative = rtk("recall", entry_id, option, "-3")
        assert negative.returncode == 2 and negative.stdout == ""
        assert negative.stderr == (f"rtk: recall: invalid value for '{option}': -3 is not in the range x>=0 "
                                   "(see rtk recall --help)\n")
    nothing = rtk("recall", entry_id, "--grep", "^no such line$")
    assert (nothing.returncode, nothing.stdout) == (1, "")
    assert nothing.stderr == f"rtk: no line of {entry_id} matches '^no such line$'\n"
    some = rtk("recall", entry_id, "--grep", "^4999$", "--head", "0")
    assert (some.returncode, some.stdout) == (0, "")  # a match narrowed to nothing on purpose
    assert rtk("recall", entry_id, "--grep", "^4999$").stdout == "4999\n"


def test_filters_explain_says_the_shape_in_words() -> None:
    done = rtk("filters", "--explain", "npm test")
    assert done.returncode == 0
    assert done.stdout.splitlines()[:2] == [
        "filter: npm (built-in)",
        ("matched: `npm test`: the program npm, then one of add, ci, clean-install, dedupe, i, ic, in, ins and "
         "28 more (options in between are skipped); anything may follow")]
    assert "Words(" not in done.stdout and "[" not in done.stdout


def test_gain_says_one_run(hermetic_rtk: Path) -> None:
    assert rtk("true").returncode == 0
    for _ in range(50):  # the tracking worker records in the background
        out = rtk("gain").stdout
        if "1 run" in out:
            break
        subprocess.run(["sleep", "0.1"], check=True)
    assert out.splitlines()[0] == "rtk gain: 1 run" and "1 runs" not in out


def test_config_shows_every_limit_with_its_default_and_where_it_applies(hermetic_rtk: Path) -> None:
    config = hermetic_rtk / "config" / "rtk" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[limits]\ngrep_max_per_file = 30\nno_such_limit = 4\n")
    out = rtk("config").stdout
    section = out.split("[limits]\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert "# git_log_max_commits = 50  # default: git log: commits listed" in section
    assert f"grep_max_per_file = 30  # {config}; default 60: grep/rg: matches kept per file" in section
    assert f"no_such_limit = 4  # {config}; no filter reads this key" in section
    assert "(none set)" not in "\n".join(section) and len(section) >= 30


def test_the_awareness_file_names_the_uninstall_that_removes_it(isolated_home: Path) -> None:
    assert rtk("init", "-g").returncode == 0
    rtk_md = (isolated_home / ".claude" / "RTK.md").read_text()
    assert "`rtk uninstall -g` removes this file" in rtk_md.splitlines()[0]
    local = rtk("uninstall")
    assert local.returncode == 0
    assert local.stdout.splitlines()[-1] == ("rtk is installed in your home directory for claude: "
                                             "`rtk uninstall -g` removes it")
    assert rtk("uninstall", "-g").returncode == 0 and not (isolated_home / ".claude" / "RTK.md").exists()
    assert "home directory" not in rtk("uninstall").stdout  # nothing left anywhere: nothing to mention


def test_an_awareness_file_of_rtk_1_0_is_still_rtks(isolated_home: Path) -> None:
    """1.0 wrote `rtk init --uninstall removes this file`: uninstall still knows the file as its own."""
    claude = isolated_home / ".claude"
    claude.mkdir()
    (claude / "RTK.md").write_text("<!-- written by `rtk init`; `rtk init --uninstall` removes this file -->\n# rtk\n")
    (claude / "CLAUDE.md").write_text("@RTK.md\n")
    assert rtk("uninstall", "-g", "--agent", "claude").returncode == 0
    assert not (claude / "RTK.md").exists()
