"""Signals rtk receives while its child runs: passed on to the child's whole process group.

Installed right after the spawn, before trio is imported; the trio session takes over the same
forwarding rule (`forward_signal`) once it runs. The child leads its own group (jobs.py), so a
Ctrl-C typed at the terminal reaches it from the kernel, never through rtk, and every signal rtk
does receive came from someone else (`kill`, an agent's timeout, a closed terminal): it goes to
the group once. The exit code stays the child's own: 130 only if the child dies of SIGINT.

SIGTSTP (`kill -TSTP`, or Ctrl-Z while a pipe reader holds the terminal) is passed on too, but
does not start the grace-period kill: the child stops, and rtk stops with it (jobs.py).

A signal rtk inherited as ignored stays ignored, for rtk and for the child (which inherits the
disposition across exec): `nohup rtk X` ignores SIGHUP as `nohup X` does, and `rtk X &` in a
script ignores SIGINT and SIGQUIT as a background job there does. rtk installs no handler for it,
so it neither dies of it nor passes it on.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal

    from rtk.run.jobs import ChildGroup
else:  # `signal` wraps this in enums, and `enum` costs milliseconds on every run
    import _signal as signal

FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
SUSPEND = signal.SIGTSTP
KILL_GRACE_SECONDS = 5.0


class EarlySignals:
    """Signals that arrive between spawning the child and trio taking over: forwarded, remembered."""

    def __init__(self) -> None:
        self.received: list[int] = []
        self.unsent: list[int] = []  # arrived before the child existed: the session sends them
        self.group: ChildGroup | None = None
        self.ignored = inherited_ignored()
        for sig in (*FORWARDED, SUSPEND):
            if sig not in self.ignored:
                signal.signal(sig, self._handle)

    @property
    def handled(self) -> tuple[int, ...]:
        """The signals rtk passes on (those it did not inherit as ignored)."""
        return tuple(sig for sig in (*FORWARDED, SUSPEND) if sig not in self.ignored)

    def _handle(self, signum: int, frame: object) -> None:
        if signum != SUSPEND:
            self.received.append(signum)
        if self.group is None:
            self.unsent.append(signum)
        else:
            forward_signal(self.group, signum)


def inherited_ignored() -> frozenset[int]:
    """The forwarded signals whose disposition is "ignore" (inherited: rtk sets none itself)."""
    return frozenset(sig for sig in (*FORWARDED, SUSPEND) if signal.getsignal(sig) == signal.SIG_IGN)


def forward_signal(group: ChildGroup, signum: int) -> None:
    """Pass a signal rtk received on to every process of the child's group."""
    group.send(signum)
