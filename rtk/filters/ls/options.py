"""Which `ls` invocations the filter understands: GNU/BSD short flags and a few long ones.

Anything else (`--format=...`, `-C`, `-m`, `-Q`, `--full-time`, `-Z`, ...) changes the layout in
ways the parser would misread, so the filter passes it through untouched.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


SHORT_OK = frozenset("aAlhR1trSFpdGgonisUvcuLHkBX")
LONG_OK = frozenset({"--all", "--almost-all", "--human-readable", "--recursive", "--reverse",
                     "--classify", "--file-type", "--directory", "--dereference", "--si",
                     "--numeric-uid-gid", "--no-group", "--inode", "--size", "--ignore-backups",
                     "--group-directories-first", "--color", "--color=never", "--color=auto",
                     "--color=always", "--color=none", "--sort=size", "--sort=time", "--sort=name",
                     "--sort=none", "--sort=version", "--sort=extension", "--time-style=iso",
                     "--time-style=long-iso", "--time-style=locale", "--literal", "-N"})


class LsOptions:
    """The flags that decide how the output is read and what it keeps."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.understood = True
        self.flags: set[str] = set()
        operands = 0
        for arg in argv[1:]:
            if arg == "--":
                break
            if arg.startswith("--"):
                self.understood &= arg in LONG_OK or arg.startswith(("--ignore=", "--hide="))
                self.flags.add(arg.split("=")[0])
            elif arg.startswith("-") and arg != "-":
                letters = set(arg[1:])
                self.understood &= letters <= SHORT_OK
                self.flags |= letters
            else:
                operands += 1
        self.operands = operands

    @property
    def long(self) -> bool:
        return bool(self.flags & set("lgon"))

    @property
    def keep_order(self) -> bool:
        """Sorted by time or size: the order means something, so no regrouping."""
        return bool(self.flags & {"t", "S", "U", "c", "u", "--sort"})
