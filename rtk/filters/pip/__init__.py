"""pip install / uv pip install / uv sync|add|lock|remove: what was installed, warnings, errors.

Keeps `Successfully installed ...` (uv's `+ pkg==1.0` lines joined into one line), uv's result
counts (`Resolved 13 packages`, `Installed 44 packages`, `Audited 32 packages`), every
`WARNING:`/`warning:`, every `ERROR:`/`error:` with its `cause:`/`hint:` lines, the conflict
explanation, and from a failed build (pip's `[N lines of output]`, uv's `[stdout]`/`[stderr]`)
every line that says what failed and why: the backend's exception with its whole message and
frame, error lines, what was not found and the hint naming the tool (build.py). A
`(from versions: ...)` list keeps its first and last versions with the middle counted. Drops:
Collecting/Downloading/progress bars/cached/`Requirement already satisfied` (counted), build
chatter (copying, running, gcc command lines), resolver timings.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "pip",
    "pip install|download|wheel, uv pip install|sync, uv sync|add|lock|remove",
    (Words(("pip", "pip3"), ("install", "download", "wheel")),
     Words(("uv",), ("pip",), ("install", "sync")),
     Words(("uv",), ("sync", "add", "lock", "remove"))),
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.pip.filter import PipFilter

    return PipFilter(ctx)
