"""Every line session memory prints, in one place. Each says what ran (just now, for real), what
it printed or read, which earlier call showed the same (number and clock time, so the model can
find it above) and how to see it again: never "cached", never "skipped"."""
from __future__ import annotations

import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    Shown = tuple[int, float, str, str | None, tuple[str, ...]]  # store.CALL, TIME, ...


RECALL_HINT = "[full output: rtk recall "  # as rtk.filters.base.recall_hint writes it


def clock(stamp: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(stamp))


def _again(recall_id: str | None) -> str:
    return f"to see it again: rtk recall {recall_id}" if recall_id else "to see it again, run it with rtk proxy"


def repeat(command: str, exit_code: int, earlier: Shown, recall_id: str | None, timings: bool) -> str:
    aside = ", durations and addresses aside" if timings else ""
    return (f"[rtk: `{command}` ran again just now (exit {exit_code}) and printed exactly what call "
            f"{earlier[0]} printed at {clock(earlier[1])}{aside}: nothing it prints changed since then; "
            f"{_again(recall_id)}]")


def reread(path: str, span: str, earlier: Shown, digest: str, recall_id: str | None) -> str:
    return (f"[rtk: read again just now: {path} ({span}) is unchanged since call {earlier[0]} at "
            f"{clock(earlier[1])} (content blake2 {digest}); {_again(recall_id)}]")


def tool_reread(path: str, span: str, earlier: Shown, digest: str) -> str:
    """Claude's Read tool: the content comes back with a Read of another range, or `rtk proxy cat`."""
    return (f"[rtk: read again just now: {path} ({span}) is unchanged since call {earlier[0]} at "
            f"{clock(earlier[1])} (content blake2 {digest}), shown above in full. To have it printed "
            f"again: rtk proxy cat -n {path}]")


def changed(path: str, earlier: Shown) -> str:
    return f"[rtk: {path} changed since call {earlier[0]} at {clock(earlier[1])}; read whole again:]"


def unchanged_item(first_line: str, call: int) -> str:
    """A failure block shown in full by `call`: its first line (the id) and a short mark."""
    return f"{first_line}  [unchanged since call {call}]"


def unchanged_note(calls: dict[int, float], recall_id: str | None) -> str:
    """Once per output that has marks: what they mean, and when those calls ran."""
    when = ", ".join(f"{call} at {clock(stamp)}" for call, stamp in sorted(calls.items()))
    where = f"; all of it: rtk recall {recall_id}" if recall_id else ""
    return f"[rtk: unchanged = printed exactly as shown above by call {when}{where}]"


def no_longer_failing(ids: list[str], call: int) -> str:
    names = _grouped(ids)
    shown = ", ".join(names[:20]) + (f" and {len(names) - 20} more" if len(names) > 20 else "")
    return f"[rtk: failing in call {call}, not failing in this run: {shown}]"


def _grouped(ids: list[str]) -> list[str]:
    """`t.py::test_x[a]`, `t.py::test_x[b]` -> `t.py::test_x (2 cases)`: the test, without its
    parameters when several of them stopped failing."""
    bases: dict[str, list[str]] = {}
    for item in ids:
        bases.setdefault(item.split("[", 1)[0] if item.endswith("]") else item, []).append(item)
    return [group[0] if len(group) == 1 else f"{base} ({len(group)} cases)" for base, group in bases.items()]
