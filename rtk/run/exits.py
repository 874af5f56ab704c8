"""Exit codes rtk itself uses, next to the child's own (which always win)."""
from __future__ import annotations

USER_ERROR = 1
USAGE_ERROR = 2
BUG = 3
NOT_EXECUTABLE = 126
COMMAND_NOT_FOUND = 127
SIGNAL_BASE = 128


def exit_status(returncode: int) -> int:
    """A Popen returncode as a shell reports it: killed by signal N -> 128+N."""
    return SIGNAL_BASE - returncode if returncode < 0 else returncode
