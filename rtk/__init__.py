"""rtk: run a command, print only what an AI coding agent needs to read."""

__version__ = "1.0.0"  # the 1.x rewrite contract (spec/rewrite.md), as upstream hook scripts check


def collect_garbage_again() -> None:
    """Turn the cyclic garbage collector back on where `bin/rtk` turned it off for the start.

    What was allocated until now (modules, functions, the filter) lives until exit: it is frozen
    out of every later collection. Does nothing where the collector is on (rtk used as a library,
    tests), so an embedding process keeps its own settings."""
    import gc

    if not gc.isenabled():
        gc.freeze()
        gc.enable()
