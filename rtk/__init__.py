"""rtk: run a command, print only what an AI coding agent needs to read."""

__version__ = "1.0.0"  # the 1.x rewrite contract (spec/rewrite.md), as upstream hook scripts check
