"""The cells of the host matrix (test_host_matrix_e2e.py): the commands a session runs, what the
command prints with no host and no rtk (raw) and through rtk's run path, and the check of one cell:
the host gives the hooked run the outcome it gives the bare one, and where the command ran the model
read rtk's filtered form of the whole output (every fact of it, lines only rtk writes, smaller than
the raw output, no host preview or cut).

Texts are compared with digits folded (`0`): timings, dates and ids differ from run to run."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import rtk_executable
from tests.e2e.matrix_project import BIG_FILE

# The hosts' own words for a command they refused (a prompt nobody answers in a headless run).
DENIALS = (
    "requires approval",  # Claude Code -p
    "has been denied",
    "haven't granted",
    "Permission denied because no interactive user response",  # Copilot -p
    "denied by policy",  # Gemini's policy engine
    "rejected permission",  # OpenCode
)
# What a host shows instead of an output it cut: its preview, or a pointer to a saved file.
PREVIEWS = ("<persisted-output>", "Output too large", "output truncated", "Full output saved to", "Saved to:",
            "Warning: truncated output", "chars truncated",  # these two: Codex's 10 KB cut
            "Full command output saved to:", "...[truncated ",  # Droid's 10 KB cut, Cline's 8,000 chars
            "[OUTPUT TRUNCATED - ")  # Hermes' cut (its head and tail, no file of the whole)
HOST_CUT = 30_000  # the smallest cut of the hosts (Claude Code's): a summary must fit under it
RECALL = "rtk recall"


@dataclass(frozen=True)
class Cell:
    """One command of the matrix. big: over the hosts' cut, so the model must get a summary of the
    whole output; filtered: where it runs, the model must read rtk's form of it."""

    name: str
    command: str
    big: bool = False
    filtered: bool = True


CELLS = (
    Cell("git status", "git status"),
    Cell("git diff (200 KB)", "git diff", big=True),
    Cell("git diff --submodule=short", "git diff --submodule=short", big=True),
    Cell("ls -la", "ls -la"),
    Cell("cat (200 KB)", f"cat {BIG_FILE}", big=True),
    Cell("grep -rn", "grep -rn charset lib/email"),
    Cell("git log -n 30", "git log -n 30"),
    Cell("failing pytest, allowed by a rule", "pytest tests"),
    Cell("git commit, allowed by nothing", "git commit --allow-empty -m probe", filtered=False),
)
PYTEST = CELLS[7]
COMMIT = CELLS[8]


def fold(text: str) -> str:
    return re.sub(r"\d+", "0", text)


@dataclass
class Reference:
    """A cell's command run in the project with no host: its raw output, rtk's run-path output,
    the facts of the whole raw output, and the lines only rtk's form has."""

    raw: str
    rtk: str
    facts: list[str] = field(default_factory=list)
    rtk_lines: list[str] = field(default_factory=list)


def _run(argv: list[str] | str, work: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(argv, cwd=work, env=env, shell=isinstance(argv, str), capture_output=True,
                          text=True, check=False, stdin=subprocess.DEVNULL)
    return proc.stdout + proc.stderr


def reference(cell: Cell, work: Path, env: dict[str, str]) -> Reference:
    raw = _run(cell.command, work, env)
    rtk = _run(f"{rtk_executable()[0]} {cell.command}", work, env) if cell.filtered else ""
    # under Claude Code a reader's output past its window is a map (rtk/filters/readmap.py): its
    # lines are rtk's own too
    claude = _run(f"{rtk_executable()[0]} {cell.command}", work, {**env, "CLAUDECODE": "1"}) if cell.filtered else ""
    raw_lines = {fold(line.strip()) for line in raw.splitlines()}
    rtk_lines = list(dict.fromkeys(
        line.strip() for line in (rtk + "\n" + claude).splitlines()
        if line.strip() and RECALL not in line and fold(line.strip()) not in raw_lines
    ))
    return Reference(raw, rtk, facts(cell, raw, work), rtk_lines)


def facts(cell: Cell, raw: str, work: Path) -> list[str]:
    """What the model must be able to read from the whole output, its end included."""
    lines = raw.splitlines()
    if cell.command == "git status":
        return [line.split(":", 1)[1].strip().split(" (")[0] for line in lines if line.startswith("\tmodified:")]
    if cell.command.startswith("git diff"):
        return [line.split(" b/", 1)[1] for line in lines if line.startswith("diff --git ")]
    if cell.command == "ls -la":
        return [line.split()[-1] for line in lines[1:] if line.split()[-1] not in (".", "..")]
    if cell.command.startswith("cat "):
        text = (work / BIG_FILE).read_text().splitlines()
        return [text[0].strip(), next(line for line in reversed(text) if line.strip()).strip()]
    if cell.command.startswith("grep "):
        return sorted({line.split(":", 1)[0].removeprefix("./") for line in lines if ":" in line})
    if cell.command.startswith("git log"):
        return [line.strip() for line in lines if line.startswith("    ") and line.strip()]
    if cell.command.startswith("pytest"):
        return ["test_separators", "1 failed", "1 passed"]
    return []


def broken_by_host(ref: Reference, bare: str | None) -> str:
    """Why the command ran in the host's own shell with no hook yet printed not its output ("" when
    it did): then there is no output of it for rtk to condense. E.g. Gemini CLI 0.61 runs commands
    with `diff.external=` set, which git 2.39 takes for a program named "": `git diff` fails."""
    if outcome(bare) != "ran" or bare is None or not ref.facts or any(marker in bare for marker in PREVIEWS):
        return ""
    if 2 * sum(fact in bare for fact in ref.facts) >= len(ref.facts):
        return ""
    return bare.strip().splitlines()[0][:200] if bare.strip() else "(no output)"


def outcome(text: str | None) -> str:
    """ran, denied (the host refused it), or missing (the session ended before it)."""
    if text is None:
        return "missing"
    return "denied" if any(marker in text for marker in DENIALS) else "ran"


def problems(cell: Cell, ref: Reference, bare: str | None, hooked: str | None) -> list[str]:
    """Why the hooked run's cell differs from what it must be ([] when it does not)."""
    found = []
    if outcome(bare) != outcome(hooked):
        found.append(f"outcome changed: {outcome(bare)} with no hook, {outcome(hooked)} with rtk's hook")
    if outcome(hooked) != "ran" or not cell.filtered or hooked is None:
        return found
    folded = fold(hooked)
    lost = [fact for fact in ref.facts if fact not in hooked]
    if lost:
        found.append(f"{len(lost)} of {len(ref.facts)} facts of the whole output missing, e.g. {lost[:3]}")
    if ref.rtk_lines and not any(fold(line) in folded for line in ref.rtk_lines):
        found.append(f"not rtk's form: none of rtk's own lines, e.g. {ref.rtk_lines[:2]}")
    if bare is not None and fold(bare) == folded:
        found.append("the model read what it reads with no hook")
    if len(hooked) >= len(ref.raw):
        found.append(f"not smaller: {len(hooked)} chars, the raw output has {len(ref.raw)}")
    cut = [marker for marker in PREVIEWS if marker in hooked]
    if cut or (cell.big and len(hooked) > HOST_CUT):
        found.append(f"the host cut it (a preview, not a summary): {len(hooked)} chars, markers {cut}")
    return found
