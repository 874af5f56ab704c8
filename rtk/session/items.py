"""Deltas' one interface per tool: which printed lines open an item (a failure, a diagnostic
block) and what its id is, and which lines belong to no item (summaries, counts, hints: always
printed fresh). An item runs from its opening line to the next opening or closing line; its body
is those lines as the filter printed them. Each tool is a few lines of data below.

`split(lines, spec)` gives [(id or None, lines)]: None for the lines outside every item.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


class Spec:
    """`opens(line)` -> the item id the line opens, or None; `closes`: prefixes of lines outside
    every item (counts, summaries) that end the item before them; `heads(line)`: a line outside
    every item that names what the next items belong to (a diff's file line), their ids then
    start with it; `failures`: the items are failures (a rerun names those that went away)."""

    __slots__ = ("closes", "failures", "heads", "opens")

    def __init__(self, opens: Callable[[str], str | None], closes: tuple[str, ...] = (),
                 heads: Callable[[str], bool] | None = None, failures: bool = True) -> None:
        self.opens, self.closes, self.heads, self.failures = opens, closes, heads, failures


HINTS = ("[full output", "[rtk", "rtk:", "[... ", "... [")


def _after(prefixes: tuple[str, ...], cut: str = "") -> Callable[[str], str | None]:
    """An item opens on a line starting with one of `prefixes`; its id is the rest of the line
    (up to `cut`)."""
    def opens(line: str) -> str | None:
        for prefix in prefixes:
            if line.startswith(prefix):
                rest = line[len(prefix):]
                return (rest.split(cut, 1)[0] if cut else rest).strip() or line
        return None
    return opens


def _pytest(line: str) -> str | None:
    """`FAILED t.py::test_x[a] - AssertionError` / `... (same as [b])`: the test id alone."""
    found = _after(("FAILED ", "ERROR "), " - ")(line)
    return found.split(" (same ", 1)[0] if found else None


def _cargo(line: str) -> str | None:
    """`error[E0308]: mismatched types` / `warning: unused ...`, `---- tests::x stdout ----`."""
    if line.startswith("---- ") and line.endswith(" ----"):
        return line
    if line.startswith(("error[", "error:", "warning[", "warning:")) and not line.startswith(
            ("error: could not compile", "warning: `", "error: aborting", "error: test failed")):
        return line
    return None


def _located(line: str) -> str | None:
    """`path:line[:col]: ...` diagnostics (mypy, go build/vet, gcc, ruff): each line an item,
    indented lines under it its body."""
    if not line or line[0] in " \t" or ":" not in line:
        return None
    head = line.split(":", 2)
    return line if len(head) == 3 and head[1].isdigit() else None


def _diff_file(line: str) -> bool:
    """rtk's git diff names each file on a line of its own: `path (+3 -1)`, `path (new, +17)`."""
    return bool(line) and not line.startswith(("@@", "+", "-", " ", "\\", "[")) and line.endswith(")")


def _indented(line: str) -> str | None:
    """tsc's and eslint's `  L12:5 TS2322 ...` under their file's line (deeper lines: its body)."""
    return line.strip() if line.startswith("  ") and not line.startswith("   ") else None


def _file_line(closes: tuple[str, ...]) -> Callable[[str], bool]:
    return lambda line: bool(line) and line[0] not in " \t" and not line.startswith(closes)


TSC_CLOSES = ("tsc:", "Building project", "Found ", *HINTS)
ESLINT_CLOSES = ("eslint:", "(paths below", "✖", *HINTS)
SPECS: dict[str, Spec] = {
    "pytest": Spec(_pytest,
                   ("SKIPPED", "XFAIL", "XPASS", "pytest:", "PASSED", *HINTS)),
    "cargo": Spec(_cargo, ("test result:", "failures:", "error: could not compile", "cargo:", "warning: `",
                           *HINTS)),
    "go": Spec(lambda line: line.rstrip() if line.startswith("--- FAIL:") else _located(line.removeprefix("./")),
               ("FAIL\t", "FAIL ", "ok ", "ok\t", "go:", "#", *HINTS)),
    "jest": Spec(_after(("FAIL ", "● ")), ("Tests:", "Test Suites:", "Snapshots:", "Time:", "jest:", *HINTS)),
    "vitest": Spec(_after(("FAIL ",)), ("Test Files", "Tests ", "vitest:", "Duration", *HINTS)),
    "mocha": Spec(_after(("FAIL ",)), ("mocha:", *HINTS)),
    "mypy": Spec(_located, ("Found ", "Success:", "mypy:", *HINTS)),
    "pyright": Spec(_located, ("pyright:", *HINTS)),
    "ruff": Spec(_located, ("Found ", "ruff:", "warning:", *HINTS)),
    "make": Spec(_located, ("make:", *HINTS)),
    "gcc": Spec(_located, ("gcc:", "make:", *HINTS)),
    "tsc": Spec(_indented, TSC_CLOSES, _file_line(TSC_CLOSES)),
    "eslint": Spec(_indented, ESLINT_CLOSES, _file_line(ESLINT_CLOSES)),
    "biome": Spec(_located, ("biome:", "If you wish", *HINTS)),
    # git diff: a hunk shown before is its `@@` line and a mark, under its file's line
    "git": Spec(lambda line: line if line.startswith("@@") else None, HINTS, _diff_file, failures=False),
}


def split(lines: Sequence[str], spec: Spec) -> list[tuple[str | None, list[str]]]:
    parts: list[tuple[str | None, list[str]]] = []
    head = ""
    for line in lines:
        opened = spec.opens(line)
        if opened is not None:
            parts.append((f"{head}: {opened}" if head else opened, [line]))
        elif spec.heads is not None and spec.heads(line):
            head = line.rsplit(" (", 1)[0]
            parts.append((None, [line]))
        elif line.startswith(spec.closes) or not parts:
            if parts and parts[-1][0] is None:
                parts[-1][1].append(line)
            else:
                parts.append((None, [line]))
        else:
            parts[-1][1].append(line)
    return parts
