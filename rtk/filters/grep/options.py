"""What a grep or rg command line says about its output's layout.

grep prints `path:` when it searches more than one file (or recursively, or with -H), and line
numbers with -n. rg prints paths unless it searches one file (or -I), and line numbers only on a
terminal or with -n, so a captured rg run has none unless asked. Modes whose lines are not
`path:line:text` make the filter pass everything through.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


GREP_VALUE = frozenset("efmABCdD")
GREP_LONG_VALUE = frozenset({"--regexp", "--file", "--max-count", "--after-context", "--before-context",
                             "--context", "--directories", "--devices", "--include", "--exclude",
                             "--exclude-dir", "--exclude-from", "--label", "--binary-files", "--color",
                             "--colour", "--group-separator"})
RG_VALUE = frozenset("efgtTmABCjMrdE")
RG_LONG_VALUE = frozenset({"--regexp", "--file", "--glob", "--iglob", "--type", "--type-not",
                           "--type-add", "--type-clear", "--max-count", "--after-context",
                           "--before-context", "--context", "--threads", "--max-columns", "--replace",
                           "--max-depth", "--encoding", "--sort", "--sortr", "--colors", "--color",
                           "--pre", "--pre-glob", "--ignore-file", "--path-separator", "--max-filesize",
                           "--context-separator", "--field-match-separator", "--field-context-separator",
                           "--engine", "--dfa-size-limit", "--regex-size-limit", "--hostname-bin",
                           "--hyperlink-format", "--generate"})
GREP_RAW_SHORT = frozenset("clLqZzbsVhT") - {"h", "s"}
GREP_RAW_LONG = frozenset({"--count", "--files-with-matches", "--files-without-match", "--quiet",
                           "--silent", "--null", "--null-data", "--byte-offset", "--help", "--version",
                           "--initial-tab"})
RG_RAW_SHORT = frozenset("clqb0V")
RG_RAW_LONG = frozenset({"--count", "--count-matches", "--files-with-matches", "--files-without-match",
                         "--quiet", "--null", "--null-data", "--byte-offset", "--json", "--vimgrep",
                         "--column", "--files", "--type-list", "--help", "--version", "--stats",
                         "--debug", "--trace", "--generate", "--pcre2-version"})


class GrepOptions:
    def __init__(self, argv: Sequence[str]) -> None:
        self.rg = argv[0].rsplit("/", 1)[-1] == "rg"
        self.short: set[str] = set()
        self.long: set[str] = set()
        self.pattern: str | None = None
        self.operands: list[str] = []
        self._parse(list(argv[1:]))

    def _parse(self, args: list[str]) -> None:
        value_short, value_long = (RG_VALUE, RG_LONG_VALUE) if self.rg else (GREP_VALUE, GREP_LONG_VALUE)
        positional: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "--":
                positional.extend(args[i:])
                break
            if arg.startswith("--"):
                name, eq, value = arg.partition("=")
                self.long.add(name)
                if name in value_long and not eq and i < len(args):
                    value, i = args[i], i + 1
                if name in ("--regexp",):
                    self.pattern = value
            elif arg.startswith("-") and arg != "-":
                i = self._short(arg[1:], args, i, value_short)
            else:
                positional.append(arg)
        if self.pattern is None and positional and not (self.short & {"e", "f"}) and "--file" not in self.long:
            self.pattern = positional.pop(0)
        self.operands = positional

    def _short(self, letters: str, args: list[str], i: int, value_short: frozenset[str]) -> int:
        for k, letter in enumerate(letters):
            self.short.add(letter)
            if letter in value_short:
                value = letters[k + 1:]
                if not value and i < len(args):
                    value, i = args[i], i + 1
                if letter == "e" and self.pattern is None:
                    self.pattern = value
                break
        return i

    @property
    def passthrough(self) -> bool:
        raw_short, raw_long = (RG_RAW_SHORT, RG_RAW_LONG) if self.rg else (GREP_RAW_SHORT, GREP_RAW_LONG)
        return bool(self.short & raw_short or self.long & raw_long)

    @property
    def line_numbers(self) -> bool:
        if self.rg:
            return ("n" in self.short or "--line-number" in self.long) and "N" not in self.short \
                and "--no-line-number" not in self.long
        return "n" in self.short or "--line-number" in self.long

    @property
    def paths(self) -> bool:
        """Whether each line starts with `path:` (or `path-` for context)."""
        if "h" in self.short and not self.rg or "I" in self.short and self.rg \
                or "--no-filename" in self.long:
            return False
        if "H" in self.short or "--with-filename" in self.long:
            return True
        if self.rg:
            return len(self.operands) != 1 or not _looks_like_file(self.operands[0])
        recursive = bool(self.short & {"r", "R"}) or "--recursive" in self.long \
            or "--dereference-recursive" in self.long
        return recursive or len(self.operands) > 1

    @property
    def context(self) -> bool:
        """-A/-B/-C (or their long forms): context lines `path-12-text` and `--` separators."""
        return bool(self.short & {"A", "B", "C"}) or bool(self.long & {"--after-context", "--before-context",
                                                                       "--context"}) \
            or any(letter.isdigit() for letter in self.short)

    @property
    def heading(self) -> bool:
        return self.rg and "--heading" in self.long


def _looks_like_file(operand: str) -> bool:
    """rg names the file only when it searches a directory; `src/app.py` is taken for a file."""
    last = operand.rstrip("/").rsplit("/", 1)[-1]
    return not operand.endswith("/") and "." in last.strip(".")
