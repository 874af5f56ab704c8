"""cat, head, tail, sed -n: a file's text, byte-exact unless it is long; never a hole without a map.

An agent reads a file to change it, so a file is printed whole up to `content_max_lines` (2,000)
and `content_max_bytes` (100 KB). Why those sizes: measured on real source files (click, cobra,
jq, serde_json, gson, axios), a 2,000-line file is 61-87 KB and 16-21k tokens (cobra's
command.go: 2,072 lines, 61 KB, 15.9k tokens; jq's builtin.c: 2,151 lines, 66 KB, 21.2k tokens),
and a 3,800-line one ~148 KB and ~32k tokens (click's core.py: 3,799 lines). The hosts' own file
readers stop at about the first of these: Claude Code's Read tool gives 2,000 lines and refuses
more than 25k tokens (~100 KB). So up to that, the file is what the agent would have read anyway.

Above it the agent gets the first `content_head_lines` (200) and last `content_tail_lines` (100)
lines with their line numbers, one line saying which lines were left out with the exact command
that prints them (`sed -n '201,3699p' src/click/core.py`), and an outline of that middle: its
definitions and headings with their line numbers (outline.py), so it knows which range to print.
Under a host that cuts long outputs (Claude Code: 30,000 chars, `output_max_chars` from the
pipeline) the whole-file size is that limit, and the head, outline and tail share it (40%, 30%,
20%), so the map is never lost in the host's 2 KB preview; past the host's window a smaller map
of the whole file may stand for it (rtk.filters.readmap). `tail -f`, `sed` without `-n` or with
a script other than line printing, and options rtk does not know pass through untouched.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from rtk.filters.base import Filter, FilterContext


class NotFollowing(Words):
    """`tail` that ends: `-f`, `-F` and `--follow` stream forever and must stay raw."""

    __slots__ = ()

    def matches(self, words: Sequence[str]) -> bool:
        return super().matches(words) and not any(
            w.startswith("--follow") or (w.startswith("-") and not w.startswith("--") and ("f" in w or "F" in w))
            for w in words[1:])


class SedPrint(Words):
    """`sed -n` with a line-printing script (`'10,20p'`, `'/re/p'`): it prints part of a file."""

    __slots__ = ()

    def matches(self, words: Sequence[str]) -> bool:
        if not super().matches(words):
            return False
        return sed_print_range(words) is not None


def sed_print_range(argv: Sequence[str]) -> tuple[int, list[str]] | None:
    """(first printed line number or 0 when unknown, files) for a print-only `sed -n`, else None."""
    quiet = False
    scripts: list[str] = []
    files: list[str] = []
    args = list(argv[1:])
    while args:
        arg = args.pop(0)
        if arg in ("-n", "--quiet", "--silent"):
            quiet = True
        elif arg in ("-e", "--expression") and args:
            scripts.append(args.pop(0))
        elif arg.startswith("--expression="):
            scripts.append(arg.split("=", 1)[1])
        elif arg.startswith("-") and arg != "-":
            if set(arg[1:]) - {"n", "s", "u", "E", "r", "e"} or ("e" in arg and not arg.endswith("e")):
                return None
            quiet |= "n" in arg
            if arg.endswith("e") and args:
                scripts.append(args.pop(0))
        elif not scripts and not files and not _has_e(argv):
            scripts.append(arg)
        else:
            files.append(arg)
    if not quiet or len(scripts) != 1:
        return None
    first = _print_start(scripts[0].strip())
    return None if first is None else (first, files)


def _has_e(argv: Sequence[str]) -> bool:
    return any(a in ("-e", "--expression") or a.startswith("--expression=")
               or (a.startswith("-") and not a.startswith("--") and a.endswith("e")) for a in argv[1:])


def _print_start(script: str) -> int | None:
    """`10,20p` -> 10, `5p` -> 5, `/re/p` or `/a/,/b/p` -> 0 (unknown); anything else -> None."""
    if not script.endswith("p") or ";" in script or "\n" in script or "{" in script:
        return None
    address = script[:-1].strip()
    if address.startswith("/") and address.count("/") in (2, 4) and "\\" not in address:
        return 0
    start, _, end = address.partition(",")
    if start.strip().isdigit() and (not end or end.strip().isdigit() or end.strip() == "$"):
        return int(start)
    return None


SERVES = Serves("content", "cat|head|tail|sed -n 'A,Bp' FILE (file contents)",
                (Words(("cat", "head")), NotFollowing(("tail",)), SedPrint(("sed",))))


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.content.filter import create as build

    is_sed = bool(ctx.argv) and ctx.argv[0].rsplit("/", 1)[-1] == "sed"
    return build(ctx, sed_print_range(ctx.argv) if is_sed else None)
