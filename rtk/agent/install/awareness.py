"""Claude's awareness file: `RTK.md` tells the agent that output is condensed and how to get it
back, and one `@RTK.md` line in CLAUDE.md imports it.

The import line is the only thing rtk writes into the user's CLAUDE.md, so taking it out must give
back their bytes: a file that had no final newline gets the line without one (`...\\n@RTK.md`), and
uninstall then drops the newline it added before the line.
"""
from __future__ import annotations

IMPORT_LINE = "@RTK.md"
# rtk's own RTK.md starts with this (1.x wrote "; `rtk init --uninstall` removes this file" after it)
RTK_MD_OWNED = "<!-- written by `rtk init`"
RTK_MD_MARKER = (f"{RTK_MD_OWNED}; `rtk uninstall -g` removes this file (`rtk uninstall` where it was written "
                 "for one project) -->")
RTK_MD = f"""{RTK_MD_MARKER}
# rtk

Your shell commands go through rtk. Test runners, builds and linters run as `rtk X`; the commands
that read (`git status`, `git diff`, `ls`, `cat`, `grep`, ...) run as you typed them and rtk
condenses their output after they ran. Either way you read a condensed form of the output
(failures, errors with file:line, changed files, one summary line); the exit code is always the
command's own.

When rtk left something out, the output ends with `[full output: rtk recall ID]`. Run
`rtk recall ID` to read the whole output (narrow it with `--grep PATTERN`, `--head N`, `--tail N`).
To run a command with no filtering at all: `rtk proxy COMMAND`.
"""


def add_import(text: str) -> str:
    """CLAUDE.md with the `@RTK.md` line, added once at the end, keeping the file's final-newline
    style (a file without a final newline gets the line without one)."""
    if any(line.strip() == IMPORT_LINE for line in text.splitlines()):
        return text
    if not text:
        return f"{IMPORT_LINE}\n"
    if text.endswith("\n"):
        return f"{text}{IMPORT_LINE}\n"
    return f"{text}{_newline(text)}{IMPORT_LINE}"


def remove_import(text: str) -> str:
    """CLAUDE.md without the `@RTK.md` line; when it was the last line and had no final newline,
    the newline before it (the one add_import put there) goes with it."""
    lines = text.splitlines(keepends=True)
    kept = [line for line in lines if line.strip() != IMPORT_LINE]
    if len(kept) == len(lines):
        return text
    if lines and lines[-1].strip() == IMPORT_LINE and not lines[-1].endswith(("\n", "\r")) and kept:
        kept[-1] = kept[-1].rstrip("\r\n")
    return "".join(kept)


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"
