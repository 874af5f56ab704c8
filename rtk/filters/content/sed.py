"""Reading `sed -n 'A,Bp' FILE`: the only sed scripts the content filter serves.

Standard library only and no `re`: the hook path asks it before every agent command.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


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
