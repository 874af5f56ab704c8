"""`rtk session` and `rtk gain`'s memory row: what each context's calls were and what memory
spared the model (in characters: the hook path counts no tokens; `rtk gain`'s own totals already
count what memory printed, with tiktoken). Reads the store; writes nothing."""
from __future__ import annotations

from rtk.session import store, wording

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.session.store import State

FROM_MEMORY = frozenset({"repeat", "reread", "delta"})


def _saved(state: State) -> tuple[int, int]:
    """(calls answered from memory, chars not shown again)."""
    calls = [entry for entry in store.log_of(state) if entry[2] in FROM_MEMORY]
    return len(calls), sum(max(0, entry[4] - entry[5]) for entry in calls)


def gain_line() -> str | None:
    states = store.all_states()
    calls = chars = 0
    for state in states:
        more_calls, more_chars = _saved(state)
        calls, chars = calls + more_calls, chars + more_chars
    if not calls:
        return None
    return (f"session memory: {_count(calls, 'call')} answered from memory in {_count(len(states), 'context')}, "
            f"{chars:,} chars not shown again (~{chars // 4:,} tokens); rtk session lists them")


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def contexts() -> list[str]:
    """One line per stored context, oldest first."""
    lines = []
    for state in store.all_states():
        host, session, agent = (state.get("key", "").split("|") + ["", "", ""])[:3]
        calls, chars = _saved(state)
        log = store.log_of(state)
        last = log[-1][1] if log else state.get("created", 0)
        lines.append(f"{host} {session} {agent}: {state['calls']:,} calls, {calls:,} from memory, "
                     f"{chars:,} chars spared; last {wording.clock(last)}")
    return lines


def calls(session_prefix: str) -> list[str]:
    """Every logged call of the contexts whose session id starts with `session_prefix`."""
    lines = []
    for state in store.all_states():
        host, session, agent = (state.get("key", "").split("|") + ["", "", ""])[:3]
        if not session.startswith(session_prefix):
            continue
        lines.append(f"{host} {session} {agent}:")
        for call, stamp, kind, command, before, after in store.log_of(state):
            size = f"{before:,} -> {after:,} chars" if kind != "boundary" else ""
            lines.append(f"  #{call:<4} {wording.clock(stamp)}  {kind:<8} {command}  {size}".rstrip())
    return lines
