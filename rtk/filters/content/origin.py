"""Where the printed lines come from, so an elision can name the command that prints them.

`cat F`, `head [-n N] F` and `sed -n 'A,Bp' F` print one file from a known line (1, 1 and A), so
output line k is file line start+k-1 and `sed -n 'X,Yp' F` prints any left-out range. For
anything else (`tail`, several files, stdin, `/re/p`) the numbers count output lines and the
hint pipes the same command through `sed -n`.
"""
from __future__ import annotations

import os

from rtk.shell.quote import join_words, quote_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

CAT_FLAGS = frozenset("AbeEnstTuv")
HEAD_VALUE = ("-n", "-c", "--lines", "--bytes")


SedRange = tuple[int, list[str]]  # (first line printed, 0 when unknown; the files)


class Origin:
    def __init__(self, argv: Sequence[str], sed: SedRange | None = None) -> None:
        self.argv = list(argv)
        self.sed = sed
        self.start, self.file = self._locate()
        self.name = self.file or self._only_operand()  # what kind of file it is (its extension)
        self.numbered = self._prog == "cat" and any(
            a.startswith("-") and not a.startswith("--") and set(a[1:]) & {"n", "b"} for a in argv[1:])

    @property
    def _prog(self) -> str:
        return os.path.basename(self.argv[0]) if self.argv else ""

    def _locate(self) -> tuple[int, str | None]:
        prog = self._prog
        if prog == "sed":
            found = self.sed
            if found and found[0] and len(found[1]) == 1:
                return found[0], found[1][0]
            return 1, None
        files = _operands(self.argv[1:], HEAD_VALUE if prog in ("head", "tail") else ())
        if len(files) != 1 or files[0] == "-":
            return 1, None
        if prog == "head" or prog == "cat" and not self._squeezes:
            return 1, files[0]
        start = _tail_from(self.argv[1:]) if prog == "tail" else None
        return (start, files[0]) if start else (1, None)

    def _only_operand(self) -> str | None:
        if self._prog == "sed":
            files = self.sed[1] if self.sed else []
        else:
            files = _operands(self.argv[1:], HEAD_VALUE if self._prog in ("head", "tail") else ())
        return files[0] if len(files) == 1 and files[0] != "-" else None

    @property
    def _squeezes(self) -> bool:
        """`cat -s` merges blank lines, so its line numbers are not the file's."""
        return any(a.startswith("-") and not a.startswith("--") and "s" in a for a in self.argv[1:]) \
            or "--squeeze-blank" in self.argv

    def command_for(self, first: int, last: int) -> str:
        """The command that prints output lines first..last (numbers as shown in the elision)."""
        if self.file is not None:
            return f"sed -n '{first},{last}p' {quote_word(self.file)}"
        return f"{join_words(self.argv)} | sed -n '{first},{last}p'"


def _operands(args: Sequence[str], with_value: Sequence[str]) -> list[str]:
    files: list[str] = []
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
        elif arg == "--":
            files.extend(args[i + 1:])
            break
        elif arg in with_value:
            skip = True
        elif not (arg.startswith("-") and arg != "-"):
            files.append(arg)
    return files


def _tail_from(args: Sequence[str]) -> int | None:
    """K for `tail -n +K` / `tail -n+K` / `tail --lines=+K` / `tail +K`: output starts at line K."""
    for i, arg in enumerate(args):
        value = None
        if arg in ("-n", "--lines") and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lines="):
            value = arg.split("=", 1)[1]
        elif arg.startswith("-n"):
            value = arg[2:]
        elif arg.startswith("+"):
            value = arg
        if value and value.startswith("+") and value[1:].isdigit():
            return max(int(value[1:]), 1)
    return None


def understood(argv: Sequence[str], sed: SedRange | None) -> bool:
    """Options whose output is still the file's lines (no NUL separators, no following)."""
    prog = os.path.basename(argv[0]) if argv else ""
    if prog == "sed":
        return sed is not None
    for arg in argv[1:]:
        if arg == "--":
            break
        if arg.startswith("--"):
            if arg.startswith(("--follow", "--zero", "--pid", "--retry", "--help", "--version")):
                return False
        elif arg.startswith("-") and arg != "-":
            letters = set(arg[1:])
            if prog == "cat" and not letters <= CAT_FLAGS:
                return False
            if prog in ("head", "tail") and letters & {"f", "F", "z"}:
                return False
    return True
